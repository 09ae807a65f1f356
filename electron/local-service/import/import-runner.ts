import { promises as fs } from 'node:fs'
import { JobCancelled, JobFailed, WorkerPool } from '../pool/worker-pool'
import { Workspace, checkDatasetName, type DatasetManifest } from '../workspace/workspace'
import { ImportError } from './crs'
import { importName, type ImportOptions } from './import-dataset'
import { errorOf, type ImportJob, type ImportPhase } from './import-job'

/** The budget of one import: wall time and the worker's JavaScript heap. */
export interface ImportLimits {
  timeoutMs: number
  maxHeapMb: number
}

/**
 * Defaults: a CSV, GeoJSON or NDJSON file streams (1,000,000 points in about 320 MiB for the whole CLI
 * process here; 200,000 CSV rows fit in a 96 MiB heap, 150,000 GeoJSON features in 64 MiB); other formats
 * are read whole and need about 1 GiB of heap per 1,000,000 features (README, "Import limits"). The largest
 * file accepted is 1 GiB. Hosts may lower or raise them.
 */
export const DEFAULT_IMPORT_LIMITS: ImportLimits = { timeoutMs: 10 * 60_000, maxHeapMb: 4096 }

export class ImportCancelled extends Error {
  constructor() {
    super('the import was cancelled')
    this.name = 'ImportCancelled'
  }
}

function minutes(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 6_000) / 10} min` : `${Math.round(ms / 100) / 10} s`
}

const timeLimit = (limits: ImportLimits) =>
  new ImportError(
    `the import took longer than ${minutes(limits.timeoutMs)}, the import time limit; it was stopped and nothing was imported`,
  )

const memoryLimit = (limits: ImportLimits) =>
  new ImportError(
    `the import needed more than ${limits.maxHeapMb} MiB of memory, the import memory limit; it was stopped and nothing was imported (split the file, or convert it to FlatGeobuf)`,
  )

/**
 * Run one import job (`workspace.import`, a job kind of the worker pool) within `limits`, settling with
 * the staged dataset's manifest (not yet visible). By default the job gets a pool of its own, one worker
 * whose heap is capped at `maxHeapMb` (V8 stops it past that) and which is terminated at `timeoutMs`; a
 * caller may pass a shared `pool` instead (then the heap cap is that pool's). Whatever ends the job —
 * a refused file, a limit, a cancellation, a crash — its staging folder is removed once its worker has
 * stopped.
 */
export async function runImportJob(
  job: ImportJob,
  limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
  hooks: { signal?: AbortSignal; onPhase?: (phase: ImportPhase) => void; pool?: WorkerPool } = {},
): Promise<DatasetManifest> {
  if (hooks.signal?.aborted) throw new ImportCancelled()
  const own = hooks.pool
    ? undefined
    : new WorkerPool({
        workers: 1,
        maxQueue: 1,
        resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb },
      })
  const pool = hooks.pool ?? own!
  // A private pool is closed to stop the job (close waits for its worker to end); a shared one is told
  // through the job's signal.
  let stopped: 'time' | 'cancel' | undefined
  let closing: Promise<void> | undefined
  const shared = new AbortController()
  const stop = (why: 'time' | 'cancel') => {
    stopped ??= why
    if (own) closing ??= own.close()
    else shared.abort()
  }
  const timer = setTimeout(() => stop('time'), limits.timeoutMs)
  const onAbort = () => stop('cancel')
  hooks.signal?.addEventListener('abort', onAbort, { once: true })
  let succeeded = false
  try {
    const outcome = await pool.run('workspace.import', job, {
      signal: shared.signal,
      weight: Number.MAX_SAFE_INTEGER,
      onProgress: (progress) => hooks.onPhase?.(progress.phase as ImportPhase),
    })
    if (!outcome.ok) throw errorOf(outcome.failure)
    succeeded = true
    return outcome.manifest
  } catch (error) {
    if (stopped === 'time') throw timeLimit(limits)
    if (stopped === 'cancel') throw new ImportCancelled()
    if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw memoryLimit(limits)
    if (error instanceof JobFailed || error instanceof JobCancelled) {
      throw new Error(`the import worker failed: ${error.message}`)
    }
    throw error
  } finally {
    clearTimeout(timer)
    hooks.signal?.removeEventListener('abort', onAbort)
    if (own) await (closing ??= own.close())
    // Once the worker has stopped nothing more is written there; after a success the caller commits it.
    if (!succeeded) await fs.rm(job.stagingDir, { recursive: true, force: true })
  }
}

/**
 * Import a file as a new dataset off the calling thread: the name is checked and looked up first (a
 * conflict costs no reading), the file is read, checked and written to a staging folder by a worker
 * within `limits`, then the dataset is renamed into place under the workspace lock. Any failure — a
 * refused file, a limit, a cancellation, a crash — leaves the workspace as it was.
 */
export async function importInWorker(
  workspace: Workspace,
  file: string,
  options: ImportOptions & {
    limits?: Partial<ImportLimits>
    signal?: AbortSignal
    onPhase?: (phase: ImportPhase) => void
    /** A shared worker pool to run the job on (default: one of its own, with the heap limit). */
    pool?: WorkerPool
  } = {},
): Promise<DatasetManifest> {
  const name = importName(file, options)
  checkDatasetName(name)
  await workspace.checkFree(name)
  const job: ImportJob = {
    kind: 'import',
    workspaceDir: workspace.dir,
    file,
    name,
    ...(options.displayName ? { displayName: options.displayName } : {}),
    ...(options.skipInvalid ? { skipInvalid: true } : {}),
    stagingDir: workspace.stagingDir(name),
  }
  const manifest = await runImportJob(
    job,
    { ...DEFAULT_IMPORT_LIMITS, ...options.limits },
    { signal: options.signal, onPhase: options.onPhase, pool: options.pool },
  )
  return workspace.commit({ dir: job.stagingDir, manifest })
}
