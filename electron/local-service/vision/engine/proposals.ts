import type { Rect } from './geometry'
import type { Raster } from './raster'

/**
 * Where small text may be, cheaply, at full resolution: text is where the brightness along a row turns
 * up and down many times within a few pixels (strokes and gaps alternating), while an object's edge turns
 * once and a flat or noisy surface not at all. Each row's gradient sign changes (steps of at least
 * `minStep` grey levels, alternating in direction) are counted over a window of 2·`halfWindow`+1 pixels;
 * where three rows together average at least `minTurns`, the pixel is textured; connected textured
 * pixels whose box is the size of small text are proposals. Tuned on the small plates (20–80 px wide,
 * capitals of 3–10 px) of a generated tuning set, not the bench's own.
 */
export interface ProposalOptions {
  minStep: number
  halfWindow: number
  minTurns: number
  /** Kept boxes: at least this wide, high and large, at most this wide and high (pixels). */
  minW: number
  minH: number
  minArea: number
  maxW: number
  maxH: number
}

export const PROPOSAL_DEFAULTS: ProposalOptions = {
  minStep: 16,
  halfWindow: 6,
  minTurns: 2,
  minW: 10,
  minH: 3,
  minArea: 40,
  maxW: 200,
  maxH: 60,
}

/** Textured boxes of a grey raster (one channel), in its pixels. */
export function textureProposals(grey: Raster, options: ProposalOptions = PROPOSAL_DEFAULTS): Rect[] {
  const { width: W, height: H, data } = grey
  if (W < 3 || H < 3) return []
  const k = options.halfWindow
  const turns = new Uint8Array(W * H)
  const starts = new Uint8Array(W)
  for (let y = 0; y < H; y++) {
    const row = y * W
    let previous = 0
    starts.fill(0)
    for (let x = 1; x < W - 1; x++) {
      const d = (data[row + x + 1] as number) - (data[row + x - 1] as number)
      const sign = d >= options.minStep ? 1 : d <= -options.minStep ? -1 : 0
      if (sign !== 0 && sign !== previous) starts[x] = 1
      if (sign !== 0) previous = sign
    }
    let sum = 0
    for (let x = 0; x < Math.min(W, k); x++) sum += starts[x] as number
    for (let x = 0; x < W; x++) {
      if (x + k < W) sum += starts[x + k] as number
      if (x - k - 1 >= 0) sum -= starts[x - k - 1] as number
      turns[row + x] = sum
    }
  }
  // textured where three rows together turn often enough
  const threshold = 3 * options.minTurns
  const mask = new Uint8Array(W * H)
  for (let y = 1; y < H - 1; y++) {
    for (let x = 0; x < W; x++) {
      const i = y * W + x
      if ((turns[i - W] as number) + (turns[i] as number) + (turns[i + W] as number) >= threshold) mask[i] = 1
    }
  }
  return maskBoxes(mask, W, H)
}

/** Proposals of a size small text can have. */
export function sizedLikeText(boxes: readonly Rect[], options: ProposalOptions = PROPOSAL_DEFAULTS): Rect[] {
  return boxes.filter(
    (b) =>
      b.w >= options.minW &&
      b.h >= options.minH &&
      b.w * b.h >= options.minArea &&
      b.w <= options.maxW &&
      b.h <= options.maxH,
  )
}

/** Bounding boxes of the 4-connected regions of a 0/1 mask. */
export function maskBoxes(mask: Uint8Array, W: number, H: number): Rect[] {
  const labels = new Int32Array(W * H).fill(-1)
  const parent: number[] = []
  const find = (a: number): number => {
    while (parent[a] !== a) {
      parent[a] = parent[parent[a] as number] as number
      a = parent[a] as number
    }
    return a
  }
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const i = y * W + x
      if (!mask[i]) continue
      const left = x > 0 ? (labels[i - 1] as number) : -1
      const up = y > 0 ? (labels[i - W] as number) : -1
      let label: number
      if (left < 0 && up < 0) {
        label = parent.length
        parent.push(label)
      } else if (left < 0) label = find(up)
      else if (up < 0) label = find(left)
      else {
        const a = find(left)
        const b = find(up)
        label = Math.min(a, b)
        parent[Math.max(a, b)] = label
      }
      labels[i] = label
    }
  }
  const boxes = new Map<number, [number, number, number, number]>()
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const l = labels[y * W + x] as number
      if (l < 0) continue
      const root = find(l)
      const b = boxes.get(root)
      if (!b) boxes.set(root, [x, y, x, y])
      else {
        if (x < b[0]) b[0] = x
        if (x > b[2]) b[2] = x
        if (y > b[3]) b[3] = y
      }
    }
  }
  return [...boxes.values()].map(([x0, y0, x1, y1]) => ({ x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 }))
}

/**
 * The rows of a 360° panorama where plates small enough to need the close look can be: a level camera
 * 1.5–3 m up sees a plate (0.3–1.3 m up) below the horizon (the middle row) by the angle whose tangent is
 * the height difference over the distance, and a plate `maxPlatePx` pixels wide (0.5 m) is at least
 * 0.5·W/(2π·maxPlatePx) metres away; a margin allows for the camera's tilt. Rows as shares of the height.
 */
export function streetBand(width: number, maxPlatePx = 80, tiltDegrees = 5): { top: number; bottom: number } {
  const nearest = (0.5 * width) / (2 * Math.PI * maxPlatePx)
  const steepest = (Math.atan(2.7 / nearest) * 180) / Math.PI
  const margin = tiltDegrees / 180
  return { top: Math.max(0, 0.5 - margin), bottom: Math.min(1, 0.5 + steepest / 180 + margin) }
}

/**
 * Strokes across a box of a grey raster: along each of its rows, the brightness turns (alternating steps of
 * at least `minStep`, and at least `relativeStep` of the box's brightness range, so that noise along a
 * strong edge does not count) counted over the box's width; the box's count is the most of any row. A line
 * of characters turns many times; an object's edges (a window beside a pole) a few.
 */
export function strokeCount(
  grey: Raster,
  box: Rect,
  minStep = PROPOSAL_DEFAULTS.minStep,
  relativeStep = 0.15,
): number {
  const { width: W, height: H, data } = grey
  const x0 = Math.max(1, Math.floor(box.x))
  const x1 = Math.min(W - 1, Math.ceil(box.x + box.w))
  const ya = Math.max(0, Math.floor(box.y))
  const yb = Math.min(H, Math.ceil(box.y + box.h))
  // the box's brightness range, between its 5th and 95th percentiles
  const counts = new Uint32Array(256)
  let n = 0
  for (let y = ya; y < yb; y++)
    for (let x = x0; x < x1; x++) {
      const v = data[y * W + x] as number
      counts[v] = (counts[v] as number) + 1
      n++
    }
  const percentile = (q: number): number => {
    let seen = 0
    for (let v = 0; v < 256; v++) {
      seen += counts[v] as number
      if (seen > q * n) return v
    }
    return 255
  }
  const step = Math.max(minStep, relativeStep * (percentile(0.95) - percentile(0.05)))
  let best = 0
  for (let y = ya; y < yb; y++) {
    const row = y * W
    let previous = 0
    let turns = 0
    for (let x = x0; x < x1; x++) {
      const d = (data[row + x + 1] as number) - (data[row + x - 1] as number)
      const sign = d >= step ? 1 : d <= -step ? -1 : 0
      if (sign !== 0 && sign !== previous) turns++
      if (sign !== 0) previous = sign
    }
    if (turns > best) best = turns
  }
  return best
}
