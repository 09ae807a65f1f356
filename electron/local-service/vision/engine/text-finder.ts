import { DB_DEFAULTS, DET_MEAN, DET_STD, textRegions, type DbOptions } from './detector'
import { area, intersection, mergeOverlapping, union, type Rect } from './geometry'
import { greyBand, reducedView, viewContrast, viewToTensor, type ImageView } from './image-view'
import type { PlateOcr } from './ocr'
import {
  PROPOSAL_DEFAULTS,
  sizedLikeText,
  streetBand,
  strokeCount,
  textureProposals,
  type ProposalOptions,
} from './proposals'
import {
  batches,
  coarseTiles,
  FINE_TILE_DEFAULTS,
  fineTiles,
  type FineTile,
  type FineTileOptions,
} from './tiling'

/**
 * The detector in two passes. The coarse pass looks at the whole image reduced to a few megapixels: it
 * finds large text outright, and its weak responses (and its own small finds) say where to look again.
 * The close pass looks at small tiles around those places and around the texture proposals (small text
 * at full resolution, proposals.ts), enlarged so that small capitals reach a size the detector knows.
 * Tiles of one size go to ONNX Runtime together, a batch per run.
 */
export interface TwoScaleOptions {
  /** The reduced image has at most this many megapixels (never enlarged). */
  coarseMegapixels: number
  /** Coarse tiles: at most this wide and high, overlapping by this much (reduced pixels). */
  tileWidth: number
  tileHeight: number
  tileOverlap: number
  /** Coarse tiles whose luminance spread is below this (sky, bare walls) are not searched. */
  minContrast: number
  panorama: boolean
  /** Coarse finds lower than this (reduced pixels) are looked at again closely, their box being rough. */
  refineBelow: number
  /** Weak coarse responses: regions above this probability, kept when their mean reaches `weakBox`. */
  weakThreshold: number
  weakBox: number
  proposals: ProposalOptions
  /** Lines higher than this (image pixels) are large text: texture proposals inside them are its pieces. */
  largeText: number
  /** Panoramas: look for small text only in the band where a level camera sees street-level plates. */
  streetBand: boolean
  fine: FineTileOptions
  /** Close-look tiles per detector run (coarse tiles, being large, run one at a time). */
  batch: number
  signal?: AbortSignal
}

export const TWO_SCALE_DEFAULTS: TwoScaleOptions = {
  coarseMegapixels: 2,
  tileWidth: 1536,
  tileHeight: 1024,
  tileOverlap: 128,
  minContrast: 4,
  panorama: false,
  refineBelow: 16,
  weakThreshold: 0.1,
  weakBox: 0.15,
  proposals: PROPOSAL_DEFAULTS,
  largeText: 28,
  streetBand: true,
  fine: FINE_TILE_DEFAULTS,
  batch: 8,
}

export interface FoundLine {
  rect: Rect
  score: number
}

/**
 * A texture proposal (small text, proposals.ts) and what was seen there: the close look's highest text
 * probability inside it, and the brightness turns across its most turning row (proposals.strokeCount).
 */
export interface SmallTextCandidate {
  rect: Rect
  textScore: number
  strokes: number
}

export interface TwoScaleStats {
  coarseScale: number
  coarseTiles: number
  proposals: number
  fineTiles: number
}

function aborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason ?? new Error('aborted')
}

/** Scale of the coarse pass: the image reduced to at most `megapixels` (1 when it is smaller). */
export function coarseScale(width: number, height: number, megapixels: number): number {
  const mp = (width * height) / 1e6
  return mp <= megapixels ? 1 : Math.floor(Math.sqrt(megapixels / mp) * 1000) / 1000
}

/** Run the detector over regions of a view, all resized to `w`×`h` (multiples of 32), in batches. */
async function detectRegions(
  ocr: PlateOcr,
  view: ImageView,
  jobs: ReadonlyArray<{ region: Rect; outW: number; outH: number }>,
  w: number,
  h: number,
  batch: number,
  signal: AbortSignal | undefined,
  each: (index: number, prob: Float32Array) => void,
): Promise<void> {
  let done = 0
  for (const group of batches(jobs, batch)) {
    aborted(signal)
    const plane = 3 * w * h
    const tensor = new Float32Array(group.length * plane)
    group.forEach((job, k) =>
      viewToTensor(
        view,
        job.region,
        job.outW,
        job.outH,
        tensor.subarray(k * plane, (k + 1) * plane),
        w,
        h,
        DET_MEAN,
        DET_STD,
      ),
    )
    const probs = await ocr.detectBatch(tensor, group.length, w, h)
    for (let k = 0; k < group.length; k++) each(done + k, probs.subarray(k * w * h, (k + 1) * w * h))
    done += group.length
  }
}

