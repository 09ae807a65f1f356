import { promises as fs } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { joinRunSchema, runSummarySchema, type JoinRun, type RunSummary } from '../../contract'
import { writeFileAtomic, writeJsonAtomic } from '../fs/atomic-write'
import type { Redactor } from '../http/redactor'

/**
 * Bounds of the run history. Every run is listed (the newest `maxRuns`); the rows of the newest runs are
 * kept for reopening while there are at most `maxResults` of them and their files total at most
 * `maxResultBytes`, whichever bound is hit first. A run's user geometry is kept when its text is at most
 * `maxBodyBytes` (a bigger one is dropped from the entry; its parameters still are).
 */
export interface RunHistoryLimits {
  maxRuns: number
  maxResults: number
  maxResultBytes: number
  maxBodyBytes: number
}

export const RUN_HISTORY_LIMITS: Readonly<RunHistoryLimits> = {
  maxRuns: 500,
  maxResults: 20,
  maxResultBytes: 50 * 1024 * 1024,
  maxBodyBytes: 1024 * 1024,
}

const indexSchema = z.object({ version: z.literal(1), runs: z.array(runSummarySchema) })

/** A run as recorded, before the history decides whether its rows are kept. */
export type RunRecord = Omit<RunSummary, 'hasResult'>

/**
 * Join runs in `<dataDir>/runs/`: `index.json` lists every run (newest first) and `results/<id>.json`
 * holds the kept rows of the newest runs. Both are written atomically; writes are serialized; every
 * message, parameter and body is redacted on the way in. A damaged index is moved aside, never fatal.
 */
export class RunHistory {
  readonly dir: string
  private lock: Promise<unknown> = Promise.resolve()

  constructor(
    dataDir: string,
    private readonly redactor: Redactor,
    private readonly limits: RunHistoryLimits = RUN_HISTORY_LIMITS,
  ) {
    this.dir = path.join(dataDir, 'runs')
  }

  private get indexFile(): string {
    return path.join(this.dir, 'index.json')
  }

  private resultFile(id: string): string {
    return path.join(this.dir, 'results', `${id}.json`)
  }

  /** Record a run and, when given, its result; returns the entry as listed. */
  record(run: RunRecord, result?: JoinRun): Promise<RunSummary> {
    return this.serialized(async () => {
      const runs = await this.readIndex()
      const safe = this.redactor.redactDeep(run)
      if (safe.body && JSON.stringify(safe.body).length > this.limits.maxBodyBytes) delete safe.body
      const id = uniqueId(
        safe.id,
        runs.map((r) => r.id),
      )
      const entry: RunSummary = { ...safe, id, hasResult: false }
      if (result) {
        const text = JSON.stringify(this.redactor.redactDeep({ ...result, runId: id }))
        if (text.length <= this.limits.maxResultBytes) {
          await writeFileAtomic(this.resultFile(id), text)
          entry.hasResult = true
        }
      }
      runs.unshift(entry)
      const listed = runs.slice(0, this.limits.maxRuns)
      await this.prune(listed)
      await writeJsonAtomic(this.indexFile, { version: 1, runs: listed })
      return entry
    })
  }

  /** Every run, newest first. */
  list(): Promise<RunSummary[]> {
    return this.serialized(() => this.readIndex())
  }

  /** One run and its kept rows, or undefined when no run has this id. */
  get(id: string): Promise<{ run: RunSummary; result?: JoinRun } | undefined> {
    return this.serialized(async () => {
      const run = (await this.readIndex()).find((r) => r.id === id)
      if (!run) return undefined
      if (!run.hasResult) return { run }
      const text = await fs.readFile(this.resultFile(id), 'utf8').catch(() => null)
      const parsed = text === null ? undefined : safeJson(text, joinRunSchema)
      return parsed ? { run, result: parsed } : { run: { ...run, hasResult: false } }
    })
  }

  /** Keep the rows of the newest runs within both bounds; drop the rest (and files no entry names). */
  private async prune(runs: RunSummary[]): Promise<void> {
    let kept = 0
    let bytes = 0
    const keep = new Set<string>()
    for (const run of runs) {
      if (!run.hasResult) continue
      const size = await fs.stat(this.resultFile(run.id)).then(
        (s) => s.size,
        () => -1,
      )
      if (size >= 0 && kept < this.limits.maxResults && bytes + size <= this.limits.maxResultBytes) {
        kept++
        bytes += size
        keep.add(run.id)
      } else {
        run.hasResult = false
      }
    }
    const files = await fs.readdir(path.join(this.dir, 'results')).catch(() => [] as string[])
    for (const file of files) {
      if (!keep.has(file.replace(/\.json$/, ''))) {
        await fs.rm(path.join(this.dir, 'results', file), { force: true })
      }
    }
  }

  private async readIndex(): Promise<RunSummary[]> {
    let text: string
    try {
      text = await fs.readFile(this.indexFile, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw error
    }
    const parsed = safeJson(text, indexSchema)
    if (parsed) return parsed.runs
    const stamp = new Date().toISOString().replace(/[:.]/g, '-')
    await fs.rename(this.indexFile, path.join(this.dir, `index.corrupt-${stamp}.json`))
    return []
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.lock.then(work)
    this.lock = run.catch(() => undefined)
    return run
  }
}

function uniqueId(wanted: string, taken: readonly string[]): string {
  const used = new Set(taken)
  if (!used.has(wanted)) return wanted
  for (let n = 2; ; n++) {
    const candidate = `${wanted.slice(0, 58)}-${n}`
    if (!used.has(candidate)) return candidate
  }
}

function safeJson<T>(text: string, schema: z.ZodType<T>): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}
