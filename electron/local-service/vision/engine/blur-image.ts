import { open, readFile, stat } from 'node:fs/promises'
import sharp, { type Metadata } from 'sharp'
import { checkDimensions, corruptImage, sniffUpload, type AcceptedFormat } from '../input-checks'
import { VISION_LIMITS, type VisionLimits } from '../limits'
import {
  area,
  clipRect,
  grow,
  intersection,
  mergeOverlapping,
  orientedSize,
  rectShownToStored,
  wrapAcrossSeam,
  type Orientation,
  type Rect,
} from './geometry'
import { imageView, viewToTensor } from './image-view'
import { jpegMetadata, pngMetadata, withJpegMetadata, withPngMetadata } from './metadata'
import type { PlateOcr } from './ocr'
import {
  FINDER_DEFAULTS,
  findPlates,
  platesFromLines,
  readWith,
  type FinderOptions,
  type PlateFinding,
  type TextLine,
} from './plate-finder'
import { blurRegion, orientedRgb, type Raster } from './raster'
import { SMALL_TEXT_DEFAULTS, smallPlates, type SmallTextOptions } from './small-plates'
import {
  findTextLinesTwoScale,
  TWO_SCALE_DEFAULTS,
  type TwoScaleOptions,
  type TwoScaleStats,
} from './text-finder'

sharp.cache(false)

export interface BlurOptions extends Partial<Omit<FinderOptions, 'panorama' | 'signal' | 'detectScale'>> {
  /**
   * How plates are looked for. 'two-scale' (default): the detector over the reduced image, then closely
   * (enlarged) where small text may be, reading only what it found, at full resolution. 'current': the
   * engine of ADR 009, the detector over the whole image at up to 16 megapixels; kept for comparison.
   */
  pipeline?: Pipeline
  /** Settings of the two-scale pipeline. */
  twoScale?: Partial<Omit<TwoScaleOptions, 'panorama' | 'signal'>>
  /** When plate-like text too small to read is blurred (two-scale pipeline). */
  smallText?: Partial<SmallTextOptions>
  /**
   * Scale the detector sees the image at: 'auto' (default) is full resolution up to DETECT_BUDGET_MP
   * megapixels and less beyond, so an 8000×4000 panorama stays within its time budget.
   */
  detectScale?: number | 'auto'
  /** Treat as a 360° panorama: 'auto' when the XMP says equirectangular or the image is 2:1. */
  panorama?: boolean | 'auto'
  /** Margin added around each plate's text on every side, as a share of the text box's height. */
  margin?: number
  limits?: VisionLimits
  signal?: AbortSignal
  /** JPEG quality of the re-encoded image. */
  jpegQuality?: number
}

export type Pipeline = 'current' | 'two-scale'

export const PIPELINES: readonly Pipeline[] = ['current', 'two-scale']

/** A blurred region, in the stored pixel grid of the output (what a viewer shows after EXIF orientation). */
export interface BlurredBox extends Rect {
  /** The plate as read, e.g. `MH12AB1234`; empty for text too small to read. */
  plate: string
  text: string
  /** Edit cost from the reading to the plate grammar (0 = exact); absent for text too small to read. */
  cost?: number
  /** Why it was blurred: its reading is a plate's, or it is plate-like text too small to read. */
  why: PlateFinding['why']
}

export interface BlurOutcome {
  format: AcceptedFormat
  width: number
  height: number
  panorama: boolean
  /** Boxes in the coordinates of the image as shown (EXIF orientation applied), one per region blurred. */
  boxes: BlurredBox[]
  /** Every text line the detector found (shown coordinates), plates or not: for diagnostics and baselines. */
  textLines: Array<Rect & { text: string }>
  bytes: Uint8Array
  timings: { decodeMs: number; detectMs: number; blurMs: number; encodeMs: number }
  /** What the two-scale pipeline looked at (absent for the current one). */
  search?: TwoScaleStats
}

export const DEFAULT_MARGIN = 0.3

/** Megapixels the detector looks at, at most, with `detectScale: 'auto'`. */
export const DETECT_BUDGET_MP = 16

export function autoDetectScale(width: number, height: number, budgetMp = DETECT_BUDGET_MP): number {
  const mp = (width * height) / 1e6
  return mp <= budgetMp ? 1 : Math.round(Math.sqrt(budgetMp / mp) * 100) / 100
}

