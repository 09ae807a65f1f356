import { gisCaches, gisJobs, gisWorkerBytes } from './gis/jobs'
import { workspaceJobs } from './import/jobs'
import { routingCaches, routingJobs, routingWorkerBytes } from './routing/jobs'
import { telematicsJobs } from './telematics/jobs'
import { visionJobs, visionWorkerBytes } from './vision/jobs'

/**
 * Every job kind the worker pool runs: one line per area. A job kind is `area.verb`, its handler takes a
 * serializable job and the pool's `JobIo`, and resolves with a serializable result.
 */
export const JOB_KINDS = {
  ...gisJobs,
  ...routingJobs,
  ...telematicsJobs,
  ...workspaceJobs,
  ...visionJobs,
}

/** Memory each area's engines hold in a worker outside the V8 heap: one line per area. */
const EXTERNAL_BYTES: ReadonlyArray<() => number> = [gisWorkerBytes, routingWorkerBytes, visionWorkerBytes]

/** Each area's caches in a worker (estimated bytes, entries), for diagnostics: one line per area. */
const CACHES: ReadonlyArray<() => Record<string, number>> = [gisCaches, routingCaches]

export type JobKinds = typeof JOB_KINDS
export type JobKind = keyof JobKinds
export type JobOf<K extends JobKind> = Parameters<JobKinds[K]>[0]
export type ResultOf<K extends JobKind> = Awaited<ReturnType<JobKinds[K]>>

export function workerExternalBytes(): number {
  return EXTERNAL_BYTES.reduce((sum, bytes) => sum + bytes(), 0)
}

export function workerCaches(): Record<string, number> {
  return Object.assign({}, ...CACHES.map((caches) => caches()))
}
