import type { JobIo, WorkerPart } from '../pool/job'
import { executeImportJob, failureOf, type ImportJob, type ImportJobOutcome } from './import-job'

/**
 * The workspace's job kinds, run in the worker pool. An import's failure comes back as a value (its kind
 * survives the thread boundary: invalid features, a conflict, a refused file), not as a thrown error.
 */
export const workspaceJobs = {
  'workspace.import': (job: ImportJob, io: JobIo): Promise<ImportJobOutcome> =>
    executeImportJob(job, (phase) => io.progress({ phase })).then(
      (manifest) => ({ ok: true as const, manifest }),
      (error: unknown) => ({ ok: false as const, failure: failureOf(error) }),
    ),
}

/** The workspace's part of a pool worker, listed in `../job-list.ts`. */
export const workspaceWorker = { jobs: workspaceJobs } satisfies WorkerPart