/** A panorama's box past the right edge (wholly in the repeated strip) is the same box at the left. */
function unwrap(r: Rect, width: number, panorama: boolean): Rect {
  return panorama && r.x >= width ? { ...r, x: r.x - width } : r
}

/** Text lines of the view (shown-image pixels), two passes. */
export async function findTextLinesTwoScale(
  ocr: PlateOcr,
  view: ImageView,
  options: TwoScaleOptions,
): Promise<{ lines: FoundLine[]; small: SmallTextCandidate[]; stats: TwoScaleStats }> {
  const W = view.width
  const H = view.height
  const s = coarseScale(W, H, options.coarseMegapixels)
  const reduced = s < 1 ? await reducedView(view, s) : view
  const lines: FoundLine[] = []
  const proposals: Rect[] = []
  const weak: DbOptions = {
    ...DB_DEFAULTS,
    threshold: options.weakThreshold,
    boxThreshold: options.weakBox,
    minSide: 1,
  }

  // coarse pass: the reduced image in tiles, grouped by size so that equal tiles run together
  const tiles = coarseTiles(
    reduced.width,
    reduced.height,
    options.tileWidth,
    options.tileHeight,
    options.tileOverlap,
    options.panorama,
  )
    .filter((t) => viewContrast(reduced, t) >= options.minContrast)
    .map((t) => ({
      region: t,
      outW: t.w,
      outH: t.h,
      w32: Math.ceil(t.w / 32) * 32,
      h32: Math.ceil(t.h / 32) * 32,
    }))
  const bySize = new Map<string, typeof tiles>()
  for (const t of tiles) {
    const key = `${t.w32}x${t.h32}`
    bySize.set(key, [...(bySize.get(key) ?? []), t])
  }
  for (const group of bySize.values()) {
    const { w32, h32 } = group[0] as (typeof tiles)[number]
    await detectRegions(ocr, reduced, group, w32, h32, 1, options.signal, (i, prob) => {
      const tile = (group[i] as (typeof tiles)[number]).region
      const toImage = (r: Rect): Rect =>
        unwrap({ x: (tile.x + r.x) / s, y: (tile.y + r.y) / s, w: r.w / s, h: r.h / s }, W, options.panorama)
      const strong = textRegions(prob, w32, h32, tile.w, tile.h, DB_DEFAULTS)
      for (const r of strong) {
        if (s < 1 && r.rect.h < options.refineBelow) proposals.push(toImage(r.rect))
        else lines.push({ rect: toImage(r.rect), score: r.score })
      }
      for (const r of textRegions(prob, w32, h32, tile.w, tile.h, weak)) {
        if (
          strong.some(
            (k) =>
              k.rect.x <= r.rect.x &&
              k.rect.x + k.rect.w >= r.rect.x + r.rect.w &&
              k.rect.y <= r.rect.y &&
              k.rect.y + k.rect.h >= r.rect.y + r.rect.h,
          )
        )
          continue
        proposals.push(toImage(r.rect))
      }
    })
  }

  // small text: the texture proposals, at full resolution for the smallest and at half resolution for
  // larger text; on a panorama (its seam included) in the street band only, each size where it can be
  aborted(options.signal)
  const large = lines.map((l) => l.rect).filter((r) => r.h > options.largeText)
  const texture: Rect[] = []
  const strokes: number[] = []
  for (const level of textureLevels(W, options)) {
    const y0 = Math.floor(level.top * H)
    const y1 = Math.ceil(level.bottom * H)
    const k = level.step
    const grey = greyBand(view, y0, y1, options.panorama ? Math.min(W, 256) : 0, k)
    // pieces joined along their line; a piece of large text the coarse pass found whole is no small text
    for (const p of sizedLikeText(
      joinProposals(textureProposals(grey, options.proposals)),
      options.proposals,
    )) {
      const inImage = { x: p.x * k, y: y0 + p.y * k, w: p.w * k, h: p.h * k }
      if (inImage.x >= W) continue
      if (large.some((l) => area(intersection(l, inImage)) >= 0.3 * area(inImage))) continue
      texture.push(inImage)
      strokes.push(strokeCount(grey, p, options.proposals.minStep))
    }
  }
  const firstTexture = proposals.length
  proposals.push(...texture)

  // close pass: tiles of one size, enlarged around each proposal
  const { tiles: fine, shownBy } = fineTiles(proposals, options.fine)
  const fw = options.fine.width
  const fh = options.fine.height
  const textScore = new Float32Array(texture.length)
  const watched = new Map<number, number[]>()
  texture.forEach((_, k) => {
    for (const t of shownBy[firstTexture + k] as number[]) watched.set(t, [...(watched.get(t) ?? []), k])
  })
  await detectRegions(
    ocr,
    view,
    fine.map((t) => ({ region: t.region, outW: fw, outH: fh })),
    fw,
    fh,
    options.batch,
    options.signal,
    (i, prob) => {
      const t = fine[i] as FineTile
      for (const r of textRegions(prob, fw, fh, fw, fh, DB_DEFAULTS)) {
        // text cut by the tile's edge is larger than the close look is for: the coarse pass sees it whole
        const c = r.core
        if (c.x <= 0 || c.y <= 0 || c.x + c.w >= fw || c.y + c.h >= fh) continue
        let x = t.region.x + r.rect.x / t.scale
        if (options.panorama && x < 0) x += W
        const rect = { x, y: t.region.y + r.rect.y / t.scale, w: r.rect.w / t.scale, h: r.rect.h / t.scale }
        lines.push({ rect: unwrap(rect, W, options.panorama), score: r.score })
      }
      for (const k of watched.get(i) ?? []) {
        textScore[k] = Math.max(textScore[k] as number, highestInside(prob, fw, fh, t, texture[k] as Rect))
      }
    },
  )
  const merged = mergeOverlapping<FoundLine>(lines, 0.6, (a, b) => ({
    rect: union(a.rect, b.rect),
    score: Math.max(a.score, b.score),
  }))
  return {
    lines: merged,
    small: texture.map((rect, k) => ({
      rect,
      textScore: textScore[k] as number,
      strokes: strokes[k] as number,
    })),
    stats: { coarseScale: s, coarseTiles: tiles.length, proposals: proposals.length, fineTiles: fine.length },
  }
}

