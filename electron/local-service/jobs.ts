import * as PARTS from './job-list'
import type { WorkerPart } from './pool/job'

/**
 * Every job kind the worker pool runs, from the areas' parts in `job-list.ts` (one line per area). A job
 * kind is `area.verb`, its handler takes a serializable job and the pool's `JobIo`, and resolves with a
 * serializable result. A kind two areas claim is refused when the module loads.
 */
type Parts = typeof PARTS
type Intersection<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer I) => void
  ? I
  : never
export type JobKinds = Intersection<Parts[keyof Parts]['jobs']>
export type JobKind = keyof JobKinds & string
export type JobOf<K extends JobKind> = Parameters<JobKinds[K]>[0]
export type ResultOf<K extends JobKind> = Awaited<ReturnType<JobKinds[K]>>

const parts: ReadonlyArray<[string, WorkerPart]> = Object.entries(PARTS)

/** The job kinds of the given parts in one table; a kind claimed twice throws, naming both areas. */
export function jobTable(
  of: ReadonlyArray<[string, WorkerPart]>,
): Record<string, WorkerPart['jobs'][string]> {
  const table: Record<string, WorkerPart['jobs'][string]> = {}
  const owner = new Map<string, string>()
  for (const [area, part] of of) {
    for (const [kind, handler] of Object.entries(part.jobs)) {
      const first = owner.get(kind)
      if (first) throw new Error(`job kind "${kind}" is claimed by both ${first} and ${area} (job-list.ts)`)
      owner.set(kind, area)
      table[kind] = handler
    }
  }
  return table
}

export const JOB_KINDS = jobTable(parts) as unknown as JobKinds

export function workerExternalBytes(): number {
  return parts.reduce((sum, [, part]) => sum + (part.externalBytes?.() ?? 0), 0)
}

export function workerCaches(): Record<string, number> {
  return Object.assign({}, ...parts.map(([, part]) => part.caches?.() ?? {}))
}
