import { promises as fs } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { runSummarySchema, type JoinRun, type RunSummary } from '../../contract'
import { writeJsonAtomic } from '../../base/atomic-write'
import type { Redactor } from '../http/redactor'

/**
 * Bounds of the run history. Every run is listed with its parameters and counts (the newest `maxRuns`); the
 * rows are never written to disk. The results of the newest runs stay in memory for "Reopen" while there are
 * at most `maxResults` of them and they hold at most about `maxResultBytes` (estimated), whichever bound is
 * hit first; a larger result is not kept (the run can be re-run). A run's user geometry is kept when its
 * text is at most `maxBodyBytes` (a bigger one is dropped from the entry; its parameters still are).
 */
export interface RunHistoryLimits {
  maxRuns: number
  maxResults: number
  maxResultBytes: number
  maxBodyBytes: number
}

export const RUN_HISTORY_LIMITS: Readonly<RunHistoryLimits> = {
  maxRuns: 500,
  maxResults: 5,
  maxResultBytes: 128 * 1024 * 1024,
  maxBodyBytes: 1024 * 1024,
}

const indexSchema = z.object({ version: z.literal(1), runs: z.array(runSummarySchema) })

/** A run as recorded, before the history decides whether its rows are kept. */
export type RunRecord = Omit<RunSummary, 'hasResult'>

/**
 * Memory a result's rows take: the bytes of the answer they are read from (the whole buffer the view keeps
 * alive, which also holds the answer's envelope).
 */
export function estimateResultBytes(result: JoinRun): number {
  return 256 + result.rowsJson.buffer.byteLength
}

/**
 * Join runs in `<dataDir>/runs/index.json`: every run (newest first) with its parameters, status, duration
 * and row count, written atomically, writes serialized, every message, parameter and body redacted on the
 * way in; a damaged index is moved aside, never fatal. The rows of the newest runs are kept in memory only
 * (bounded), so "Reopen" works for recent runs of this session and the history never grows with results.
 */
export class RunHistory {
  readonly dir: string
  private lock: Promise<unknown> = Promise.resolve()
  /** Recent results by run id, oldest first, with their estimated size. */
  private readonly results = new Map<string, { result: JoinRun; bytes: number }>()
  private resultBytes = 0
  private legacyRemoved = false

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

  /** Record a run and, when given, keep its result in memory; returns the entry as listed. */
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
      runs.unshift(entry)
      const listed = runs.slice(0, this.limits.maxRuns)
      await writeJsonAtomic(this.indexFile, { version: 1, runs: listed })
      if (!this.legacyRemoved) {
        // Earlier versions wrote every result's rows beside the index: they are not read any more.
        this.legacyRemoved = true
        await fs.rm(path.join(this.dir, 'results'), { recursive: true, force: true }).catch(() => undefined)
      }
      if (result) this.keep(id, { ...result, runId: id })
      return { ...entry, hasResult: this.results.has(id) }
    })
  }

  private keep(id: string, result: JoinRun): void {
    const bytes = estimateResultBytes(result)
    if (bytes > this.limits.maxResultBytes || this.limits.maxResults < 1) return
    this.results.set(id, { result, bytes })
    this.resultBytes += bytes
    while (this.results.size > this.limits.maxResults || this.resultBytes > this.limits.maxResultBytes) {
      const [oldest, kept] = this.results.entries().next().value as [string, { bytes: number }]
      this.results.delete(oldest)
      this.resultBytes -= kept.bytes
    }
  }

  /** Every run, newest first; `hasResult` when its rows are still kept. */
  list(): Promise<RunSummary[]> {
    return this.serialized(async () =>
      (await this.readIndex()).map((r) => ({ ...r, hasResult: this.results.has(r.id) })),
    )
  }

  /** One run and its kept rows, or undefined when no run has this id. */
  get(id: string): Promise<{ run: RunSummary; result?: JoinRun } | undefined> {
    return this.serialized(async () => {
      const run = (await this.readIndex()).find((r) => r.id === id)
      if (!run) return undefined
      const kept = this.results.get(id)?.result
      return kept ? { run: { ...run, hasResult: true }, result: kept } : { run: { ...run, hasResult: false } }
    })
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
