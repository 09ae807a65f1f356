import { getHeapStatistics } from 'node:v8'
import { parentPort } from 'node:worker_threads'
import { reuseChunkBuffer } from '../engine/json-chunks'
import type { JobIo, JobMessage, WorkerMemory, WorkerMessage } from './job'

type AnyHandler = (job: never, io: JobIo) => Promise<unknown>

/**
 * The loop of a pool worker thread: run one job at a time, of the kinds given, and answer with its result or
 * error and the worker's memory after it. Parts of streamed answers cross with their buffers transferred;
 * the serving thread hands a full chunk's buffer back once it wrote it (`WorkerPool`, `reuseChunkBuffer`).
 */
export function serveJobs(
  kinds: Readonly<Record<string, AnyHandler>>,
  externalBytes: () => number,
  caches: () => Record<string, number> = () => ({}),
): void {
  const memory = (): WorkerMemory => ({
    heapBytes: getHeapStatistics().used_heap_size,
    externalBytes: externalBytes(),
    caches: caches(),
  })
  const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []) =>
    parentPort?.postMessage(message, transfer)
  parentPort?.on('message', (message: JobMessage) => {
    if ('reuse' in message) {
      reuseChunkBuffer(message.reuse)
      return
    }
    const { id, kind } = message
    // The last part of a streamed answer travels with the job's end, in one message: the serving thread is
    // woken once, not twice, at the end of every job (a small join's answer is a single last part).
    let held: { status: number; bytes: Uint8Array } | undefined
    const flush = () => {
      if (!held) return
      post({ id, type: 'part', ...held, last: true }, [held.bytes.buffer as ArrayBuffer])
      held = undefined
    }
    const io: JobIo = {
      part: (status, bytes, last) => {
        flush()
        if (last) held = { status, bytes }
        else post({ id, type: 'part', status, bytes, last }, [bytes.buffer as ArrayBuffer])
      },
      progress: (progress) => {
        flush()
        post({ id, type: 'progress', progress })
      },
    }
    const handler = kinds[kind] as ((job: unknown, io: JobIo) => Promise<unknown>) | undefined
    const run = handler
      ? handler(message.job, io)
      : Promise.reject(new Error(`no job kind "${kind}" is registered`))
    run.then(
      (result) => {
        const part = held
        held = undefined
        post(
          { id, type: 'done', result, memory: memory(), ...(part ? { part } : {}) },
          part ? [part.bytes.buffer as ArrayBuffer] : [],
        )
      },
      (error: unknown) => {
        flush()
        post({
          id,
          type: 'error',
          name: error instanceof Error ? error.name : 'Error',
          message: error instanceof Error ? error.message : String(error),
          memory: memory(),
        })
      },
    )
  })
}
