import { describe, expect, it } from 'vitest'
import { area, intersection, type Rect } from '../../../../../electron/local-service/vision/engine/geometry'
import { joinProposals } from '../../../../../electron/local-service/vision/engine/text-finder'
import {
  batches,
  coarseTiles,
  evenTiles,
  FINE_TILE_DEFAULTS,
  fineTiles,
} from '../../../../../electron/local-service/vision/engine/tiling'

/** Every pixel of [0, width) × [0, height) lies in at least one tile (checked on a grid of every pixel). */
function uncovered(tiles: readonly Rect[], width: number, height: number): number {
  let missing = 0
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (!tiles.some((t) => x >= t.x && x < t.x + t.w && y >= t.y && y < t.y + t.h)) missing++
  return missing
}

/** A box lies wholly inside a tile. */
const inside = (r: Rect, t: Rect): boolean =>
  r.x >= t.x && r.y >= t.y && r.x + r.w <= t.x + t.w && r.y + r.h <= t.y + t.h

describe('coarse tiles over the reduced image', () => {
  it.each([
    [2000, 1000],
    [1600, 1200],
    [3100, 2500],
    [700, 400],
  ])('cover every pixel of %i×%i with equal tiles no larger than asked, overlapping', (w, h) => {
    const tiles = evenTiles(w, h, 1536, 1024, 128)
    expect(uncovered(tiles, w, h)).toBe(0)
    for (const t of tiles) {
      expect(t.w).toBeLessThanOrEqual(1536)
      expect(t.h).toBeLessThanOrEqual(1024)
      expect([t.w, t.h]).toEqual([tiles[0]!.w, tiles[0]!.h])
      expect(t.x + t.w).toBeLessThanOrEqual(w)
      expect(t.y + t.h).toBeLessThanOrEqual(h)
    }
    // neighbours share at least the overlap, so a line up to that size is whole in one of them
    const xs = [...new Set(tiles.map((t) => t.x))].sort((a, b) => a - b)
    for (let i = 1; i < xs.length; i++) expect(xs[i - 1]! + tiles[0]!.w - xs[i]!).toBeGreaterThanOrEqual(128)
    const line = { x: 0, y: 0, w: 120, h: 40 }
    for (let x = 0; x + line.w <= w; x += 37)
      for (let y = 0; y + line.h <= h; y += 53)
        expect(tiles.some((t) => inside({ ...line, x, y }, t))).toBe(true)
  })

  it('a panorama is covered past its right edge, so text across the 360° seam is whole in one tile', () => {
    const width = 2000
    const tiles = coarseTiles(width, 1000, 1536, 1024, 128, true)
    expect(uncovered(tiles, width, 1000)).toBe(0)
    expect(Math.max(...tiles.map((t) => t.x + t.w))).toBe(width + 128)
    // a plate from 60 px left of the seam to 60 px right of it (x past the width continues at 0)
    const acrossSeam = { x: width - 60, y: 500, w: 120, h: 30 }
    expect(tiles.some((t) => inside(acrossSeam, t))).toBe(true)
    // a photo of the same size gets no strip
    expect(Math.max(...coarseTiles(width, 1000, 1536, 1024, 128, false).map((t) => t.x + t.w))).toBe(width)
  })
})

describe('close-look tiles around proposals', () => {
  it('each proposal lies inside a tile that shows it, enlarged up to the largest scale', () => {
    const proposals: Rect[] = [
      { x: 100, y: 200, w: 30, h: 6 },
      { x: 900, y: 640, w: 18, h: 10 },
      { x: 1500, y: 40, w: 60, h: 40 },
      // wider than a tile at scale 1: cut into several
      { x: 10, y: 900, w: 500, h: 30 },
    ]
    const { tiles, shownBy } = fineTiles(proposals)
    proposals.forEach((p, i) => {
      const mine = shownBy[i]!.map((t) => tiles[t]!)
      expect(mine.length).toBeGreaterThan(0)
      // together the tiles showing it cover it whole
      const covered = mine.reduce((n, t) => n + area(intersection(p, t.region)), 0)
      expect(covered).toBeGreaterThanOrEqual(area(p))
      for (const t of mine) {
        expect(t.region.w * t.scale).toBeCloseTo(FINE_TILE_DEFAULTS.width)
        expect(t.region.h * t.scale).toBeCloseTo(FINE_TILE_DEFAULTS.height)
      }
    })
    // small text is enlarged by the largest scale; tall text is shrunk to fit its tile with a margin
    expect(tiles[shownBy[0]![0]!]!.scale).toBe(FINE_TILE_DEFAULTS.maxScale)
    expect(proposals[2]!.h * tiles[shownBy[2]![0]!]!.scale).toBeLessThanOrEqual(
      0.8 * FINE_TILE_DEFAULTS.height,
    )
    expect(shownBy[3]!.length).toBeGreaterThan(1)
  })

  it('proposals close together share a tile', () => {
    const proposals: Rect[] = [
      { x: 400, y: 300, w: 20, h: 6 },
      { x: 420, y: 301, w: 16, h: 6 },
      { x: 410, y: 309, w: 22, h: 6 },
    ]
    const { tiles, shownBy } = fineTiles(proposals, {
      width: 192,
      height: 96,
      targetHeight: 24,
      maxScale: 2,
      inner: 0.2,
    })
    expect(tiles).toHaveLength(1)
    expect(shownBy).toEqual([[0], [0], [0]])
  })

  it('proposals on a panorama past the right edge keep their place there (the view wraps)', () => {
    const { tiles } = fineTiles([{ x: 3990, y: 1100, w: 30, h: 8 }])
    expect(tiles[0]!.region.x + tiles[0]!.region.w).toBeGreaterThan(4000)
  })
})

describe('texture proposals joined along a line', () => {
  it('pieces of one line of small text become one box; a line above stays apart', () => {
    const pieces: Rect[] = [
      { x: 100, y: 50, w: 12, h: 6 },
      { x: 115, y: 51, w: 10, h: 5 },
      { x: 128, y: 50, w: 14, h: 6 },
      // the line above (a two-line plate's top line): apart
      { x: 102, y: 40, w: 20, h: 6 },
      // far along the same row: apart
      { x: 200, y: 50, w: 14, h: 6 },
    ]
    const joined = joinProposals(pieces).sort((a, b) => a.y - b.y || a.x - b.x)
    expect(joined).toEqual([
      { x: 102, y: 40, w: 20, h: 6 },
      { x: 100, y: 50, w: 42, h: 6 },
      { x: 200, y: 50, w: 14, h: 6 },
    ])
  })
})

describe('batches', () => {
  it('runs of at most the size, in order', () => {
    expect(batches([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]])
    expect(batches([], 8)).toEqual([])
  })
})
