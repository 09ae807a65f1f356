import { parentPort, workerData } from 'node:worker_threads'
import { runVisionJob, type VisionBlurJob } from './job'

/**
 * Worker-thread entry of the vision area: one job at a time (the pool sends the next when this one has
 * answered). An answer's bytes are transferred, not copied. Cancelling a job terminates the worker (the
 * pool's rule for every job kind): ONNX Runtime cannot be interrupted mid-inference.
 */
const threads = (workerData as { threads?: number } | undefined)?.threads
parentPort?.on('message', (message: { id: number; job: VisionBlurJob }) => {
  void runVisionJob(message.job, { threads }).then((result) => {
    const transfer = result.ok && result.value.bytes ? [result.value.bytes.buffer as ArrayBuffer] : []
    parentPort?.postMessage({ id: message.id, result }, transfer)
  })
})
