import { issue, type Checked } from '../common/issues'

/** §4.10 POST {aiml_url}/license_plate_blur_pano: multipart field `file`, a .jpg, .jpeg or .png image. */
export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png'] as const
export type ImageType = 'image/jpeg' | 'image/png'

export interface BlurPlatesInput {
  fileName: string
  bytes: Uint8Array
}

export interface BlurPlatesRequest extends BlurPlatesInput {
  contentType: ImageType
}

/** What the bytes are, by their signature: JPEG FF D8 FF, PNG 89 50 4E 47 0D 0A 1A 0A. */
export function sniffImage(bytes: Uint8Array): ImageType | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg'
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'image/png'
  return undefined
}

/** The file must be named .jpg/.jpeg/.png and its bytes must be that kind of image. */
export function validateBlurPlates(input: {
  fileName?: string
  bytes?: Uint8Array
}): Checked<BlurPlatesRequest> {
  if (!input.fileName || !input.bytes)
    return { ok: false, issues: [issue('file', 'missing', 'is required: a .jpg, .jpeg or .png image')] }
  const ext = /\.([A-Za-z]+)$/.exec(input.fileName)?.[1]?.toLowerCase()
  if (!ext || !(IMAGE_EXTENSIONS as readonly string[]).includes(ext)) {
    return { ok: false, issues: [issue('file', 'invalid', 'must be a .jpg, .jpeg or .png image')] }
  }
  const kind = sniffImage(input.bytes)
  const expected: ImageType = ext === 'png' ? 'image/png' : 'image/jpeg'
  if (kind !== expected) {
    return {
      ok: false,
      issues: [
        issue('file', 'invalid', `is named .${ext} but its content is ${kind ?? 'not a JPEG or PNG image'}`),
      ],
    }
  }
  const fileName = input.fileName.split(/[\\/]/).pop() as string
  return { ok: true, value: { fileName, bytes: input.bytes, contentType: kind } }
}

/** A blurred region of the answered image, in its pixels as shown (EXIF orientation applied). */
export interface BlurredBox {
  x: number
  y: number
  w: number
  h: number
}

/**
 * Header in which the built-in local service lists the regions it blurred, as a JSON array of boxes. Not
 * part of the spec: other services send none, and callers must do without it.
 */
export const BLURRED_BOXES_HEADER = 'x-blurred-boxes'

/** The boxes of the header, or undefined when it is absent or not a well-formed list of boxes. */
export function parseBlurredBoxes(value: string | null | undefined): BlurredBox[] | undefined {
  if (!value) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    return undefined
  }
  if (!Array.isArray(parsed)) return undefined
  const boxes: BlurredBox[] = []
  for (const item of parsed) {
    const b = item as Record<string, unknown>
    const n = (k: string) => (typeof b?.[k] === 'number' && Number.isFinite(b[k]) ? (b[k] as number) : NaN)
    const box = { x: n('x'), y: n('y'), w: n('w'), h: n('h') }
    if (Object.values(box).some(Number.isNaN) || box.w < 0 || box.h < 0) return undefined
    boxes.push(box)
  }
  return boxes
}

/** The name of a blurred copy: `street.jpg` → `street-blurred.jpg` (the folder part of `fileName` goes). */
export function blurredName(fileName: string, suffix = '-blurred'): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName
  const dot = base.lastIndexOf('.')
  return dot > 0 ? `${base.slice(0, dot)}${suffix}${base.slice(dot)}` : `${base}${suffix}`
}

/** A .jpg, .jpeg or .png name (any case). */
export function isImageName(name: string): boolean {
  const ext = /\.([A-Za-z]+)$/.exec(name)?.[1]?.toLowerCase()
  return ext !== undefined && (IMAGE_EXTENSIONS as readonly string[]).includes(ext)
}
