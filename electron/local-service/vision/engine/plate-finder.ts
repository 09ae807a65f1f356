import { DB_DEFAULTS, DET_MEAN, DET_STD, textRegions } from './detector'
import { mergeOverlapping, tileGrid, union, type Rect } from './geometry'
import type { PlateOcr } from './ocr'
import { normalizePlateText, readPlate, type PlateReading } from './plate-grammar'
import { cropToTensor, regionContrast, type Raster } from './raster'
import { REC_HEIGHT, type Recognition } from './recognizer'

export interface FinderOptions {
  /** Scale the detector sees the image at (1 = full resolution; less is faster but misses small plates). */
  detectScale: number
  /** Tile side in detector pixels, and the overlap between neighbouring tiles. */
  tileSize: number
  tileOverlap: number
  /** An equirectangular 360° panorama: text crossing the right edge continues at the left edge. */
  panorama: boolean
  /** Tiles whose luminance spread is below this (sky, bare walls) are not searched. */
  minContrast: number
  signal?: AbortSignal
}

export const FINDER_DEFAULTS: FinderOptions = {
  detectScale: 1,
  tileSize: 960,
  tileOverlap: 192,
  panorama: false,
  minContrast: 4,
}

/** A text line the detector found, and what the recogniser read in it. */
export interface TextLine {
  rect: Rect
  score: number
  reading: Recognition
}

/**
 * A plate in the shown image (x may pass the right edge of a panorama), what was read there, and why it is
 * taken for a plate: its reading is near the plate grammar (`plate` is that plate; `rect` is the text lines'
 * box, grown by the margin when blurred), or it is text too small to read that looks like a plate's
 * (small-plates.ts; no `plate`; `rect` is already the plate's board, blurred as it is).
 */
export interface PlateFinding {
  rect: Rect
  text: string
  plate?: PlateReading
  lines: 1 | 2
  why: 'grammar' | 'small-text'
}

/** A reading pieced from a box's halves is less sure than one of two lines the detector found apart. */
const HALVES_PENALTY = 0.3

/** Edit cost allowed from the reading to a plate: small text is read less exactly, so it may be further. */
export function allowedCost(textHeight: number): number {
  if (textHeight >= 25) return 1
  if (textHeight >= 15) return 1.6
  return 2.2
}

/** Lines lower than this (box pixels) are also read from a tighter and a looser crop; the best reading counts. */
const SMALL_LINE = 40

/** The other crops a small line is read from: the detector's box is only roughly as high as the text. */
function alternativeCrops(r: Rect): Rect[] {
  return [
    { x: r.x + r.w * 0.02, y: r.y + r.h * 0.12, w: r.w * 0.96, h: r.h * 0.76 },
    { x: r.x - r.w * 0.03, y: r.y - r.h * 0.1, w: r.w * 1.06, h: r.h * 1.2 },
  ]
}

/**
 * Shape of a plate's text: one line 2–8 times as wide as high (the plate is ~4:1), or two stacked lines
 * whose box is 1–3.5 times as wide as high (the two-line plate is ~1.7:1).
 */
export function plateShaped(rect: Rect, lines: 1 | 2): boolean {
  const aspect = rect.w / rect.h
  return lines === 1 ? aspect >= 1.6 && aspect <= 9 : aspect >= 0.8 && aspect <= 3.8
}

function aborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason ?? new Error('aborted')
}

/** Text lines of the image: the detector over overlapping tiles, boxes in shown-image pixels. */
export async function findTextLines(
  ocr: PlateOcr,
  image: Raster,
  options: FinderOptions,
  scaled: Raster = image,
): Promise<Array<{ rect: Rect; score: number }>> {
  const s = scaled.width / image.width
  const pad = options.panorama ? Math.min(scaled.width, Math.round(options.tileOverlap * 2)) : 0
  const tiles = tileGrid(scaled.width + pad, scaled.height, options.tileSize, options.tileOverlap)
  const found: Array<{ rect: Rect; score: number }> = []
  for (const tile of tiles) {
    aborted(options.signal)
    if (regionContrast(scaled, tile) < options.minContrast) continue
    const w32 = Math.ceil(tile.w / 32) * 32
    const h32 = Math.ceil(tile.h / 32) * 32
    const tensor = new Float32Array(3 * w32 * h32)
    cropToTensor(scaled, tile, tile.w, tile.h, tensor, w32, h32, DET_MEAN, DET_STD, options.panorama)
    const prob = await ocr.detect(tensor, w32, h32)
    for (const r of textRegions(prob, w32, h32, tile.w, tile.h, DB_DEFAULTS)) {
      let x = (tile.x + r.rect.x) / s
      // the strip past a panorama's right edge repeats its left edge: text wholly in it is text there
      if (options.panorama && x >= image.width) x -= image.width
      found.push({
        rect: { x, y: (tile.y + r.rect.y) / s, w: r.rect.w / s, h: r.rect.h / s },
        score: r.score,
      })
    }
  }
  return mergeOverlapping(found, 0.6, (a, b) => ({
    rect: union(a.rect, b.rect),
    score: Math.max(a.score, b.score),
  }))
}

