import sharp, { type Sharp } from 'sharp'
import { describe, expect, it } from 'vitest'
import {
  grow,
  mergeOverlapping,
  orientedSize,
  rectShownToStored,
  tileGrid,
  union,
  wrapAcrossSeam,
  type Orientation,
  type Rect,
} from '../../../../../electron/local-service/vision/engine/geometry'
import { orientedRgb, type Raster } from '../../../../../electron/local-service/vision/engine/raster'

const ORIENTATIONS: Orientation[] = [1, 2, 3, 4, 5, 6, 7, 8]

/** A 48×24 stored image: dark, with a bright 4×2 block at (6, 4) and a grey one at (30, 16). */
async function storedJpeg(orientation: Orientation): Promise<Buffer> {
  const W = 48
  const H = 24
  const data = Buffer.alloc(W * H * 3, 10)
  const paint = (x0: number, y0: number, w: number, h: number, v: number) => {
    for (let y = y0; y < y0 + h; y++)
      for (let x = x0; x < x0 + w; x++) data.fill(v, (y * W + x) * 3, (y * W + x) * 3 + 3)
  }
  paint(6, 4, 4, 2, 250)
  paint(30, 16, 2, 4, 128)
  return sharp(data, { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: 100 })
    .withMetadata({ orientation })
    .toBuffer()
}

async function raw(pipeline: Sharp): Promise<Raster> {
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: info.channels }
}

/** Bounding box of the pixels brighter than `threshold`. */
function brightBox(image: Raster, threshold: number): Rect {
  let x0 = Infinity
  let y0 = Infinity
  let x1 = -1
  let y1 = -1
  for (let y = 0; y < image.height; y++)
    for (let x = 0; x < image.width; x++)
      if ((image.data[(y * image.width + x) * image.channels] as number) > threshold) {
        x0 = Math.min(x0, x)
        y0 = Math.min(y0, y)
        x1 = Math.max(x1, x)
        y1 = Math.max(y1, y)
      }
  return { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 }
}

describe('EXIF orientation, checked against libvips', () => {
  it.each(ORIENTATIONS)(
    'orientation %i: the shown image and a box found on it map back to the stored pixels',
    async (o) => {
      const jpeg = await storedJpeg(o)
      const stored = await raw(sharp(jpeg))
      const shownByVips = await raw(sharp(jpeg).autoOrient())
      const shown = orientedRgb(stored, o)
      expect({ w: shown.width, h: shown.height }).toEqual({ w: shownByVips.width, h: shownByVips.height })
      expect(orientedSize(stored.width, stored.height, o)).toEqual({
        width: shown.width,
        height: shown.height,
      })
      expect(Buffer.from(shown.data).equals(Buffer.from(shownByVips.data))).toBe(true)
      // the bright block as a viewer shows it, mapped back, is where it is stored
      const seen = brightBox(shownByVips, 200)
      expect(rectShownToStored(seen, stored.width, stored.height, o)).toEqual({ x: 6, y: 4, w: 4, h: 2 })
    },
  )
})

describe('boxes', () => {
  it('grows a box by a share of its height on every side', () => {
    expect(grow({ x: 100, y: 50, w: 80, h: 20 }, 0.5)).toEqual({ x: 90, y: 40, w: 100, h: 40 })
    expect(grow({ x: 10, y: 10, w: 8, h: 2 }, 0.5, 3)).toEqual({ x: 7, y: 7, w: 14, h: 8 })
  })

  it('wraps a box past the right edge of a panorama around to the left edge', () => {
    expect(wrapAcrossSeam({ x: 3950, y: 10, w: 100, h: 20 }, 4000)).toEqual([
      { x: 3950, y: 10, w: 50, h: 20 },
      { x: 0, y: 10, w: 50, h: 20 },
    ])
    expect(wrapAcrossSeam({ x: 4010, y: 10, w: 30, h: 20 }, 4000)).toEqual([{ x: 10, y: 10, w: 30, h: 20 }])
    expect(wrapAcrossSeam({ x: -20, y: 0, w: 50, h: 5 }, 4000)).toEqual([
      { x: 3980, y: 0, w: 20, h: 5 },
      { x: 0, y: 0, w: 30, h: 5 },
    ])
  })

  it('tiles cover the image with the overlap asked for, none past the edges', () => {
    const tiles = tileGrid(2500, 1200, 960, 192)
    for (const t of tiles) {
      expect(t.x + t.w).toBeLessThanOrEqual(2500)
      expect(t.y + t.h).toBeLessThanOrEqual(1200)
    }
    for (const [x, y] of [
      [0, 0],
      [2499, 1199],
      [1250, 600],
      [959, 100],
    ] as const)
      expect(tiles.some((t) => x >= t.x && x < t.x + t.w && y >= t.y && y < t.y + t.h)).toBe(true)
    // any 192-px-wide text lies wholly inside one tile
    for (let x = 0; x + 192 <= 2500; x += 37)
      expect(tiles.some((t) => x >= t.x && x + 192 <= t.x + t.w)).toBe(true)
    expect(tileGrid(500, 300, 960, 192)).toEqual([{ x: 0, y: 0, w: 500, h: 300 }])
  })

  it('merges a text line found whole and cut in two by tiles into one box', () => {
    const items = [
      { rect: { x: 0, y: 0, w: 100, h: 20 } },
      { rect: { x: 60, y: 0, w: 40, h: 20 } },
      { rect: { x: 300, y: 0, w: 10, h: 10 } },
    ]
    const merged = mergeOverlapping(items, 0.5, (a, b) => ({ rect: union(a.rect, b.rect) }))
    expect(merged.map((m) => m.rect)).toEqual([
      { x: 0, y: 0, w: 100, h: 20 },
      { x: 300, y: 0, w: 10, h: 10 },
    ])
  })
})
