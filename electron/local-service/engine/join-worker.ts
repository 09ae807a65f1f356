import { parentPort } from 'node:worker_threads'
import { executeJoin, type JoinJob } from './join-service'

/**
 * Worker thread: runs joins one at a time so the HTTP thread keeps answering. The answer crosses to the
 * HTTP thread as UTF-8 chunks, each chunk's buffer transferred (moved, not copied): far cheaper than
 * cloning row objects or one big string, and the HTTP thread sends the first chunks while the worker
 * writes the rest.
 */
parentPort?.on('message', (message: { id: number; job: JoinJob }) => {
  executeJoin(message.job, ({ status, bytes, last }) => {
    parentPort?.postMessage({ id: message.id, status, bytes, last }, [bytes.buffer as ArrayBuffer])
  }).catch((error: unknown) =>
    parentPort?.postMessage({
      id: message.id,
      error: error instanceof Error ? error.message : String(error),
    }),
  )
})
