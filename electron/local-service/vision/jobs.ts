import type { JobIo, WorkerPart } from '../pool/job'
import type { VisionBlurJob, VisionJobResult } from './job'

/** The engine module, loaded on a worker's first vision job: workers that only ever join never load ONNX Runtime. */
let engine: typeof import('./job') | undefined

/**
 * The vision area's job kinds, run in the worker pool: one image per job (one inference at a time in its
 * worker). Cancelling terminates the worker, the pool's rule: ONNX Runtime cannot stop mid-inference.
 */
export const visionJobs = {
  /** Blur the plates of one image on disk; the answer is written to `outputPath` (files cross as paths). */
  'vision.blur': async (job: VisionBlurJob, io: JobIo): Promise<VisionJobResult> => {
    engine ??= await import('./job')
    return engine.runVisionJob(job, { onPhase: (phase) => io.progress({ phase }) })
  },
}

/** Memory the vision engines hold in a worker beyond the V8 heap (at least the models' weights). */
export function visionWorkerBytes(): number {
  return engine?.modelBytesLoaded() ?? 0
}

/** The vision area's part of a pool worker, listed in `../job-list.ts`. */
export const visionWorker = { jobs: visionJobs, externalBytes: visionWorkerBytes } satisfies WorkerPart
