import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  blurImageFile,
  type BlurredBox,
} from '../../../../../electron/local-service/vision/engine/blur-image'
import { PlateOcr } from '../../../../../electron/local-service/vision/engine/ocr'
import { readLines } from '../../../../../electron/local-service/vision/engine/plate-finder'
import { normalizePlateText } from '../../../../../electron/local-service/vision/engine/plate-grammar'
import type { Raster } from '../../../../../electron/local-service/vision/engine/raster'
import { VisionInputError } from '../../../../../electron/local-service/vision/input-checks'

/** The committed fixtures (bench/vision/make-fixtures.ts) and their labels. */
const FIXTURES = join(import.meta.dirname, '..', '..', '..', '..', 'fixtures', 'vision')
interface Label {
  file: string
  plates: Array<{ plate: string; layout: string; quad: Array<[number, number]> }>
  distractors: Array<{ text: string; rect: { x: number; y: number; w: number; h: number } }>
}
let labels: Label[]
let ocr: PlateOcr
let dir: string

beforeAll(async () => {
  labels = JSON.parse(await readFile(join(FIXTURES, 'labels.json'), 'utf8')) as Label[]
  ocr = await PlateOcr.load({ threads: 2 })
  dir = await mkdtemp(join(tmpdir(), 'vision-'))
}, 60_000)
afterAll(async () => {
  await ocr?.release()
  await rm(dir, { recursive: true, force: true })
})

const label = (file: string) => labels.find((l) => l.file === file) as Label

function bbox(quad: Array<[number, number]>) {
  const xs = quad.map((q) => q[0])
  const ys = quad.map((q) => q[1])
  return {
    x: Math.min(...xs),
    y: Math.min(...ys),
    w: Math.max(...xs) - Math.min(...xs),
    h: Math.max(...ys) - Math.min(...ys),
  }
}

/** Share of the rectangle's pixels inside the union of the boxes (x modulo `wrap` for a panorama). */
function coverage(
  r: { x: number; y: number; w: number; h: number },
  boxes: BlurredBox[],
  wrap?: number,
): number {
  let n = 0
  let hit = 0
  for (let y = Math.floor(r.y); y < r.y + r.h; y++)
    for (let x = Math.floor(r.x); x < r.x + r.w; x++) {
      const px = wrap ? x % wrap : x
      n++
      if (boxes.some((b) => px >= b.x && px < b.x + b.w && y >= b.y && y < b.y + b.h)) hit++
    }
  return hit / n
}

async function rgb(bytes: Uint8Array): Promise<Raster> {
  const { data, info } = await sharp(bytes)
    .autoOrient()
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: 3 }
}

/** What the recogniser reads in the plate's box, whole and as two halves. */
async function readBack(
  image: Raster,
  r: { x: number; y: number; w: number; h: number },
  wrap = false,
): Promise<string[]> {
  const rects = [r, { ...r, h: r.h * 0.55 }, { ...r, y: r.y + r.h * 0.45, h: r.h * 0.55 }]
  const read = await readLines(ocr, image, rects, wrap)
  return [read[0]!.text, read[1]!.text + read[2]!.text].map(normalizePlateText)
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

describe('blurImageFile on a street photo', () => {
  let out: Awaited<ReturnType<typeof blurImageFile>>
  let before: Raster
  let after: Raster

  beforeAll(async () => {
    out = await blurImageFile(ocr, join(FIXTURES, 'street.jpg'))
    before = await rgb(await readFile(join(FIXTURES, 'street.jpg')))
    after = await rgb(out.bytes)
  }, 120_000)

  it('answers a JPEG of the same size', async () => {
    const meta = await sharp(out.bytes).metadata()
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
      format: 'jpeg',
      width: 1280,
      height: 720,
    })
    expect(out.panorama).toBe(false)
  })

  it('reads each plate before, blurs ≥ 90 % of it, and the recogniser cannot read it back', async () => {
    const { plates } = label('street.jpg')
    for (const plate of plates) {
      const box = bbox(plate.quad)
      expect((await readBack(before, box)).some((t) => editDistance(t, plate.plate) <= 2)).toBe(true)
      expect(coverage(box, out.boxes)).toBeGreaterThanOrEqual(0.9)
      for (const text of await readBack(after, box))
        expect(editDistance(text, plate.plate)).toBeGreaterThan(4)
    }
    expect(out.boxes.map((b) => b.plate).sort()).toEqual(plates.map((p) => p.plate).sort())
  })

  it('leaves the shop signs sharp', () => {
    for (const d of label('street.jpg').distractors) expect(coverage(d.rect, out.boxes)).toBe(0)
  })

  it('finds no plate when run again on its own output', async () => {
    const path = join(dir, 'again.jpg')
    await writeFile(path, out.bytes)
    expect((await blurImageFile(ocr, path)).boxes).toEqual([])
  }, 60_000)

  it('changes nothing outside the blurred boxes beyond JPEG re-encoding noise', () => {
    let diff = 0
    let n = 0
    for (let y = 0; y < 720; y += 3)
      for (let x = 0; x < 1280; x += 3) {
        if (out.boxes.some((b) => x >= b.x - 8 && x < b.x + b.w + 8 && y >= b.y - 8 && y < b.y + b.h + 8))
          continue
        const i = (y * 1280 + x) * 3
        diff += Math.abs(before.data[i]! - after.data[i]!)
        n++
      }
    expect(diff / n).toBeLessThan(3)
  })
})

