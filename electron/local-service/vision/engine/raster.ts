/**
 * An 8-bit image in memory, rows top to bottom, channels interleaved (1 grey, 2 grey+alpha, 3 RGB, 4 RGBA),
 * as sharp's raw output gives it.
 */
export interface Raster {
  data: Uint8Array
  width: number
  height: number
  channels: number
}

import { storedPixel, type Orientation, type Rect } from './geometry'

/** The shown image (EXIF orientation applied) as a 3-channel RGB raster; the stored one when it already is. */
export function orientedRgb(stored: Raster, orientation: Orientation): Raster {
  const { width: W, height: H, channels: c, data } = stored
  if (orientation === 1 && c === 3) return stored
  const swap = orientation >= 5
  const w = swap ? H : W
  const h = swap ? W : H
  const out = new Uint8Array(w * h * 3)
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = storedPixel(x, y, W, H, orientation) * c
      const o = (y * w + x) * 3
      if (c >= 3) {
        out[o] = data[i] as number
        out[o + 1] = data[i + 1] as number
        out[o + 2] = data[i + 2] as number
      } else {
        const g = data[i] as number
        out[o] = g
        out[o + 1] = g
        out[o + 2] = g
      }
    }
  }
  return { data: out, width: w, height: h, channels: 3 }
}

/**
 * Blur a region in place so that no character in it can be read back: three passes of a box blur in each
 * direction (close to a Gaussian) whose radius is a third of the region's smaller side, so strokes, gaps
 * and the characters' shapes all dissolve into the plate's mean colour.
 */
export function blurRegion(image: Raster, rect: Rect, strength = 0.33): void {
  const { width, channels: c, data } = image
  const x0 = rect.x
  const y0 = rect.y
  const w = rect.w
  const h = rect.h
  if (w <= 0 || h <= 0) return
  const radius = Math.max(2, Math.round(Math.min(w, h) * strength))
  const line = new Float64Array(Math.max(w, h))
  const tmp = new Float64Array(Math.max(w, h))
  const boxPass = (src: Float64Array, dst: Float64Array, n: number): void => {
    // moving average with edge clamping
    let sum = 0
    for (let k = -radius; k <= radius; k++) sum += src[Math.min(n - 1, Math.max(0, k))] as number
    const size = 2 * radius + 1
    for (let i = 0; i < n; i++) {
      dst[i] = sum / size
      sum += (src[Math.min(n - 1, i + radius + 1)] as number) - (src[Math.max(0, i - radius)] as number)
    }
  }
  for (let ch = 0; ch < c; ch++) {
    for (let y = y0; y < y0 + h; y++) {
      for (let x = 0; x < w; x++) line[x] = data[(y * width + x0 + x) * c + ch] as number
      boxPass(line, tmp, w)
      boxPass(tmp, line, w)
      boxPass(line, tmp, w)
      for (let x = 0; x < w; x++) data[(y * width + x0 + x) * c + ch] = Math.round(tmp[x] as number)
    }
    for (let x = x0; x < x0 + w; x++) {
      for (let y = 0; y < h; y++) line[y] = data[((y0 + y) * width + x) * c + ch] as number
      boxPass(line, tmp, h)
      boxPass(tmp, line, h)
      boxPass(line, tmp, h)
      for (let y = 0; y < h; y++) data[((y0 + y) * width + x) * c + ch] = Math.round(tmp[y] as number)
    }
  }
}

/**
 * A crop of an RGB raster resized (bilinear) to `outW`×`outH`, as a BGR float tensor in CHW order written
 * into `dst` at `offset` with row stride `dstW`, normalised as (v/255 − mean)/std per channel — the
 * layout PaddleOCR's models were trained on (images read by OpenCV, hence BGR).
 */
export function cropToTensor(
  src: Raster,
  crop: Rect,
  outW: number,
  outH: number,
  dst: Float32Array,
  dstW: number,
  dstH: number,
  mean: readonly [number, number, number],
  std: readonly [number, number, number],
  wrapX = false,
): void {
  const { width: W, height: H, data } = src
  const sx = crop.w / outW
  const sy = crop.h / outH
  const plane = dstW * dstH
  for (let y = 0; y < outH; y++) {
    const fy = Math.min(H - 1, Math.max(0, crop.y + (y + 0.5) * sy - 0.5))
    const y0 = Math.floor(fy)
    const y1 = Math.min(H - 1, y0 + 1)
    const ty = fy - y0
    for (let x = 0; x < outW; x++) {
      let fx = crop.x + (x + 0.5) * sx - 0.5
      let x0: number
      let x1: number
      if (wrapX) {
        fx = ((fx % W) + W) % W
        x0 = Math.floor(fx)
        x1 = (x0 + 1) % W
      } else {
        fx = Math.min(W - 1, Math.max(0, fx))
        x0 = Math.floor(fx)
        x1 = Math.min(W - 1, x0 + 1)
      }
      const tx = fx - x0
      const o = y * dstW + x
      for (let ch = 0; ch < 3; ch++) {
        const a = data[(y0 * W + x0) * 3 + ch] as number
        const b = data[(y0 * W + x1) * 3 + ch] as number
        const c = data[(y1 * W + x0) * 3 + ch] as number
        const d = data[(y1 * W + x1) * 3 + ch] as number
        const v = (a * (1 - tx) + b * tx) * (1 - ty) + (c * (1 - tx) + d * tx) * ty
        const bgr = 2 - ch
        dst[bgr * plane + o] = (v / 255 - (mean[bgr] as number)) / (std[bgr] as number)
      }
    }
  }
}

/** Spread of the luminance over a sparse sample of the region: near 0 for sky, a wall, a flat road. */
export function regionContrast(src: Raster, r: Rect, step = 8): number {
  const { width: W, data } = src
  let n = 0
  let sum = 0
  let sq = 0
  for (let y = r.y; y < r.y + r.h; y += step) {
    for (let x = r.x; x < r.x + r.w; x += step) {
      const xi = x % W
      const i = (y * W + xi) * 3
      const l =
        0.299 * (data[i] as number) + 0.587 * (data[i + 1] as number) + 0.114 * (data[i + 2] as number)
      sum += l
      sq += l * l
      n++
    }
  }
  if (n === 0) return 0
  const m = sum / n
  return Math.sqrt(Math.max(0, sq / n - m * m))
}
