/**
 * The documented limits of the local license-plate blurring (README, "Vision"). An upload past the byte cap
 * or an image past the pixel cap is refused with a 400 before any decoding work.
 */
export const VISION_LIMITS = {
  /** Largest upload accepted, in bytes (100 MiB: a 12000×6000 JPEG at high quality is ~40 MB). */
  maxBytes: 100 * 1024 * 1024,
  /** Most pixels (width × height) in one image: 100 megapixels, e.g. 14142×7071. */
  maxPixels: 100_000_000,
  /** Longest side accepted, in pixels (libvips and the tiles stay well inside 32-bit offsets). */
  maxSide: 30_000,
} as const

export type VisionLimits = { -readonly [K in keyof typeof VISION_LIMITS]: number }
