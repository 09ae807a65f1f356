import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { DB_DEFAULTS, textRegions } from '../../../../../electron/local-service/vision/engine/detector'
import type { Rect } from '../../../../../electron/local-service/vision/engine/geometry'
import { greyBand, imageView } from '../../../../../electron/local-service/vision/engine/image-view'
import type { TextLine } from '../../../../../electron/local-service/vision/engine/plate-finder'
import {
  sizedLikeText,
  streetBand,
  strokeCount,
  textureProposals,
} from '../../../../../electron/local-service/vision/engine/proposals'
import type { Raster } from '../../../../../electron/local-service/vision/engine/raster'
import type { Recognition } from '../../../../../electron/local-service/vision/engine/recognizer'
import {
  lineCore,
  plateBoard,
  plateFragment,
  readsAsWord,
  smallPlates,
} from '../../../../../electron/local-service/vision/engine/small-plates'
import { joinProposals, textureLevels } from '../../../../../electron/local-service/vision/engine/text-finder'

const FIXTURES = join(import.meta.dirname, '..', '..', '..', '..', 'fixtures', 'vision')

/** A grey raster of `width`×`height` at `level`, with a little seeded noise. */
function canvas(width: number, height: number, level = 120, noise = 4): Raster {
  let seed = 7
  const data = new Uint8Array(width * height).map(() => {
    seed = (seed * 16807) % 2147483647
    return Math.max(0, Math.min(255, level + Math.round(((seed / 2147483647) * 2 - 1) * noise)))
  })
  return { data, width, height, channels: 1 }
}

function paint(r: Raster, x0: number, y0: number, w: number, h: number, v: number): void {
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) r.data[y * r.width + x] = v
}

const hits = (boxes: readonly Rect[], r: Rect) =>
  boxes.some((b) => b.x < r.x + r.w && b.x + b.w > r.x && b.y < r.y + r.h && b.y + b.h > r.y)

describe('texture proposals: where small text may be', () => {
  it('a row of small dark strokes on a light board is proposed; a lone edge, a pole and flat noise are not', () => {
    const grey = canvas(200, 80)
    // "text": 9 strokes 2 px wide, 3 px apart, 6 px high, on a light board
    paint(grey, 20, 30, 52, 14, 220)
    for (let k = 0; k < 9; k++) paint(grey, 24 + k * 5, 34, 2, 6, 30)
    // a lone strong edge, and a pole (two edges)
    paint(grey, 120, 0, 80, 80, 250)
    paint(grey, 95, 10, 5, 60, 20)
    const boxes = sizedLikeText(textureProposals(grey))
    expect(hits(boxes, { x: 24, y: 34, w: 44, h: 6 })).toBe(true)
    expect(boxes.every((b) => b.x < 90)).toBe(true)
    const text = boxes.find((b) => hits([b], { x: 24, y: 34, w: 44, h: 6 }))!
    expect(strokeCount(grey, text)).toBeGreaterThanOrEqual(12)
    expect(strokeCount(grey, { x: 90, y: 20, w: 60, h: 8 })).toBeLessThanOrEqual(3)
  })

  it('every plate of the small-plate fixture is proposed, at full resolution', async () => {
    const labels = JSON.parse(await readFile(join(FIXTURES, 'labels.json'), 'utf8')) as Array<{
      file: string
      plates: Array<{ quad: Array<[number, number]> }>
    }>
    const { data, info } = await sharp(join(FIXTURES, 'small-plates.jpg'))
      .raw()
      .toBuffer({ resolveWithObject: true })
    const view = imageView({ data, width: info.width, height: info.height, channels: info.channels }, 1)
    const boxes = sizedLikeText(joinProposals(textureProposals(greyBand(view, 0, view.height))))
    for (const p of labels.find((l) => l.file === 'small-plates.jpg')!.plates) {
      const xs = p.quad.map((q) => q[0])
      const ys = p.quad.map((q) => q[1])
      const centre = {
        x: (Math.min(...xs) + Math.max(...xs)) / 2,
        y: (Math.min(...ys) + Math.max(...ys)) / 2,
      }
      expect(
        boxes.some(
          (b) => centre.x >= b.x && centre.x <= b.x + b.w && centre.y >= b.y && centre.y <= b.y + b.h,
        ),
      ).toBe(true)
    }
    // far fewer proposals than a dense grid of close-look tiles would need
    expect(boxes.length).toBeLessThan(80)
  })

  it('a panorama seam: text across the right edge is proposed whole in the strip that repeats the left edge', () => {
    const stored = canvas(300, 60)
    paint(stored, 0, 20, 30, 14, 220)
    paint(stored, 270, 20, 30, 14, 220)
    for (const x of [274, 279, 284, 289, 294, 299 - 1, 3, 8, 13, 18, 23]) paint(stored, x, 24, 2, 6, 30)
    const view = imageView(stored, 1, true)
    const band = greyBand(view, 0, 60, 64)
    const boxes = sizedLikeText(textureProposals(band))
    expect(boxes.some((b) => b.x < 290 && b.x + b.w > 310)).toBe(true)
  })
})

