import { writeFileAtomic } from '../../base/atomic-write'
import { blurImageFile, type BlurredBox, type BlurOptions } from './engine/blur-image'
import { defaultThreads, PlateOcr } from './engine/ocr'
import { VisionInputError, type AcceptedFormat, type VisionInputProblem } from './input-checks'

/**
 * The vision area's work as a pool job: serializable in and out, so it can run in a worker thread of the
 * local service's pool (one inference per worker at a time). The input is a file path (the upload spooled
 * to a temporary file); the answer is written to `outputPath`, or returned as bytes when none is given.
 */
export interface VisionBlurJob {
  kind: 'vision.blur'
  inputPath: string
  outputPath?: string
  options?: Pick<
    BlurOptions,
    'detectScale' | 'tileSize' | 'tileOverlap' | 'margin' | 'panorama' | 'jpegQuality'
  >
}

export interface VisionBlurDone {
  format: AcceptedFormat
  contentType: 'image/jpeg' | 'image/png'
  width: number
  height: number
  panorama: boolean
  boxes: BlurredBox[]
  /** Where the blurred image was written, when the job named a path. */
  outputPath?: string
  /** The blurred image, when the job named no path. */
  bytes?: Uint8Array
  timings: { decodeMs: number; detectMs: number; blurMs: number; encodeMs: number }
}

export type VisionJobResult =
  | { ok: true; value: VisionBlurDone }
  /** `input`: the upload is at fault (a 400 naming the problem); `fault`: something broke on our side (500). */
  | {
      ok: false
      error:
        { kind: 'input'; problem: VisionInputProblem; message: string } | { kind: 'fault'; message: string }
    }

export interface VisionJobContext {
  /** Threads ONNX Runtime uses inside one inference (default: one per core). */
  threads?: number
  signal?: AbortSignal
  /** Told when the work enters a phase: 'loading models', 'blurring'. */
  onPhase?: (phase: string) => void
}

let models: Promise<PlateOcr> | undefined
let modelThreads: number | undefined
let loadedBytes = 0

/** Bytes of model weights this worker holds in ONNX Runtime (0 before the first job). */
export function modelBytesLoaded(): number {
  return loadedBytes
}

/** The models, loaded once per worker (or process) and kept for the next job. */
export function loadModels(threads = defaultThreads()): Promise<PlateOcr> {
  if (!models || modelThreads !== threads) {
    modelThreads = threads
    models = PlateOcr.load({ threads })
    models.then(
      (ocr) => (loadedBytes = ocr.modelBytes),
      () => (models = undefined),
    )
  }
  return models
}

export async function runVisionJob(
  job: VisionBlurJob,
  context: VisionJobContext = {},
): Promise<VisionJobResult> {
  try {
    if (!models) context.onPhase?.('loading models')
    const ocr = await loadModels(context.threads)
    context.onPhase?.('blurring')
    const outcome = await blurImageFile(ocr, job.inputPath, { ...job.options, signal: context.signal })
    if (job.outputPath) await writeFileAtomic(job.outputPath, outcome.bytes, { mode: 0o644 })
    return {
      ok: true,
      value: {
        format: outcome.format,
        contentType: outcome.format === 'jpeg' ? 'image/jpeg' : 'image/png',
        width: outcome.width,
        height: outcome.height,
        panorama: outcome.panorama,
        boxes: outcome.boxes,
        timings: outcome.timings,
        ...(job.outputPath ? { outputPath: job.outputPath } : { bytes: outcome.bytes }),
      },
    }
  } catch (error) {
    if (error instanceof VisionInputError)
      return { ok: false, error: { kind: 'input', problem: error.problem, message: error.message } }
    return {
      ok: false,
      error: { kind: 'fault', message: error instanceof Error ? error.message : String(error) },
    }
  }
}