/** Writes a region of an image, resized, into a tensor (see raster.cropToTensor for the layout). */
export type Sampler = (
  crop: Rect,
  outW: number,
  outH: number,
  dst: Float32Array,
  dstW: number,
  dstH: number,
  mean: readonly [number, number, number],
  std: readonly [number, number, number],
) => void

/** The sampler of an RGB raster in memory (x wrapping on a panorama). */
export function rasterSampler(image: Raster, wrap: boolean): Sampler {
  return (crop, outW, outH, dst, dstW, dstH, mean, std) =>
    cropToTensor(image, crop, outW, outH, dst, dstW, dstH, mean, std, wrap)
}

/** Recogniser input width of a box: 48 px high, as wide as its aspect says (16–1024). */
function recognizerWidth(r: Rect): number {
  return Math.min(1024, Math.max(16, Math.round((REC_HEIGHT * r.w) / Math.max(1, r.h))))
}

export interface ReadOptions {
  /** Crops per recogniser run, at most. */
  batchSize: number
  /**
   * Start a new run when a crop is wider than this share over the run's narrowest (crops are padded to the
   * widest of their run; Infinity: fixed runs of `batchSize`).
   */
  widthSpread: number
  signal?: AbortSignal
}

/** The reading of the original engine: runs of 8 crops, sorted by width. */
export const FIXED_READ: ReadOptions = { batchSize: 8, widthSpread: Infinity }

/** Read text boxes with the recogniser, in batches of similar width. */
export async function readWith(
  ocr: PlateOcr,
  sample: Sampler,
  rects: readonly Rect[],
  options: ReadOptions = FIXED_READ,
): Promise<Recognition[]> {
  const widths = rects.map(recognizerWidth)
  const order = rects.map((_, i) => i).sort((a, b) => (widths[a] as number) - (widths[b] as number))
  const results: Recognition[] = new Array(rects.length)
  const groups: number[][] = []
  for (const index of order) {
    const group = groups[groups.length - 1]
    const narrowest = group ? (widths[group[0] as number] as number) : 0
    if (
      group &&
      group.length < options.batchSize &&
      (widths[index] as number) <= narrowest * options.widthSpread
    )
      group.push(index)
    else groups.push([index])
  }
  for (const group of groups) {
    aborted(options.signal)
    const width = Math.ceil(Math.max(...group.map((i) => widths[i] as number)) / 8) * 8
    const plane = REC_HEIGHT * width
    const batch = new Float32Array(group.length * 3 * plane)
    group.forEach((index, k) => {
      const view = batch.subarray(k * 3 * plane, (k + 1) * 3 * plane)
      sample(
        rects[index] as Rect,
        widths[index] as number,
        REC_HEIGHT,
        view,
        width,
        REC_HEIGHT,
        [0.5, 0.5, 0.5],
        [0.5, 0.5, 0.5],
      )
    })
    const read = await ocr.recognize(batch, group.length, width)
    group.forEach((index, k) => {
      results[index] = read[k] as Recognition
    })
  }
  return results
}

/** Read text boxes of an RGB raster with the recogniser, in runs of 8 of similar width. */
export async function readLines(
  ocr: PlateOcr,
  image: Raster,
  rects: readonly Rect[],
  panorama: boolean,
  signal?: AbortSignal,
): Promise<Recognition[]> {
  return readWith(ocr, rasterSampler(image, panorama), rects, { ...FIXED_READ, signal })
}

/**
 * Which text is a plate. Each line is read on its own; a box about as high as a two-line plate is also
 * read as its top and bottom halves; two lines stacked like a two-line plate are read together. A reading
 * counts when it is close enough to the plate grammar for its size and its box has a plate's shape.
 */
