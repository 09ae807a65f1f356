import type { Rect } from './geometry'

/**
 * Post-processing of PaddleOCR's DB text detector: the model gives, per pixel, the probability that it is
 * text; connected regions above `threshold` whose mean probability reaches `boxThreshold` are text lines,
 * grown back by the "unclip" distance the model was trained to shrink them by (area × ratio / perimeter).
 */
export interface DbOptions {
  threshold: number
  boxThreshold: number
  unclipRatio: number
  /** Smallest side of a kept region, in map pixels. */
  minSide: number
}

export const DB_DEFAULTS: DbOptions = { threshold: 0.3, boxThreshold: 0.5, unclipRatio: 1.6, minSide: 2 }

export const DET_MEAN = [0.485, 0.456, 0.406] as const
export const DET_STD = [0.229, 0.224, 0.225] as const

export interface TextRegion {
  rect: Rect
  /** Mean text probability over the region's pixels. */
  score: number
  /** The region's pixels' own box (before the unclip growth). */
  core: Rect
}

/** Text regions of a probability map of `width`×`height`, in map pixels, over the part [0, validW)×[0, validH). */
export function textRegions(
  prob: Float32Array,
  width: number,
  _height: number,
  validW: number,
  validH: number,
  options: DbOptions = DB_DEFAULTS,
): TextRegion[] {
  const labels = new Int32Array(validW * validH).fill(-1)
  const parent: number[] = []
  const find = (a: number): number => {
    while (parent[a] !== a) {
      parent[a] = parent[parent[a] as number] as number
      a = parent[a] as number
    }
    return a
  }
  // first pass: provisional labels, 8-connected (neighbours left, up-left, up, up-right, in that order)
  const join = (label: number, n: number): number => {
    if (n < 0) return label
    if (label < 0) return find(n)
    const a = find(label)
    const b = find(n)
    if (a !== b) parent[Math.max(a, b)] = Math.min(a, b)
    return Math.min(a, b)
  }
  for (let y = 0; y < validH; y++) {
    const row = y * validW
    for (let x = 0; x < validW; x++) {
      if ((prob[y * width + x] as number) <= options.threshold) continue
      let label = -1
      if (x > 0) label = join(label, labels[row + x - 1] as number)
      if (y > 0) {
        if (x > 0) label = join(label, labels[row - validW + x - 1] as number)
        label = join(label, labels[row - validW + x] as number)
        if (x + 1 < validW) label = join(label, labels[row - validW + x + 1] as number)
      }
      if (label < 0) {
        label = parent.length
        parent.push(label)
      }
      labels[row + x] = label
    }
  }
  const stats = new Map<number, { x0: number; y0: number; x1: number; y1: number; sum: number; n: number }>()
  for (let y = 0; y < validH; y++) {
    for (let x = 0; x < validW; x++) {
      const l = labels[y * validW + x] as number
      if (l < 0) continue
      const root = find(l)
      const p = prob[y * width + x] as number
      const s = stats.get(root)
      if (!s) stats.set(root, { x0: x, y0: y, x1: x, y1: y, sum: p, n: 1 })
      else {
        if (x < s.x0) s.x0 = x
        if (x > s.x1) s.x1 = x
        if (y < s.y0) s.y0 = y
        if (y > s.y1) s.y1 = y
        s.sum += p
        s.n++
      }
    }
  }
  const out: TextRegion[] = []
  for (const s of stats.values()) {
    const w = s.x1 - s.x0 + 1
    const h = s.y1 - s.y0 + 1
    if (Math.min(w, h) < options.minSide) continue
    const score = s.sum / s.n
    if (score < options.boxThreshold) continue
    const d = (w * h * options.unclipRatio) / (2 * (w + h))
    out.push({
      rect: { x: s.x0 - d, y: s.y0 - d, w: w + 2 * d, h: h + 2 * d },
      score,
      core: { x: s.x0, y: s.y0, w, h },
    })
  }
  return out
}
