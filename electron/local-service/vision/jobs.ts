import type { JobIo } from '../pool/job'
import { modelBytesLoaded, runVisionJob, type VisionBlurJob, type VisionJobResult } from './job'

/**
 * The vision area's job kinds, run in the worker pool: one image per job (one inference at a time in its
 * worker). Cancelling terminates the worker, the pool's rule: ONNX Runtime cannot stop mid-inference.
 */
export const visionJobs = {
  /** Blur the plates of one image on disk; the answer is written to `outputPath` (files cross as paths). */
  'vision.blur': (job: VisionBlurJob, io: JobIo): Promise<VisionJobResult> =>
    runVisionJob(job, { onPhase: (phase) => io.progress({ phase }) }),
}

/** Memory the vision engines hold in a worker beyond the V8 heap (at least the models' weights). */
export function visionWorkerBytes(): number {
  return modelBytesLoaded()
}
