import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import type { Orientation } from '../../../../../electron/local-service/vision/engine/geometry'
import {
  greyBand,
  imageView,
  reducedView,
  viewToTensor,
} from '../../../../../electron/local-service/vision/engine/image-view'
import {
  cropToTensor,
  orientedRgb,
  type Raster,
} from '../../../../../electron/local-service/vision/engine/raster'

const ORIENTATIONS: Orientation[] = [1, 2, 3, 4, 5, 6, 7, 8]
const MEAN = [0.485, 0.456, 0.406] as const
const STD = [0.229, 0.224, 0.225] as const

/** A 37×23 raster of `channels` channels whose every sample differs (a gradient with a twist). */
function pattern(channels: number, width = 37, height = 23): Raster {
  const data = new Uint8Array(width * height * channels)
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      for (let c = 0; c < channels; c++)
        data[(y * width + x) * channels + c] = (x * 7 + y * 13 + c * 61 + ((x * y) % 11)) % 256
  return { data, width, height, channels }
}

function tensor(w: number, h: number): Float32Array {
  return new Float32Array(3 * w * h)
}

describe('the view reads the stored pixels as shown, without an upright copy', () => {
  it.each(ORIENTATIONS)('orientation %i: crops equal those of the upright RGB copy', (o) => {
    const stored = pattern(3)
    const view = imageView(stored, o)
    const upright = orientedRgb(stored, o)
    expect([view.width, view.height]).toEqual([upright.width, upright.height])
    for (const crop of [
      { x: 0, y: 0, w: view.width, h: view.height },
      { x: 3.5, y: 2.25, w: 11, h: 7 },
      { x: -4, y: -3, w: 9, h: 6 },
    ]) {
      const a = tensor(24, 16)
      const b = tensor(24, 16)
      viewToTensor(view, crop, 20, 13, a, 24, 16, MEAN, STD)
      cropToTensor(upright, crop, 20, 13, b, 24, 16, MEAN, STD)
      for (let i = 0; i < a.length; i++) expect(a[i]).toBeCloseTo(b[i]!, 4)
    }
  })

  it('grey and RGBA stored pixels read as RGB', () => {
    const rgba = pattern(4)
    const rgb = orientedRgb(rgba, 1)
    const grey = pattern(1)
    const greyAsRgb: Raster = {
      ...grey,
      channels: 3,
      data: Uint8Array.from({ length: grey.data.length * 3 }, (_, i) => grey.data[Math.floor(i / 3)]!),
    }
    for (const [stored, expected] of [
      [rgba, rgb],
      [grey, greyAsRgb],
    ] as const) {
      const a = tensor(16, 8)
      const b = tensor(16, 8)
      viewToTensor(imageView(stored, 6), { x: 1, y: 2, w: 15, h: 9 }, 16, 8, a, 16, 8, MEAN, STD)
      cropToTensor(orientedRgb(expected, 6), { x: 1, y: 2, w: 15, h: 9 }, 16, 8, b, 16, 8, MEAN, STD)
      for (let i = 0; i < a.length; i++) expect(a[i]).toBeCloseTo(b[i]!, 4)
    }
  })

  it('a panorama wraps: a crop across the right edge continues at the left', () => {
    const stored = pattern(3)
    const view = imageView(stored, 1, true)
    const a = tensor(10, 4)
    const b = tensor(10, 4)
    viewToTensor(view, { x: 32, y: 5, w: 10, h: 4 }, 10, 4, a, 10, 4, MEAN, STD)
    cropToTensor(stored, { x: 32, y: 5, w: 10, h: 4 }, 10, 4, b, 10, 4, MEAN, STD, true)
    expect(Array.from(a)).toEqual(Array.from(b))
    // columns 37..41 are columns 0..4
    const left = tensor(5, 4)
    viewToTensor(view, { x: 0, y: 5, w: 5, h: 4 }, 5, 4, left, 5, 4, MEAN, STD)
    for (let ch = 0; ch < 3; ch++)
      for (let y = 0; y < 4; y++)
        for (let x = 0; x < 5; x++)
          expect(a[ch * 40 + y * 10 + 5 + x]).toBeCloseTo(left[ch * 20 + y * 5 + x]!, 5)
  })
})

describe('grey bands for the texture proposals', () => {
  it('only the asked rows, upright, and past the right edge the left edge again', () => {
    const stored = pattern(3)
    const view = imageView(stored, 3, true)
    const upright = orientedRgb(stored, 3)
    const band = greyBand(view, 5, 12, 6)
    expect([band.width, band.height, band.channels]).toEqual([37 + 6, 7, 1])
    for (let y = 0; y < 7; y++)
      for (let x = 0; x < 43; x++) {
        const i = ((y + 5) * 37 + (x % 37)) * 3
        const l = (upright.data[i]! * 77 + upright.data[i + 1]! * 150 + upright.data[i + 2]! * 29) >> 8
        expect(band.data[y * 43 + x]).toBe(l)
      }
  })
})

describe('the reduced view', () => {
  it('is the image made smaller by libvips, shown upright like the view', async () => {
    const stored = pattern(3, 400, 200)
    const view = imageView(stored, 6)
    const small = await reducedView(view, 0.5)
    expect([small.width, small.height]).toEqual([100, 200])
    const bySharp = await sharp(stored.data, { raw: { width: 400, height: 200, channels: 3 } })
      .resize(200, 100, { kernel: 'lanczos3', fit: 'fill' })
      .raw()
      .toBuffer()
    expect(Buffer.from(small.stored.data).equals(bySharp)).toBe(true)
    expect(small.orientation).toBe(6)
  })
})
