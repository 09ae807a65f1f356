import { readFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import * as ort from 'onnxruntime-node'
import { locateModels, type ModelFiles } from './models'
import { ctcDecode, plateAlphabet, REC_HEIGHT, type Alphabet, type Recognition } from './recognizer'

export interface OcrOptions {
  /**
   * Threads ONNX Runtime uses inside one inference (default: the machine's cores, since an image's work is
   * one inference at a time).
   */
  threads?: number
  models?: ModelFiles
}

/** The two PP-OCRv4 models on ONNX Runtime's CPU provider, loaded once per worker. */
export class PlateOcr {
  private constructor(
    private readonly detector: ort.InferenceSession,
    private readonly recognizer: ort.InferenceSession,
    readonly alphabet: Alphabet,
    /** Size of the two models' weights. */
    readonly modelBytes: number,
  ) {}

  static async load(options: OcrOptions = {}): Promise<PlateOcr> {
    const files = options.models ?? locateModels()
    const session: ort.InferenceSession.SessionOptions = {
      intraOpNumThreads: options.threads ?? defaultThreads(),
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      // threads that wait sleep rather than spin: the machine is shared (the app, other workers)
      extra: { session: { intra_op: { allow_spinning: '0' } } },
    }
    // read through Node's fs (which also reads inside an asar archive), hand the bytes to the runtime
    const [det, rec, dict] = await Promise.all([
      readFile(files.detector),
      readFile(files.recognizer),
      readFile(files.dictionary, 'utf8'),
    ])
    const detector = await ort.InferenceSession.create(det, session)
    const recognizer = await ort.InferenceSession.create(rec, session)
    const lines = dict.split(/\r?\n/)
    if (lines[lines.length - 1] === '') lines.pop()
    return new PlateOcr(detector, recognizer, plateAlphabet(lines), det.byteLength + rec.byteLength)
  }

  /** Text probability map of a `height`×`width` BGR tensor (both multiples of 32). */
  async detect(tensor: Float32Array, width: number, height: number): Promise<Float32Array> {
    return this.detectBatch(tensor, 1, width, height)
  }

  /** Probability maps of `count` tensors of the same size in one run, one `height`×`width` map after another. */
  async detectBatch(
    tensor: Float32Array,
    count: number,
    width: number,
    height: number,
  ): Promise<Float32Array> {
    const out = await this.detector.run({
      x: new ort.Tensor('float32', tensor, [count, 3, height, width]),
    })
    const map = out[this.detector.outputNames[0] as string] as ort.Tensor
    return map.data as Float32Array
  }

  /** Read a batch of text-line tensors, each 48 px high and `width` wide (padded on the right). */
  async recognize(batch: Float32Array, count: number, width: number): Promise<Recognition[]> {
    const out = await this.recognizer.run({
      x: new ort.Tensor('float32', batch, [count, 3, REC_HEIGHT, width]),
    })
    const probs = out[this.recognizer.outputNames[0] as string] as ort.Tensor
    const [n, steps, classes] = probs.dims as [number, number, number]
    const data = probs.data as Float32Array
    const results: Recognition[] = []
    for (let i = 0; i < n; i++)
      results.push(ctcDecode(data, i * steps * classes, steps, classes, this.alphabet))
    return results
  }

  async release(): Promise<void> {
    await Promise.all([this.detector.release(), this.recognizer.release()])
  }
}

/** One thread per core, as Node sees them (at least 1). */
export function defaultThreads(): number {
  return Math.max(1, availableParallelism())
}
