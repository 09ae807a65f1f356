import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blurImageFile } from '../../../../../electron/local-service/vision/engine/blur-image'
import {
  DB_DEFAULTS,
  DET_MEAN,
  DET_STD,
  textRegions,
} from '../../../../../electron/local-service/vision/engine/detector'
import { imageView, viewToTensor } from '../../../../../electron/local-service/vision/engine/image-view'
import { PlateOcr } from '../../../../../electron/local-service/vision/engine/ocr'
import { readLines, readWith } from '../../../../../electron/local-service/vision/engine/plate-finder'
import { normalizePlateText } from '../../../../../electron/local-service/vision/engine/plate-grammar'
import type { Raster } from '../../../../../electron/local-service/vision/engine/raster'
import { FINE_TILE_DEFAULTS, fineTiles } from '../../../../../electron/local-service/vision/engine/tiling'

/** The committed fixtures (bench/vision/make-fixtures.ts) and their labels. */
const FIXTURES = join(import.meta.dirname, '..', '..', '..', '..', 'fixtures', 'vision')
interface Label {
  file: string
  plates: Array<{ plate: string; layout: string; quad: Array<[number, number]>; widthPx: number }>
  distractors: Array<{ text: string; rect: { x: number; y: number; w: number; h: number } }>
}
let labels: Label[]
let ocr: PlateOcr

beforeAll(async () => {
  labels = JSON.parse(await readFile(join(FIXTURES, 'labels.json'), 'utf8')) as Label[]
  ocr = await PlateOcr.load({ threads: 2 })
}, 60_000)
afterAll(async () => {
  await ocr?.release()
})

const label = (file: string) => labels.find((l) => l.file === file) as Label

async function stored(file: string): Promise<Raster> {
  const { data, info } = await sharp(join(FIXTURES, file)).raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: info.channels }
}

function bbox(quad: Array<[number, number]>) {
  const xs = quad.map((q) => q[0])
  const ys = quad.map((q) => q[1])
  const x = Math.min(...xs)
  const y = Math.min(...ys)
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y }
}

/** Share of the plate's quad (sampled at pixel centres) inside the boxes. */
function quadCovered(
  quad: Array<[number, number]>,
  boxes: ReadonlyArray<{ x: number; y: number; w: number; h: number }>,
) {
  const inside = (px: number, py: number) => {
    let sign = 0
    for (let i = 0; i < 4; i++) {
      const [ax, ay] = quad[i]!
      const [bx, by] = quad[(i + 1) % 4]!
      const c = Math.sign((bx - ax) * (py - ay) - (by - ay) * (px - ax))
      if (c !== 0 && sign !== 0 && c !== sign) return false
      if (c !== 0) sign = c
    }
    return true
  }
  const b = bbox(quad)
  let n = 0
  let hit = 0
  for (let y = Math.floor(b.y); y < b.y + b.h; y++)
    for (let x = Math.floor(b.x); x < b.x + b.w; x++) {
      if (!inside(x + 0.5, y + 0.5)) continue
      n++
      if (boxes.some((r) => x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h)) hit++
    }
  return n ? hit / n : 0
}

function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)])
  for (let j = 1; j <= b.length; j++) d[0]![j] = j
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i]![j] = Math.min(
        d[i - 1]![j]! + 1,
        d[i]![j - 1]! + 1,
        d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      )
  return d[a.length]![b.length]!
}