/**
 * Where the texture proposals look, and at what resolution (1/step). A photo: everywhere, at full
 * resolution. A panorama with the street band: full resolution in the band where plates up to 80 px wide
 * can be (proposals.streetBand), half resolution below it down to where plates up to 200 px wide can be
 * (larger plates' text the coarse pass reads); without the band, everywhere at full resolution.
 */
export function textureLevels(
  width: number,
  options: Pick<TwoScaleOptions, 'panorama' | 'streetBand'>,
): Array<{ top: number; bottom: number; step: number }> {
  if (!options.panorama || !options.streetBand) return [{ top: 0, bottom: 1, step: 1 }]
  const small = streetBand(width, 80)
  const larger = streetBand(width, 200)
  return [
    { ...small, step: 1 },
    { top: Math.max(small.top, small.bottom - 0.02), bottom: larger.bottom, step: 2 },
  ]
}

/** The highest probability of a map of tile `t` inside image box `r`. */
function highestInside(prob: Float32Array, w: number, h: number, t: FineTile, r: Rect): number {
  const x0 = Math.max(0, Math.floor((r.x - t.region.x) * t.scale))
  const x1 = Math.min(w, Math.ceil((r.x + r.w - t.region.x) * t.scale))
  const y0 = Math.max(0, Math.floor((r.y - t.region.y) * t.scale))
  const y1 = Math.min(h, Math.ceil((r.y + r.h - t.region.y) * t.scale))
  let max = 0
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const p = prob[y * w + x] as number
      if (p > max) max = p
    }
  return max
}

/**
 * Texture proposals side by side on one line (a plate's characters often come apart at its gaps) become one:
 * boxes overlapping vertically by half the lower one, of heights within 2.5×, no further apart than the
 * lower one's height.
 */
export function joinProposals(boxes: readonly Rect[]): Rect[] {
  let out = [...boxes]
  let changed = true
  while (changed) {
    changed = false
    // sorted by left edge, a box need only be compared with those starting before its right edge + gap
    out.sort((a, b) => a.x - b.x)
    const gone = new Uint8Array(out.length)
    for (let i = 0; i < out.length; i++) {
      if (gone[i]) continue
      for (let j = i + 1; j < out.length; j++) {
        const a = out[i] as Rect
        const b = out[j] as Rect
        if (b.x > a.x + a.w + Math.max(2, a.h)) break
        if (gone[j]) continue
        const low = Math.min(a.h, b.h)
        const overlapY = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y)
        const gap = Math.max(a.x, b.x) - Math.min(a.x + a.w, b.x + b.w)
        if (overlapY < 0.5 * low || Math.max(a.h, b.h) > 2.5 * low || gap > Math.max(2, low)) continue
        out[i] = union(a, b)
        gone[j] = 1
        changed = true
      }
    }
    out = out.filter((_, k) => !gone[k])
  }
  return out
}