/** Check an upload on disk: its first bytes, its size and its header (no pixel is decoded yet). */
export async function inspectUpload(
  path: string,
  limits: VisionLimits = VISION_LIMITS,
): Promise<{
  format: AcceptedFormat
  width: number
  height: number
  orientation: Orientation
  xmp?: string
}> {
  const size = (await stat(path)).size
  const handle = await open(path, 'r')
  const head = new Uint8Array(64)
  try {
    await handle.read(head, 0, 64, 0)
  } finally {
    await handle.close()
  }
  const format = sniffUpload(head.subarray(0, Math.min(64, size)), size, limits)
  let meta: Metadata
  try {
    meta = await sharp(path, { limitInputPixels: false }).metadata()
  } catch (error) {
    throw corruptImage(format, error)
  }
  const { width, height } = checkDimensions(meta.width, meta.height, limits)
  const orientation = (
    meta.orientation && meta.orientation >= 1 && meta.orientation <= 8 ? meta.orientation : 1
  ) as Orientation
  return { format, width, height, orientation, xmp: meta.xmp?.toString('utf8') }
}

/** A 2:1 image, or one whose XMP (GPano) says it is an equirectangular panorama. */
export function isPanorama(width: number, height: number, xmp?: string): boolean {
  if (xmp && /ProjectionType(="|>)\s*equirectangular/i.test(xmp)) return true
  return Math.abs(width - 2 * height) <= 2
}

async function resizeRgb(image: Raster, scale: number): Promise<Raster> {
  if (scale === 1) return image
  const width = Math.max(32, Math.round(image.width * scale))
  const height = Math.max(32, Math.round(image.height * scale))
  const { data, info } = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .resize(width, height, { kernel: scale < 1 ? 'lanczos3' : 'cubic', fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: 3 }
}

/**
 * Blur the license plates of a JPEG or PNG on disk: the same format and size back, EXIF orientation
 * respected (pixels stay in their stored order, so the orientation tag still applies), and for JPEG the
 * EXIF and XMP (GPano) segments carried over byte for byte.
 */
export async function blurImageFile(
  ocr: PlateOcr,
  path: string,
  options: BlurOptions = {},
): Promise<BlurOutcome> {
  const limits = options.limits ?? VISION_LIMITS
  const info = await inspectUpload(path, limits)
  const t0 = performance.now()
  const original = await readFile(path)
  let stored: Raster
  try {
    const { data, info: raw } = await sharp(original, { failOn: 'error', limitInputPixels: limits.maxPixels })
      .keepIccProfile()
      .raw()
      .toBuffer({ resolveWithObject: true })
    stored = { data, width: raw.width, height: raw.height, channels: raw.channels }
  } catch (error) {
    throw corruptImage(info.format, error)
  }
  const shown = orientedSize(stored.width, stored.height, info.orientation)
  const panorama =
    options.panorama === undefined || options.panorama === 'auto'
      ? isPanorama(shown.width, shown.height, info.xmp)
      : options.panorama
  const t1 = performance.now()
  const found =
    options.pipeline === 'current'
      ? await findCurrent(ocr, stored, info.orientation, panorama, options)
      : await findTwoScale(ocr, stored, info.orientation, panorama, options)
  const { plates, lines } = found
  const t2 = performance.now()
  const boxes = blurFindings(
    stored,
    info.orientation,
    shown,
    plates,
    panorama,
    options.margin ?? DEFAULT_MARGIN,
  )
  const t3 = performance.now()
  const bytes = await encodeLike(info.format, original, stored, options.jpegQuality ?? 92)
  const t4 = performance.now()
  return {
    format: info.format,
    width: stored.width,
    height: stored.height,
    panorama,
    boxes,
    textLines: lines.map((l) => ({ ...l.rect, text: l.reading.text })),
    bytes,
    timings: { decodeMs: t1 - t0, detectMs: t2 - t1, blurMs: t3 - t2, encodeMs: t4 - t3 },
    ...('search' in found ? { search: found.search } : {}),
  }
}

interface Found {
  plates: PlateFinding[]
  lines: TextLine[]
  search?: TwoScaleStats
}

/** ADR 009's engine: an upright RGB copy, the detector over it (scaled to 16 megapixels at most). */
async function findCurrent(
  ocr: PlateOcr,
  stored: Raster,
  orientation: Orientation,
  panorama: boolean,
  options: BlurOptions,
): Promise<Found> {
  const view = orientedRgb(stored, orientation)
  const detectScale =
    options.detectScale === undefined || options.detectScale === 'auto'
      ? autoDetectScale(view.width, view.height)
      : options.detectScale
  const finder: FinderOptions = {
    ...FINDER_DEFAULTS,
    ...stripUndefined(options),
    detectScale,
    panorama,
    signal: options.signal,
  }
  const scaled = await resizeRgb(view, finder.detectScale)
  return findPlates(ocr, view, finder, scaled)
}

/** Runs of up to 16 crops whose widths are within 30 % of each other (little padding). */
const TWO_SCALE_READ = { batchSize: 16, widthSpread: 1.3 }

/** The two-scale pipeline, on the stored pixels as they are (no upright or converted copy). */
async function findTwoScale(
  ocr: PlateOcr,
  stored: Raster,
  orientation: Orientation,
  panorama: boolean,
  options: BlurOptions,
): Promise<Found> {
  const view = imageView(stored, orientation, panorama)
  const {
    lines: found,
    small: candidates,
    stats,
  } = await findTextLinesTwoScale(ocr, view, {
    ...TWO_SCALE_DEFAULTS,
    ...stripUndefined(options.twoScale ?? {}),
    panorama,
    signal: options.signal,
  })
  const sample = (...args: Parameters<typeof viewToTensor> extends [unknown, ...infer R] ? R : never) =>
    viewToTensor(view, ...args)
  const read = (rects: readonly Rect[]) =>
    readWith(ocr, sample, rects, { ...TWO_SCALE_READ, signal: options.signal })
  const { plates, lines } = await platesFromLines(found, read)
  const small = await smallPlates(candidates, lines, read, { ...SMALL_TEXT_DEFAULTS, ...options.smallText })
  // small text on a plate read whole (its IND strip, a character apart) is part of it: blurred with it
  const margin = options.margin ?? DEFAULT_MARGIN
  const readWhole = plates.map((p) => grow(p.rect, margin))
  const apart = small.filter(
    (s) => !readWhole.some((r) => area(intersection(r, s.rect)) >= 0.25 * area(s.rect)),
  )
  const all = mergeOverlapping([...plates, ...apart], 0.3, (a, b) => (a.why === 'grammar' ? a : b))
  return { plates: all, lines, search: stats }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>
}

/** Grow each plate by the margin, wrap it across the seam, map it to the stored grid, and blur it there. */
export function blurFindings(
  stored: Raster,
  orientation: Orientation,
  shown: { width: number; height: number },
  plates: readonly PlateFinding[],
  panorama: boolean,
  margin: number,
): BlurredBox[] {
  const boxes: BlurredBox[] = []
  for (const p of plates) {
    const grown = p.why === 'small-text' ? p.rect : grow(p.rect, margin)
    const parts = panorama ? wrapAcrossSeam(grown, shown.width) : [grown]
    for (const part of parts) {
      const visible = clipRect(part, shown.width, shown.height)
      if (visible.w === 0 || visible.h === 0) continue
      const inStored = clipRect(
        rectShownToStored(visible, stored.width, stored.height, orientation),
        stored.width,
        stored.height,
      )
      blurRegion(stored, inStored)
      boxes.push({
        ...visible,
        plate: p.plate?.plate ?? '',
        text: p.text,
        ...(p.plate ? { cost: p.plate.cost } : {}),
        why: p.why,
      })
    }
  }
  return boxes
}

/** Encode the pixels as the original's format and carry its metadata over. */
async function encodeLike(
  format: AcceptedFormat,
  original: Uint8Array,
  image: Raster,
  quality: number,
): Promise<Uint8Array> {
  const pipeline = sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: image.channels as 1 | 2 | 3 | 4 },
  })
  if (format === 'jpeg') {
    const encoded = await pipeline.jpeg({ quality, chromaSubsampling: '4:2:0' }).toBuffer()
    return withJpegMetadata(encoded, jpegMetadata(original))
  }
  const encoded = await pipeline.png({ compressionLevel: 6 }).toBuffer()
  return withPngMetadata(encoded, pngMetadata(original))
}