export async function findPlates(
  ocr: PlateOcr,
  image: Raster,
  options: FinderOptions,
  scaled: Raster = image,
): Promise<{ plates: PlateFinding[]; lines: TextLine[] }> {
  const found = await findTextLines(ocr, image, options, scaled)
  return platesFromLines(found, (rects) => readLines(ocr, image, rects, options.panorama, options.signal))
}

/**
 * The plates among detected text lines (shown-image pixels): `read` reads boxes with the recogniser.
 * Lines too small or too elongated to be text are dropped first.
 */
export async function platesFromLines(
  found: ReadonlyArray<{ rect: Rect; score: number }>,
  read: (rects: readonly Rect[]) => Promise<Recognition[]>,
): Promise<{ plates: PlateFinding[]; lines: TextLine[] }> {
  const detected = found.filter(
    (d) => d.rect.h >= 4 && d.rect.w >= 6 && d.rect.w / d.rect.h >= 0.6 && d.rect.w / d.rect.h <= 20,
  )
  const halves: Rect[] = []
  const halfOf: number[] = []
  detected.forEach((d, i) => {
    const aspect = d.rect.w / d.rect.h
    if (aspect >= 0.8 && aspect <= 3.2) {
      const h = d.rect.h / 2
      halves.push({ ...d.rect, h: h * 1.08 }, { ...d.rect, y: d.rect.y + h * 0.92, h: h * 1.08 })
      halfOf.push(i)
    }
  })
  const alternatives: Rect[] = []
  const alternativeOf: number[] = []
  detected.forEach((d, i) => {
    if (d.rect.h >= SMALL_LINE) return
    for (const crop of alternativeCrops(d.rect)) {
      alternatives.push(crop)
      alternativeOf.push(i)
    }
  })
  const readings = await read([...detected.map((d) => d.rect), ...halves, ...alternatives])
  const lines: TextLine[] = detected.map((d, i) => ({ ...d, reading: readings[i] as Recognition }))
  const plates: PlateFinding[] = []
  const consider = (rect: Rect, text: string, count: 1 | 2, textHeight: number, penalty = 0): void => {
    if (!plateShaped(rect, count)) return
    const plate = readPlate(text, allowedCost(textHeight) - penalty)
    // past one edit, only a reading as long as a full registration (8+ characters) is taken for one
    if (!plate || (plate.cost > 1 && plate.plate.length < 8)) return
    plates.push({
      rect,
      text,
      plate: { ...plate, cost: plate.cost + penalty },
      lines: count,
      why: 'grammar',
    })
  }
  for (const line of lines) consider(line.rect, line.reading.text, 1, line.rect.h / 1.6)
  alternativeOf.forEach((i, k) => {
    const line = lines[i] as TextLine
    const reading = readings[detected.length + halves.length + k] as Recognition
    consider(line.rect, reading.text, 1, line.rect.h / 1.6)
  })
  halfOf.forEach((i, k) => {
    const top = normalizePlateText((readings[detected.length + 2 * k] as Recognition).text)
    const bottom = normalizePlateText((readings[detected.length + 2 * k + 1] as Recognition).text)
    const line = lines[i] as TextLine
    // a two-line plate's halves differ (state and district above, series and number below); one line of
    // text cut in two reads the same twice
    if (top.length < 3 || top.length > 5 || bottom.length < 4 || top === bottom || bottom.includes(top))
      return
    consider(line.rect, `${top}${bottom}`, 2, line.rect.h / 3.2, HALVES_PENALTY)
  })
  for (const a of lines) {
    for (const b of lines) {
      if (a === b || b.rect.y <= a.rect.y) continue
      const gap = b.rect.y - (a.rect.y + a.rect.h)
      const overlapX = Math.min(a.rect.x + a.rect.w, b.rect.x + b.rect.w) - Math.max(a.rect.x, b.rect.x)
      const hRatio = a.rect.h / b.rect.h
      if (gap > 0.6 * Math.max(a.rect.h, b.rect.h) || overlapX < 0.5 * Math.min(a.rect.w, b.rect.w)) continue
      if (hRatio < 0.5 || hRatio > 2) continue
      const rect = union(a.rect, b.rect)
      consider(rect, `${a.reading.text}${b.reading.text}`, 2, Math.min(a.rect.h, b.rect.h) / 1.6)
    }
  }
  const merged = mergeOverlapping(plates, 0.3, (a, b) => ({
    ...((a.plate?.cost ?? Infinity) <= (b.plate?.cost ?? Infinity) ? a : b),
    rect: union(a.rect, b.rect),
  }))
  return { plates: merged, lines }
}
