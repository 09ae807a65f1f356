import { parentPort } from 'node:worker_threads'
import { executeJoin, type JoinJob } from './join-service'

/** Worker thread: runs joins one at a time so the HTTP thread keeps answering. */
parentPort?.on('message', (message: { id: number; job: JoinJob }) => {
  executeJoin(message.job).then(
    // The body crosses to the HTTP thread as one string: far cheaper than cloning many row objects.
    (reply) => parentPort?.postMessage({ id: message.id, reply }),
    (error: unknown) =>
      parentPort?.postMessage({
        id: message.id,
        error: error instanceof Error ? error.message : String(error),
      }),
  )
})
