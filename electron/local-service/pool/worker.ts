import { JOB_KINDS, workerCaches, workerExternalBytes } from '../jobs'
import { serveJobs } from './serve-jobs'

/** The pool's worker thread: serves every job kind the areas registered in `../jobs.ts`. */
serveJobs(JOB_KINDS, workerExternalBytes, workerCaches)
