import { describe, expect, it } from 'vitest'
import {
  checkDimensions,
  corruptImage,
  sniffUpload,
  VisionInputError,
} from '../../../../electron/local-service/vision/input-checks'
import { VISION_LIMITS } from '../../../../electron/local-service/vision/limits'

const bytes = (...b: number[]) => new Uint8Array(b)
const text = (s: string) => new TextEncoder().encode(s)

function problemOf(f: () => unknown): { problem: string; message: string } {
  try {
    f()
  } catch (error) {
    expect(error).toBeInstanceOf(VisionInputError)
    const e = error as VisionInputError
    return { problem: e.problem, message: e.message }
  }
  throw new Error('expected a VisionInputError')
}

describe('sniffUpload: what the upload is, from its bytes', () => {
  it('knows JPEG and PNG by their signatures, whatever the name', () => {
    expect(sniffUpload(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10), 1000)).toBe('jpeg')
    expect(sniffUpload(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0), 1000)).toBe('png')
  })

  it('refuses an empty file', () => {
    expect(problemOf(() => sniffUpload(bytes(), 0))).toEqual({
      problem: 'empty-file',
      message: 'the file is empty (0 bytes)',
    })
  })

  it('refuses a file over the byte cap, naming both sizes', () => {
    const r = problemOf(() => sniffUpload(bytes(0xff, 0xd8, 0xff), VISION_LIMITS.maxBytes + 1))
    expect(r.problem).toBe('too-large')
    expect(r.message).toContain(String(VISION_LIMITS.maxBytes))
  })

  it.each([
    ['GIF', text('GIF89a\x01\x00')],
    ['WebP', text('RIFF\x00\x00\x00\x00WEBPVP8 ')],
    ['TIFF', text('II*\x00\x08\x00\x00\x00')],
    ['BMP', text('BM' + '\x00'.repeat(30))],
    ['HEIF/AVIF', text('\x00\x00\x00\x18ftypheic')],
    ['SVG', text('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg">')],
  ])('names another image format (%s) as unsupported', (name, head) => {
    const r = problemOf(() => sniffUpload(head, 4096))
    expect(r.problem).toBe('unsupported-format')
    expect(r.message).toBe(`the file is a ${name} image; only JPEG and PNG images are accepted`)
  })

  it('says when the content is no image at all (a JPEG name does not help)', () => {
    expect(problemOf(() => sniffUpload(text('%PDF-1.7 ...'), 100)).problem).toBe('not-an-image')
    expect(problemOf(() => sniffUpload(text('hello, world'), 12)).problem).toBe('not-an-image')
    expect(problemOf(() => sniffUpload(bytes(0xff, 0xd8), 2)).problem).toBe('not-an-image')
  })
})

describe('checkDimensions: the pixel limits', () => {
  it('accepts an 8000×4000 panorama', () => {
    expect(checkDimensions(8000, 4000)).toEqual({ width: 8000, height: 4000 })
  })

  it('refuses more pixels than the documented limit, saying how many', () => {
    const r = problemOf(() => checkDimensions(15000, 7500))
    expect(r.problem).toBe('too-many-pixels')
    expect(r.message).toBe(
      'the image is 15000×7500 (112.5 megapixels); at most 100 megapixels and 30000 pixels a side are accepted',
    )
    expect(problemOf(() => checkDimensions(40000, 10)).problem).toBe('too-many-pixels')
  })

  it('calls a header without dimensions corrupt', () => {
    expect(problemOf(() => checkDimensions(undefined, 10)).problem).toBe('corrupt-image')
    expect(problemOf(() => checkDimensions(0, 0)).problem).toBe('corrupt-image')
  })

  it('turns a decoder complaint into a corrupt-image error with its first line', () => {
    const e = corruptImage('jpeg', new Error('VipsJpeg: premature end of JPEG file\nmore detail'))
    expect(e.problem).toBe('corrupt-image')
    expect(e.message).toBe('the JPEG image is corrupt or truncated (VipsJpeg: premature end of JPEG file)')
  })
})
