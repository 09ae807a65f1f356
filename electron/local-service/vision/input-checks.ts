import { VISION_LIMITS, type VisionLimits } from './limits'

/** Why an upload cannot be blurred: each one becomes a 400 with a JSON body naming it. */
export type VisionInputProblem =
  | 'missing-file'
  | 'unexpected-field'
  | 'empty-file'
  | 'not-an-image'
  | 'unsupported-format'
  | 'corrupt-image'
  | 'too-many-pixels'
  | 'too-large'

export class VisionInputError extends Error {
  constructor(
    readonly problem: VisionInputProblem,
    message: string,
  ) {
    super(message)
    this.name = 'VisionInputError'
  }
}

export type AcceptedFormat = 'jpeg' | 'png'

/** Image formats recognised by their signature but not accepted (§4.10 takes .jpg, .jpeg and .png). */
const OTHER_IMAGE_SIGNATURES: ReadonlyArray<{ name: string; test: (b: Uint8Array) => boolean }> = [
  { name: 'GIF', test: (b) => ascii(b, 0, 4) === 'GIF8' },
  { name: 'WebP', test: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP' },
  { name: 'BMP', test: (b) => ascii(b, 0, 2) === 'BM' && b.length >= 26 },
  { name: 'TIFF', test: (b) => ascii(b, 0, 4) === 'II*\0' || ascii(b, 0, 4) === 'MM\0*' },
  {
    name: 'HEIF/AVIF',
    test: (b) => ascii(b, 4, 4) === 'ftyp' && /^(heic|heix|mif1|msf1|avif|avis)$/.test(ascii(b, 8, 4)),
  },
  { name: 'JPEG 2000', test: (b) => ascii(b, 4, 8) === 'jP  \r\n\x87\n' || ascii(b, 0, 4) === '\xffO\xffQ' },
  { name: 'JPEG XL', test: (b) => (b[0] === 0xff && b[1] === 0x0a) || ascii(b, 4, 4) === 'JXL ' },
  { name: 'ICO', test: (b) => b[0] === 0 && b[1] === 0 && b[2] === 1 && b[3] === 0 },
  { name: 'SVG', test: (b) => /^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/i.test(ascii(b, 0, Math.min(b.length, 256))) },
]

function ascii(bytes: Uint8Array, start: number, length: number): string {
  let s = ''
  for (let i = start; i < start + length && i < bytes.length; i++)
    s += String.fromCharCode(bytes[i] as number)
  return s
}

/**
 * What the upload is, from its first bytes and its size (never from its name): JPEG or PNG, or a clear error
 * for an empty file, a file over the byte cap, another image format, or something that is no image at all.
 */
export function sniffUpload(
  head: Uint8Array,
  size: number,
  limits: VisionLimits = VISION_LIMITS,
): AcceptedFormat {
  if (size === 0) throw new VisionInputError('empty-file', 'the file is empty (0 bytes)')
  if (size > limits.maxBytes) {
    throw new VisionInputError(
      'too-large',
      `the file is ${size} bytes; at most ${limits.maxBytes} bytes are accepted`,
    )
  }
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg'
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  if (head.length >= 8 && png.every((b, i) => head[i] === b)) return 'png'
  const other = OTHER_IMAGE_SIGNATURES.find((s) => s.test(head))
  if (other) {
    throw new VisionInputError(
      'unsupported-format',
      `the file is a ${other.name} image; only JPEG and PNG images are accepted`,
    )
  }
  throw new VisionInputError('not-an-image', 'the file is not an image: its content is neither JPEG nor PNG')
}

/** The header's dimensions against the pixel limits; a header without sane dimensions is a corrupt image. */
export function checkDimensions(
  width: number | undefined,
  height: number | undefined,
  limits: VisionLimits = VISION_LIMITS,
): { width: number; height: number } {
  if (!width || !height || !Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new VisionInputError(
      'corrupt-image',
      'the image is corrupt: its header has no valid width and height',
    )
  }
  if (width > limits.maxSide || height > limits.maxSide || width * height > limits.maxPixels) {
    throw new VisionInputError(
      'too-many-pixels',
      `the image is ${width}×${height} (${((width * height) / 1e6).toFixed(1)} megapixels); at most ${
        limits.maxPixels / 1e6
      } megapixels and ${limits.maxSide} pixels a side are accepted`,
    )
  }
  return { width, height }
}

/** A decoder's complaint about the bytes, as the corrupt-image error a caller can act on. */
export function corruptImage(format: AcceptedFormat, cause: unknown): VisionInputError {
  const detail = cause instanceof Error ? cause.message.split('\n')[0] : String(cause)
  return new VisionInputError(
    'corrupt-image',
    `the ${format === 'jpeg' ? 'JPEG' : 'PNG'} image is corrupt or truncated (${detail?.trim() || 'decoder error'})`,
  )
}
