import { parentPort } from 'node:worker_threads'
import { executeImportJob, failureOf, type ImportJob, type ImportJobMessage } from './import-job'

/**
 * Worker thread: one import job, then the runner ends the thread. The serving thread never parses a
 * file; the runner bounds this thread's time and heap and terminates it when it goes over.
 */
parentPort?.once('message', (job: ImportJob) => {
  const post = (message: ImportJobMessage) => parentPort?.postMessage(message)
  executeImportJob(job, (phase) => post({ type: 'phase', phase })).then(
    (manifest) => post({ type: 'done', manifest }),
    (error: unknown) => post({ type: 'failed', failure: failureOf(error) }),
  )
})