describe('small plates (24–60 px wide, as a street panorama shows them)', () => {
  it('are all blurred, ≥ 90 % of each, and cannot be read back; large shop-sign text stays sharp', async () => {
    const out = await blurImageFile(ocr, join(FIXTURES, 'small-plates.jpg'))
    const { plates, distractors } = label('small-plates.jpg')
    expect(Math.min(...plates.map((p) => p.widthPx))).toBeLessThan(30)
    for (const p of plates) expect(quadCovered(p.quad, out.boxes)).toBeGreaterThanOrEqual(0.9)
    const { data, info } = await sharp(out.bytes).raw().toBuffer({ resolveWithObject: true })
    const after: Raster = { data, width: info.width, height: info.height, channels: 3 }
    for (const p of plates) {
      const b = bbox(p.quad)
      const [read] = await readLines(ocr, after, [b], false)
      expect(editDistance(normalizePlateText(read!.text), p.plate)).toBeGreaterThan(4)
    }
    // signs with capitals of 16 px and more are legible text, never taken for small plates
    for (const d of distractors.filter((d) => d.rect.h >= 16))
      expect(
        out.boxes.some(
          (b) =>
            b.x < d.rect.x + d.rect.w &&
            b.x + b.w > d.rect.x &&
            b.y < d.rect.y + d.rect.h &&
            b.y + b.h > d.rect.y,
        ),
      ).toBe(false)
    expect(out.search?.coarseScale).toBe(1)
  }, 120_000)

  it('the current pipeline stays selectable, and misses the two under 30 px that the two-scale one finds', async () => {
    const out = await blurImageFile(ocr, join(FIXTURES, 'small-plates.jpg'), { pipeline: 'current' })
    expect(out.search).toBeUndefined()
    const { plates } = label('small-plates.jpg')
    const small = plates.filter((p) => p.widthPx < 30)
    expect(small).toHaveLength(2)
    for (const p of small) expect(quadCovered(p.quad, out.boxes)).toBeLessThan(0.9)
    for (const p of plates.filter((p) => p.widthPx >= 30))
      expect(quadCovered(p.quad, out.boxes)).toBeGreaterThanOrEqual(0.9)
  }, 120_000)
})

describe('batching in ONNX Runtime gives what one-by-one gives', () => {
  it('the detector: close-look tiles in one run, or each alone — the same maps, the same text regions', async () => {
    const view = imageView(await stored('small-plates.jpg'), 1)
    const { plates } = label('small-plates.jpg')
    const { tiles } = fineTiles(plates.map((p) => bbox(p.quad)))
    expect(tiles.length).toBeGreaterThanOrEqual(3)
    const w = FINE_TILE_DEFAULTS.width
    const h = FINE_TILE_DEFAULTS.height
    const plane = 3 * w * h
    const batch = new Float32Array(tiles.length * plane)
    tiles.forEach((t, k) =>
      viewToTensor(view, t.region, w, h, batch.subarray(k * plane, (k + 1) * plane), w, h, DET_MEAN, DET_STD),
    )
    const together = await ocr.detectBatch(batch, tiles.length, w, h)
    for (let k = 0; k < tiles.length; k++) {
      const alone = await ocr.detect(batch.slice(k * plane, (k + 1) * plane), w, h)
      const mine = together.subarray(k * w * h, (k + 1) * w * h)
      let worst = 0
      for (let i = 0; i < alone.length; i++) worst = Math.max(worst, Math.abs(alone[i]! - mine[i]!))
      expect(worst).toBeLessThan(1e-3)
      const regions = (p: Float32Array) => textRegions(p, w, h, w, h, DB_DEFAULTS).map((r) => r.core)
      expect(regions(mine)).toEqual(regions(alone))
      expect(regions(alone).length).toBeGreaterThan(0)
    }
  }, 60_000)

  it('the recogniser: crops in runs of similar width, or each alone — the same readings', async () => {
    const view = imageView(await stored('street.jpg'), 1)
    const sample = (...args: Parameters<typeof viewToTensor> extends [unknown, ...infer R] ? R : never) =>
      viewToTensor(view, ...args)
    const { plates, distractors } = label('street.jpg')
    const rects = [
      ...plates.map((p) => bbox(p.quad)),
      ...distractors.filter((d) => d.rect.x >= 0).map((d) => d.rect),
    ]
    const runs = await readWith(ocr, sample, rects, { batchSize: 16, widthSpread: 1.3 })
    const alone = await readWith(ocr, sample, rects, { batchSize: 1, widthSpread: 1 })
    expect(runs.map((r) => r.text)).toEqual(alone.map((r) => r.text))
    expect(runs.map((r) => normalizePlateText(r.text))).toContain('25BH5664BU')
  }, 60_000)
})
