import sharp from 'sharp'
import { storedPixel, type Orientation, type Rect } from './geometry'
import type { Raster } from './raster'

/**
 * The image as shown (EXIF orientation applied) read straight from the stored pixels, so no turned or
 * converted full-resolution copy is ever made: a shown pixel maps to its stored one on the fly. Stored
 * rasters may be grey (1), grey+alpha (2), RGB (3) or RGBA (4); the view reads RGB. A 360° panorama's
 * view wraps horizontally (x past the right edge continues at the left edge).
 */
export interface ImageView {
  stored: Raster
  orientation: Orientation
  /** Shown size. */
  width: number
  height: number
  wrapX: boolean
}

export function imageView(stored: Raster, orientation: Orientation, wrapX = false): ImageView {
  const swap = orientation >= 5
  return {
    stored,
    orientation,
    width: swap ? stored.height : stored.width,
    height: swap ? stored.width : stored.height,
    wrapX,
  }
}

/** Stored byte index of the shown pixel (x, y) (both integers inside the shown image). */
function storedIndex(v: ImageView, x: number, y: number): number {
  return storedPixel(x, y, v.stored.width, v.stored.height, v.orientation) * v.stored.channels
}

/**
 * A region of the view resized (bilinear) to `outW`×`outH`, as a BGR float tensor in CHW order written into
 * `dst` with row stride `dstW` and plane `dstW`×`dstH`, normalised as (v/255 − mean)/std per channel — the
 * layout PaddleOCR's models take. Outside the image the edge pixels repeat (x wraps on a panorama).
 */
export function viewToTensor(
  view: ImageView,
  crop: Rect,
  outW: number,
  outH: number,
  dst: Float32Array,
  dstW: number,
  dstH: number,
  mean: readonly [number, number, number],
  std: readonly [number, number, number],
): void {
  const { width: W, height: H } = view
  const data = view.stored.data
  const grey = view.stored.channels < 3
  const sx = crop.w / outW
  const sy = crop.h / outH
  const plane = dstW * dstH
  // per channel (RGB order of the source), the affine form of (v/255 − mean)/std of its BGR plane
  const scale = [0, 1, 2].map((ch) => 1 / 255 / (std[2 - ch] as number))
  const shift = [0, 1, 2].map((ch) => -(mean[2 - ch] as number) / (std[2 - ch] as number))
  const xs0 = new Int32Array(outW)
  const xs1 = new Int32Array(outW)
  const txs = new Float32Array(outW)
  for (let x = 0; x < outW; x++) {
    let fx = crop.x + (x + 0.5) * sx - 0.5
    if (view.wrapX) {
      fx = ((fx % W) + W) % W
      const x0 = Math.floor(fx)
      xs0[x] = x0
      xs1[x] = (x0 + 1) % W
      txs[x] = fx - x0
    } else {
      fx = Math.min(W - 1, Math.max(0, fx))
      const x0 = Math.floor(fx)
      xs0[x] = x0
      xs1[x] = Math.min(W - 1, x0 + 1)
      txs[x] = fx - x0
    }
  }
  for (let y = 0; y < outH; y++) {
    const fy = Math.min(H - 1, Math.max(0, crop.y + (y + 0.5) * sy - 0.5))
    const y0 = Math.floor(fy)
    const y1 = Math.min(H - 1, y0 + 1)
    const ty = fy - y0
    for (let x = 0; x < outW; x++) {
      const tx = txs[x] as number
      const a = storedIndex(view, xs0[x] as number, y0)
      const b = storedIndex(view, xs1[x] as number, y0)
      const c = storedIndex(view, xs0[x] as number, y1)
      const d = storedIndex(view, xs1[x] as number, y1)
      const wa = (1 - tx) * (1 - ty)
      const wb = tx * (1 - ty)
      const wc = (1 - tx) * ty
      const wd = tx * ty
      const o = y * dstW + x
      for (let ch = 0; ch < 3; ch++) {
        const k = grey ? 0 : ch
        const v =
          (data[a + k] as number) * wa +
          (data[b + k] as number) * wb +
          (data[c + k] as number) * wc +
          (data[d + k] as number) * wd
        dst[(2 - ch) * plane + o] = v * (scale[ch] as number) + (shift[ch] as number)
      }
    }
  }
}

/**
 * Luminance (0–255, Rec. 601) of the shown rows [y0, y1) over columns [0, width + pad): the columns past
 * the right edge repeat the left edge (a panorama's seam, for `pad` > 0). Only this band is copied; with
 * `step` > 1, at 1/step of the resolution (the mean of each step×step block).
 */
export function greyBand(view: ImageView, y0: number, y1: number, pad = 0, step = 1): Raster {
  const width = Math.floor((view.width + pad) / step)
  const rows = Math.max(0, Math.floor((y1 - y0) / step))
  const out = new Uint8Array(width * rows)
  const data = view.stored.data
  const grey = view.stored.channels < 3
  const luminance = (x: number, y: number): number => {
    const i = storedIndex(view, x % view.width, y)
    return grey
      ? (data[i] as number)
      : ((data[i] as number) * 77 + (data[i + 1] as number) * 150 + (data[i + 2] as number) * 29) >> 8
  }
  const area = step * step
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < width; x++) {
      if (step === 1) {
        out[y * width + x] = luminance(x, y0 + y)
        continue
      }
      let sum = 0
      for (let dy = 0; dy < step; dy++)
        for (let dx = 0; dx < step; dx++) sum += luminance(x * step + dx, y0 + y * step + dy)
      out[y * width + x] = Math.round(sum / area)
    }
  }
  return { data: out, width, height: rows, channels: 1 }
}

/**
 * The view at `scale` (< 1), made by libvips from the stored pixels (it reads them where they are: the
 * buffer is not copied), turned to the shown orientation: a small RGB raster and its view.
 */
export async function reducedView(view: ImageView, scale: number): Promise<ImageView> {
  const { stored } = view
  const width = Math.max(32, Math.round(stored.width * scale))
  const height = Math.max(32, Math.round(stored.height * scale))
  let pipeline = sharp(stored.data, {
    raw: { width: stored.width, height: stored.height, channels: stored.channels as 1 | 2 | 3 | 4 },
  })
  if (stored.channels === 2 || stored.channels === 4) pipeline = pipeline.removeAlpha()
  pipeline = pipeline.resize(width, height, { kernel: 'lanczos3', fit: 'fill' })
  if (stored.channels < 3) pipeline = pipeline.toColourspace('srgb')
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true })
  const small: Raster = { data, width: info.width, height: info.height, channels: info.channels }
  return imageView(small, view.orientation, view.wrapX)
}

/** Spread of the luminance over a sparse sample of a region of the view: near 0 for sky, a wall, a flat road. */
export function viewContrast(view: ImageView, r: Rect, step = 8): number {
  const data = view.stored.data
  const grey = view.stored.channels < 3
  let n = 0
  let sum = 0
  let sq = 0
  for (let y = Math.max(0, Math.floor(r.y)); y < Math.min(view.height, r.y + r.h); y += step) {
    for (let x = Math.floor(r.x); x < r.x + r.w; x += step) {
      const xi = ((x % view.width) + view.width) % view.width
      const i = storedIndex(view, xi, y)
      const l = grey
        ? (data[i] as number)
        : 0.299 * (data[i] as number) + 0.587 * (data[i + 1] as number) + 0.114 * (data[i + 2] as number)
      sum += l
      sq += l * l
      n++
    }
  }
  if (n === 0) return 0
  const m = sum / n
  return Math.sqrt(Math.max(0, sq / n - m * m))
}