describe('blurImageFile on other inputs', () => {
  it('a PNG comes back as a PNG with its alpha channel', async () => {
    const path = join(dir, 'street.png')
    await sharp(join(FIXTURES, 'street.jpg')).ensureAlpha().png().toFile(path)
    const out = await blurImageFile(ocr, path)
    const meta = await sharp(out.bytes).metadata()
    expect({ format: meta.format, width: meta.width, height: meta.height, channels: meta.channels }).toEqual({
      format: 'png',
      width: 1280,
      height: 720,
      channels: 4,
    })
    expect(out.boxes).toHaveLength(2)
  }, 60_000)

  it('an image stored sideways (EXIF orientation 6) is searched upright and blurred where the viewer shows the plate', async () => {
    const path = join(dir, 'rotated.jpg')
    // store the pixels turned 90° anticlockwise and tag them "rotate 90° clockwise to show"
    await sharp(join(FIXTURES, 'street.jpg'))
      .rotate(270)
      .withMetadata({ orientation: 6 })
      .jpeg({ quality: 95 })
      .toFile(path)
    const out = await blurImageFile(ocr, path)
    const meta = await sharp(out.bytes).metadata()
    expect({ width: meta.width, height: meta.height, orientation: meta.orientation }).toEqual({
      width: 720,
      height: 1280,
      orientation: 6,
    })
    const shown = await rgb(out.bytes)
    for (const plate of label('street.jpg').plates) {
      const box = bbox(plate.quad)
      expect(coverage(box, out.boxes)).toBeGreaterThanOrEqual(0.9)
      for (const text of await readBack(shown, box))
        expect(editDistance(text, plate.plate)).toBeGreaterThan(4)
    }
  }, 60_000)

  it('a panorama keeps its GPano XMP and EXIF, and a plate across the 360° seam is blurred on both edges', async () => {
    const source = join(FIXTURES, 'pano-seam.jpg')
    const path = join(dir, 'pano.jpg')
    await sharp(source)
      .keepXmp()
      .withExif({ IFD0: { Make: 'Ricoh', Model: 'Theta Z1' } })
      .jpeg({ quality: 90 })
      .toFile(path)
    const out = await blurImageFile(ocr, path)
    expect(out.panorama).toBe(true)
    const meta = await sharp(out.bytes).metadata()
    expect(meta.xmp?.toString()).toContain('GPano:ProjectionType="equirectangular"')
    expect(Buffer.from(meta.exif ?? []).toString('latin1')).toContain('Theta Z1')
    const seam = label('pano-seam.jpg').plates[0]!
    const box = bbox(seam.quad)
    expect(box.x + box.w).toBeGreaterThan(2000)
    expect(coverage(box, out.boxes, 2000)).toBeGreaterThanOrEqual(0.9)
    expect(out.boxes.some((b) => b.x === 0)).toBe(true)
    expect(out.boxes.some((b) => b.x + b.w === 2000)).toBe(true)
    const shown = await rgb(out.bytes)
    for (const text of await readBack(shown, box, true))
      expect(editDistance(text, seam.plate)).toBeGreaterThan(4)
  }, 120_000)

  it('a truncated JPEG is a corrupt image, not a fault', async () => {
    const path = join(dir, 'cut.jpg')
    const bytes = await readFile(join(FIXTURES, 'street.jpg'))
    await writeFile(path, bytes.subarray(0, Math.floor(bytes.length / 2)))
    const error = await blurImageFile(ocr, path).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(VisionInputError)
    expect((error as VisionInputError).problem).toBe('corrupt-image')
  })

  it('an image over the pixel limit is refused before it is decoded', async () => {
    const error = await blurImageFile(ocr, join(FIXTURES, 'street.jpg'), {
      limits: { maxBytes: 10_000_000, maxPixels: 500_000, maxSide: 30_000 },
    }).catch((e: unknown) => e)
    expect((error as VisionInputError).problem).toBe('too-many-pixels')
  })

  it('stops when its signal is aborted', async () => {
    const controller = new AbortController()
    controller.abort(new Error('client went away'))
    await expect(
      blurImageFile(ocr, join(FIXTURES, 'street.jpg'), { signal: controller.signal }),
    ).rejects.toThrow('client went away')
  })
})
