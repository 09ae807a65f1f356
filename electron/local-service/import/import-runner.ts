import { existsSync } from 'node:fs'
import { promises as fs } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker, type ResourceLimits } from 'node:worker_threads'
import { Workspace, checkDatasetName, type DatasetManifest } from '../workspace/workspace'
import { ImportError } from './crs'
import { importName, type ImportOptions } from './import-dataset'
import { errorOf, type ImportJob, type ImportJobMessage, type ImportPhase } from './import-job'

/** The budget of one import: wall time and the worker's JavaScript heap. */
export interface ImportLimits {
  timeoutMs: number
  maxHeapMb: number
}

/**
 * Defaults: 1,000,000 point rows of CSV take about 10 s and 1.3 GiB of heap here (README, "Import
 * limits"); the largest file accepted is 1 GiB. Hosts may lower or raise them.
 */
export const DEFAULT_IMPORT_LIMITS: ImportLimits = { timeoutMs: 10 * 60_000, maxHeapMb: 4096 }

export class ImportCancelled extends Error {
  constructor() {
    super('the import was cancelled')
    this.name = 'ImportCancelled'
  }
}

/**
 * Start the worker: the built .js beside this module's bundle, else the .ts source through tsx's module
 * hooks (registered inside the worker, since loader flags do not reach worker threads).
 */
function spawnImportWorker(resourceLimits: ResourceLimits): Worker {
  const js = new URL('./import-worker.js', import.meta.url)
  if (existsSync(fileURLToPath(js))) return new Worker(js, { resourceLimits })
  const ts = new URL('./import-worker.ts', import.meta.url).href
  const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(ts)}) })`
  return new Worker(boot, { eval: true, resourceLimits })
}

function minutes(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 6_000) / 10} min` : `${Math.round(ms / 100) / 10} s`
}

/**
 * Run one import job in its own worker thread within `limits`. Over time, the worker is terminated;
 * over memory, V8 stops it; either way the job fails with an ImportError saying which limit, and the
 * staging folder is removed. Settles with the staged dataset's manifest (not yet visible).
 */
export function runImportJob(
  job: ImportJob,
  limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
  hooks: { signal?: AbortSignal; onPhase?: (phase: ImportPhase) => void } = {},
): Promise<DatasetManifest> {
  if (hooks.signal?.aborted) return Promise.reject(new ImportCancelled())
  let stopped: Promise<unknown> = Promise.resolve()
  return new Promise<DatasetManifest>((resolve, reject) => {
    const worker = spawnImportWorker({ maxOldGenerationSizeMb: limits.maxHeapMb })
    let settled = false
    const finish = (outcome: { manifest: DatasetManifest } | { error: Error }) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      hooks.signal?.removeEventListener('abort', abort)
      stopped = worker.terminate()
      if ('manifest' in outcome) resolve(outcome.manifest)
      else reject(outcome.error)
    }
    const timer = setTimeout(
      () =>
        finish({
          error: new ImportError(
            `the import took longer than ${minutes(limits.timeoutMs)}, the import time limit; it was stopped and nothing was imported`,
          ),
        }),
      limits.timeoutMs,
    )
    const abort = () => finish({ error: new ImportCancelled() })
    hooks.signal?.addEventListener('abort', abort, { once: true })
    worker.on('message', (message: ImportJobMessage) => {
      if (message.type === 'phase') hooks.onPhase?.(message.phase)
      else if (message.type === 'done') finish({ manifest: message.manifest })
      else finish({ error: errorOf(message.failure) })
    })
    worker.on('error', (error: Error & { code?: string }) => {
      finish({
        error:
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ImportError(
                `the import needed more than ${limits.maxHeapMb} MiB of memory, the import memory limit; it was stopped and nothing was imported (split the file, or convert it to FlatGeobuf)`,
              )
            : new Error(`the import worker failed: ${error.message}`),
      })
    })
    worker.on('exit', (code) => finish({ error: new Error(`the import worker stopped (exit code ${code})`) }))
    worker.postMessage(job)
  }).catch(async (error: unknown) => {
    // Once the thread has stopped, nothing more is written into its staging folder.
    await stopped
    await fs.rm(job.stagingDir, { recursive: true, force: true })
    throw error
  })
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
    { signal: options.signal, onPhase: options.onPhase },
  )
  return workspace.commit({ dir: job.stagingDir, manifest })
}
