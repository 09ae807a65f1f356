declare module 'opentype.js' {
  interface Path {
    toPathData(decimals?: number): string
  }
  interface Glyph {
    advanceWidth?: number
    getPath(x: number, y: number, fontSize: number): Path
  }
  interface Font {
    unitsPerEm: number
    tables: { os2?: { sCapHeight?: number } }
    charToGlyph(c: string): Glyph
  }
  const opentype: { parse(buffer: ArrayBuffer): Font }
  export default opentype
  export type { Font, Glyph, Path }
}