describe('the street band of a panorama', () => {
  it('holds every row where a level camera 1.5–3 m up sees a plate up to 80 px wide, and not the sky', () => {
    for (const width of [4000, 8000]) {
      const band = streetBand(width)
      const height = width / 2
      // a 0.5 m plate 80 px wide is this far; nearer is wider; farther, nearer the horizon
      const nearest = (0.5 * width) / (2 * Math.PI * 80)
      for (const distance of [nearest, nearest * 2, nearest * 8])
        for (const drop of [0.2, 1.2, 2.7]) {
          const row = height / 2 + (Math.atan(drop / distance) / Math.PI) * height
          expect(row / height).toBeGreaterThanOrEqual(band.top)
          expect(row / height).toBeLessThanOrEqual(band.bottom)
        }
      expect(band.top).toBeGreaterThan(0.45)
      expect(band.bottom).toBeLessThan(width === 8000 ? 0.65 : 0.75)
    }
  })

  it('a photo is searched everywhere; a panorama in the band at full resolution, below it at half', () => {
    expect(textureLevels(2000, { panorama: false, streetBand: true })).toEqual([
      { top: 0, bottom: 1, step: 1 },
    ])
    expect(textureLevels(8000, { panorama: true, streetBand: false })).toEqual([
      { top: 0, bottom: 1, step: 1 },
    ])
    const [full, half] = textureLevels(8000, { panorama: true, streetBand: true })
    expect(full).toMatchObject({ ...streetBand(8000, 80), step: 1 })
    expect(half!.step).toBe(2)
    expect(half!.top).toBeLessThan(full!.bottom)
    expect(half!.bottom).toBe(streetBand(8000, 200).bottom)
  })
})

