/**
 * The original file's metadata carried over byte for byte into the re-encoded image: for JPEG the APPn
 * segments (EXIF, XMP with its GPano panorama tags, extended XMP, ICC profile, IPTC) and comments; for PNG
 * the ancillary chunks (iCCP, pHYs, text chunks holding XMP, eXIf...). The encoder's own copies go.
 */

interface JpegSegment {
  marker: number
  bytes: Uint8Array
}

/** The segments before the first scan (SOS), each with its marker and length; undefined if not a JPEG. */
function jpegHeaderSegments(jpeg: Uint8Array): { segments: JpegSegment[]; rest: number } | undefined {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return undefined
  const segments: JpegSegment[] = []
  let i = 2
  while (i + 4 <= jpeg.length) {
    if (jpeg[i] !== 0xff) return undefined
    const marker = jpeg[i + 1] as number
    if (marker === 0xff) {
      i++ // fill byte
      continue
    }
    if (marker === 0xda) return { segments, rest: i } // start of scan: the rest is image data
    const length = ((jpeg[i + 2] as number) << 8) | (jpeg[i + 3] as number)
    if (length < 2 || i + 2 + length > jpeg.length) return undefined
    segments.push({ marker, bytes: jpeg.subarray(i, i + 2 + length) })
    i += 2 + length
  }
  return undefined
}

/** APP0–APP15 except APP14 (Adobe colour transform, the encoder's business), and COM. */
function isCarriedJpegSegment(marker: number): boolean {
  return (marker >= 0xe0 && marker <= 0xef && marker !== 0xee) || marker === 0xfe
}

/** The metadata segments of a JPEG, in file order. */
export function jpegMetadata(jpeg: Uint8Array): Uint8Array[] {
  return (jpegHeaderSegments(jpeg)?.segments ?? [])
    .filter((s) => isCarriedJpegSegment(s.marker))
    .map((s) => s.bytes)
}

/** `encoded` with its own metadata segments replaced by `metadata` (placed right after SOI, in order). */
export function withJpegMetadata(encoded: Uint8Array, metadata: readonly Uint8Array[]): Uint8Array {
  const parsed = jpegHeaderSegments(encoded)
  if (!parsed) throw new Error('the encoder produced no valid JPEG header')
  const kept = parsed.segments.filter((s) => !isCarriedJpegSegment(s.marker)).map((s) => s.bytes)
  const parts = [encoded.subarray(0, 2), ...metadata, ...kept, encoded.subarray(parsed.rest)]
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let o = 0
  for (const p of parts) {
    out.set(p, o)
    o += p.length
  }
  return out
}

interface PngChunk {
  type: string
  bytes: Uint8Array
}

function pngChunks(png: Uint8Array): PngChunk[] | undefined {
  const chunks: PngChunk[] = []
  let i = 8
  while (i + 12 <= png.length) {
    const length =
      (((png[i] as number) << 24) |
        ((png[i + 1] as number) << 16) |
        ((png[i + 2] as number) << 8) |
        (png[i + 3] as number)) >>>
      0
    const type = String.fromCharCode(...png.subarray(i + 4, i + 8))
    if (i + 12 + length > png.length) return undefined
    chunks.push({ type, bytes: png.subarray(i, i + 12 + length) })
    i += 12 + length
    if (type === 'IEND') break
  }
  return chunks
}

/** Ancillary chunks that describe the picture rather than encode it. */
const CARRIED_PNG_CHUNKS = new Set([
  'iCCP',
  'sRGB',
  'gAMA',
  'cHRM',
  'pHYs',
  'tEXt',
  'zTXt',
  'iTXt',
  'eXIf',
  'tIME',
])

export function pngMetadata(png: Uint8Array): Uint8Array[] {
  return (pngChunks(png) ?? []).filter((c) => CARRIED_PNG_CHUNKS.has(c.type)).map((c) => c.bytes)
}

/** `encoded` with its own descriptive chunks replaced by `metadata`, placed after IHDR (before PLTE/IDAT). */
export function withPngMetadata(encoded: Uint8Array, metadata: readonly Uint8Array[]): Uint8Array {
  const chunks = pngChunks(encoded)
  if (!chunks || chunks[0]?.type !== 'IHDR') throw new Error('the encoder produced no valid PNG')
  const kept = chunks.filter((c) => !CARRIED_PNG_CHUNKS.has(c.type)).map((c) => c.bytes)
  const parts = [encoded.subarray(0, 8), kept[0] as Uint8Array, ...metadata, ...kept.slice(1)]
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let o = 0
  for (const p of parts) {
    out.set(p, o)
    o += p.length
  }
  return out
}
