import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import opentype, { type Font } from 'opentype.js'

/**
 * Fonts for rendering plates and signs, from npm packages under the SIL Open Font License (Fontsource):
 * condensed sans faces close to the HSRP plate lettering, and a few for shop signs.
 */
export const PLATE_FONTS = [
  '@fontsource/roboto-condensed/files/roboto-condensed-latin-700-normal.woff',
  '@fontsource/barlow-condensed/files/barlow-condensed-latin-600-normal.woff',
  '@fontsource/oswald/files/oswald-latin-500-normal.woff',
  '@fontsource/bebas-neue/files/bebas-neue-latin-400-normal.woff',
  '@fontsource/roboto-mono/files/roboto-mono-latin-700-normal.woff',
] as const

export const SIGN_FONTS = [
  '@fontsource/oswald/files/oswald-latin-700-normal.woff',
  '@fontsource/roboto-condensed/files/roboto-condensed-latin-400-normal.woff',
  '@fontsource/barlow-condensed/files/barlow-condensed-latin-700-normal.woff',
  '@fontsource/bebas-neue/files/bebas-neue-latin-400-normal.woff',
] as const

const require = createRequire(import.meta.url)
const cache = new Map<string, Font>()

export function loadFont(spec: string): Font {
  let font = cache.get(spec)
  if (!font) {
    const buf = readFileSync(require.resolve(spec))
    font = opentype.parse(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer)
    cache.set(spec, font)
  }
  return font
}

/** The font size at which capitals are `capHeight` high. */
export function sizeForCapHeight(font: Font, capHeight: number): number {
  const cap = (font.tables.os2?.sCapHeight ?? font.unitsPerEm * 0.7) / font.unitsPerEm
  return capHeight / cap
}

export function advance(font: Font, text: string, size: number): number {
  let w = 0
  for (const c of text) w += ((font.charToGlyph(c).advanceWidth ?? 0) * size) / font.unitsPerEm
  return w
}

/**
 * SVG of `text` with its baseline's left end at (x, y), glyph by glyph (no shaping needed): each glyph's
 * outline is taken at the origin and moved with a transform (opentype.js yields NaN control points for
 * some glyphs drawn at an offset).
 */
export function textPath(font: Font, text: string, x: number, y: number, size: number): string {
  let svg = ''
  let cx = x
  for (const c of text) {
    const g = font.charToGlyph(c)
    const d = g.getPath(0, 0, size).toPathData(2)
    if (d && !d.includes('NaN'))
      svg += `<path transform="translate(${cx.toFixed(2)} ${y.toFixed(2)})" d="${d}"/>`
    cx += ((g.advanceWidth ?? 0) * size) / font.unitsPerEm
  }
  return svg
}

/**
 * `text` centred in the box (cx, baseline y), capitals `capHeight` high, squeezed horizontally to fit
 * `maxWidth`: an SVG <g> element.
 */
export function fittedText(
  font: Font,
  text: string,
  cx: number,
  baseline: number,
  capHeight: number,
  maxWidth: number,
  fill: string,
): { svg: string; width: number } {
  const size = sizeForCapHeight(font, capHeight)
  const natural = advance(font, text, size)
  const sx = Math.min(1, maxWidth / natural)
  const width = natural * sx
  const glyphs = textPath(font, text, 0, 0, size)
  const svg = `<g transform="translate(${(cx - width / 2).toFixed(2)} ${baseline.toFixed(2)}) scale(${sx.toFixed(4)} 1)" fill="${fill}">${glyphs}</g>`
  return { svg, width }
}