describe('small plates: text too small to read', () => {
  it('a detector line less its growth is the text the detector saw', () => {
    const prob = new Float32Array(100 * 40)
    for (let y = 15; y < 23; y++) for (let x = 20; x < 60; x++) prob[y * 100 + x] = 0.9
    const [region] = textRegions(prob, 100, 40, 100, 40, DB_DEFAULTS)
    const core = lineCore(region!.rect)
    expect(core.x).toBeCloseTo(20, 3)
    expect(core.y).toBeCloseTo(15, 3)
    expect(core.w).toBeCloseTo(40, 3)
    expect(core.h).toBeCloseTo(8, 3)
  })

  it.each([0, 6, -8])('a board around small text covers the plate it is on, turned %i°', (degrees) => {
    // a one-line plate 30 px wide (500 × 120 mm): its text from 48 to 490 mm across, 27 to 93 mm down
    const a = (degrees * Math.PI) / 180
    const at = (u: number, v: number): [number, number] => {
      const x = ((u - 250) / 500) * 30
      const y = ((v - 60) / 500) * 30
      return [200 + x * Math.cos(a) - y * Math.sin(a), 100 + x * Math.sin(a) + y * Math.cos(a)]
    }
    const plate = [at(0, 0), at(500, 0), at(500, 120), at(0, 120)]
    const text = [at(48, 27), at(490, 27), at(490, 93), at(48, 93)]
    // the proposal's box is the text's box (what the texture proposals find around it)
    const xs = text.map((p) => p[0])
    const ys = text.map((p) => p[1])
    const box = {
      x: Math.min(...xs),
      y: Math.min(...ys),
      w: Math.max(...xs) - Math.min(...xs),
      h: Math.max(...ys) - Math.min(...ys),
    }
    const board = plateBoard(box, 1)
    for (const [x, y] of plate) {
      expect(x).toBeGreaterThanOrEqual(board.x)
      expect(x).toBeLessThanOrEqual(board.x + board.w)
      expect(y).toBeGreaterThanOrEqual(board.y)
      expect(y).toBeLessThanOrEqual(board.y + board.h)
    }
  })

  it.each([
    ['BOOK DEPOT', 0.95, true],
    ['BUS STOP', 0.9, true],
    ['ROOM 204', 0.95, true],
    ['MLE4RR', 0.56, false],
    ['CH81', 1, false],
    ['TS24', 0.99, false],
    ['22BH 621', 0.9, false],
    ['MH12AB1234', 0.99, false],
    ['SHOP', 0.5, false],
    ['CALL 98201 478', 0.95, true],
    ['MH 12 ABC 1234', 0.95, false],
  ])('"%s" read at %f: a word, not a plate? %s', (text, confidence, word) => {
    expect(readsAsWord({ text, confidence }, 0.7)).toBe(word)
  })

  it('a registration’s opening is a real state code then a digit, or 2 digits and BH, at the start', () => {
    expect(plateFragment('TS24')).toBe(true)
    expect(plateFragment('IND MH1'.replace(/ /g, ''))).toBe(true)
    expect(plateFragment('23BH')).toBe(true)
    expect(plateFragment('PLOT45SECTOR21')).toBe(false)
    expect(plateFragment('XY12')).toBe(false)
  })

  it('takes seen, plate-shaped small text that is not a word; leaves words, pieces of large text and unseen texture', async () => {
    const tiny = { rect: { x: 100, y: 100, w: 24, h: 6 }, textScore: 0.9, strokes: 3 }
    const turning = { rect: { x: 300, y: 100, w: 24, h: 6 }, textScore: 0, strokes: 12 }
    const unseen = { rect: { x: 500, y: 100, w: 24, h: 6 }, textScore: 0.1, strokes: 3 }
    const sparse = { rect: { x: 700, y: 100, w: 60, h: 6 }, textScore: 0, strokes: 6 }
    const word = { rect: { x: 900, y: 100, w: 40, h: 8 }, textScore: 0.9, strokes: 9 }
    const square = { rect: { x: 1100, y: 100, w: 10, h: 9 }, textScore: 0.9, strokes: 8 }
    const inSign = { rect: { x: 1320, y: 110, w: 30, h: 8 }, textScore: 0.9, strokes: 9 }
    const sign: TextLine = {
      rect: { x: 1300, y: 90, w: 300, h: 50 },
      score: 0.9,
      reading: { text: 'GUPTA MEDICAL STORE', confidence: 0.95 },
    }
    const asked: Rect[][] = []
    const read = async (rects: readonly Rect[]): Promise<Recognition[]> => {
      asked.push([...rects])
      return rects.map((r) =>
        r.x > 880 && r.x < 1000 ? { text: 'BAKERY', confidence: 0.97 } : { text: '', confidence: 0 },
      )
    }
    const found = await smallPlates([tiny, turning, unseen, sparse, word, square, inSign], [sign], read)
    const at = (x: number) => found.some((f) => f.rect.x < x && f.rect.x + f.rect.w > x)
    expect(at(110)).toBe(true)
    expect(at(310)).toBe(true)
    expect(at(510)).toBe(false)
    expect(at(730)).toBe(false)
    expect(at(920)).toBe(false)
    expect(at(1105)).toBe(false)
    expect(at(1330)).toBe(false)
    expect(found.every((f) => f.why === 'small-text' && f.plate === undefined)).toBe(true)
    // each is blurred as the plate's board around its text
    const board = found.find((f) => f.rect.x < 110 && f.rect.x + f.rect.w > 110)!.rect
    expect(board).toEqual(plateBoard(tiny.rect, 1))
    // one recogniser call for all the candidates that needed a reading
    expect(asked).toHaveLength(1)
  })
})
