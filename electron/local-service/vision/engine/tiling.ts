import type { Rect } from './geometry'

/**
 * Where the detector looks. The reduced image is covered by overlapping tiles (a panorama's right edge
 * continued by its left, so text across the 360° seam is seen whole); small text is looked at closely in
 * small tiles around each proposal, enlarged so that its capitals reach a size the detector knows.
 */

/**
 * Equal tiles covering [0, width) × [0, height), each at most `maxW`×`maxH`, overlapping by at least
 * `overlap` (as few as can be, so that little is looked at twice; equal, so that they batch together).
 */
export function evenTiles(
  width: number,
  height: number,
  maxW: number,
  maxH: number,
  overlap: number,
): Rect[] {
  const spans = (extent: number, max: number): Array<[number, number]> => {
    if (extent <= max) return [[0, extent]]
    const n = Math.ceil((extent - overlap) / (max - overlap))
    const size = Math.ceil((extent + (n - 1) * overlap) / n)
    const out: Array<[number, number]> = []
    for (let i = 0; i < n; i++) out.push([Math.min(i * (size - overlap), extent - size), size])
    return out
  }
  const tiles: Rect[] = []
  for (const [y, h] of spans(height, maxH))
    for (const [x, w] of spans(width, maxW)) tiles.push({ x, y, w, h })
  return tiles
}

/**
 * Tiles over the reduced image; a panorama gets a strip past its right edge that repeats its left (as wide
 * as the overlap), so that text across the 360° seam is seen whole in one tile.
 */
export function coarseTiles(
  width: number,
  height: number,
  maxW: number,
  maxH: number,
  overlap: number,
  panorama: boolean,
): Rect[] {
  const pad = panorama ? Math.min(width, overlap) : 0
  return evenTiles(width + pad, height, maxW, maxH, overlap)
}

/** A close-look tile: the image region it shows and the scale it is enlarged by (detector px per image px). */
export interface FineTile {
  region: Rect
  scale: number
}

export interface FineTileOptions {
  /** Tile size in detector pixels (multiples of 32): every close-look tile has it, so tiles batch together. */
  width: number
  height: number
  /** Height in detector pixels a proposal's box is enlarged to, and the largest enlargement. */
  targetHeight: number
  maxScale: number
  /** Share of the tile, from each side, within which a proposal counts as already seen by a tile. */
  inner: number
}

export const FINE_TILE_DEFAULTS: FineTileOptions = {
  width: 256,
  height: 128,
  targetHeight: 48,
  maxScale: 4,
  inner: 0.2,
}

/**
 * Close-look tiles for proposals (image pixels): each proposal is enlarged to about `targetHeight` detector
 * pixels (at most `maxScale`, and less if it would not fit the tile with a margin) and centred in a tile;
 * a proposal already well inside a tile of a similar scale is not given another. A proposal wider than a
 * tile at scale 1 is cut into tiles along its length (they overlap by a fifth). `shownBy[i]` lists the
 * tiles that show proposal i.
 */
export function fineTiles(
  proposals: readonly Rect[],
  options: FineTileOptions = FINE_TILE_DEFAULTS,
): { tiles: FineTile[]; shownBy: number[][] } {
  const tiles: FineTile[] = []
  const shownBy: number[][] = proposals.map(() => [])
  const order = proposals
    .map((_, i) => i)
    .sort(
      (a, b) =>
        (proposals[a] as Rect).y - (proposals[b] as Rect).y ||
        (proposals[a] as Rect).x - (proposals[b] as Rect).x,
    )
  for (const index of order) {
    const p = proposals[index] as Rect
    let scale = Math.min(options.maxScale, options.targetHeight / Math.max(1, p.h))
    scale = Math.min(scale, (0.8 * options.height) / Math.max(1, p.h))
    scale = Math.max(scale, Math.min(1, (0.8 * options.height) / Math.max(1, p.h)))
    const rw = options.width / scale
    const rh = options.height / scale
    const pieces: Rect[] = []
    if (p.w <= 0.8 * rw) pieces.push(p)
    else {
      const step = 0.8 * rw * 0.8
      for (let x = p.x; x < p.x + p.w; x += step)
        pieces.push({ x, y: p.y, w: Math.min(0.8 * rw, p.x + p.w - x), h: p.h })
    }
    for (const piece of pieces) {
      const cx = piece.x + piece.w / 2
      const cy = piece.y + piece.h / 2
      const seen = tiles.findIndex((t) => {
        if (t.scale > scale * 1.5 || t.scale < scale / 1.5) return false
        const r = t.region
        const mx = r.w * options.inner
        const my = r.h * options.inner
        return (
          piece.x >= r.x + mx && piece.x + piece.w <= r.x + r.w - mx && cy >= r.y + my && cy <= r.y + r.h - my
        )
      })
      if (seen >= 0) {
        ;(shownBy[index] as number[]).push(seen)
        continue
      }
      ;(shownBy[index] as number[]).push(tiles.length)
      tiles.push({ region: { x: cx - rw / 2, y: cy - rh / 2, w: rw, h: rh }, scale })
    }
  }
  return { tiles, shownBy }
}

/** Group items into runs of at most `size` (the order kept). */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
