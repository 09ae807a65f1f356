import type { Geometry, Position } from 'geojson'

/**
 * Hex-encoded WKB (OGC/ISO) and PostGIS EWKB to GeoJSON geometry, 2D. Z/M ordinates (ISO 1000/2000/3000
 * codes or EWKB flag bits) are read and dropped; an EWKB SRID is skipped. Returns null for anything that
 * is not complete, well-formed hex WKB.
 */

const EWKB_Z = 0x80000000
const EWKB_M = 0x40000000
const EWKB_SRID = 0x20000000

class Cursor {
  offset = 0
  little = true
  constructor(readonly view: DataView) {}
  byte(): number {
    const v = this.view.getUint8(this.offset)
    this.offset += 1
    return v
  }
  uint32(): number {
    const v = this.view.getUint32(this.offset, this.little)
    this.offset += 4
    return v
  }
  float64(): number {
    const v = this.view.getFloat64(this.offset, this.little)
    this.offset += 8
    return v
  }
}

function read(c: Cursor, depth: number): Geometry {
  if (depth > 32) throw new Error('nesting too deep')
  const order = c.byte()
  if (order !== 0 && order !== 1) throw new Error('bad byte order')
  c.little = order === 1
  let code = c.uint32()
  let extra = 0
  if (code & EWKB_Z) extra++
  if (code & EWKB_M) extra++
  if (code & EWKB_SRID) c.uint32()
  code &= 0x0fffffff
  const iso = Math.floor(code / 1000)
  if (iso === 1 || iso === 2) extra++
  if (iso === 3) extra += 2
  const type = code % 1000
  const little = c.little
  const point = (): Position => {
    const x = c.float64()
    const y = c.float64()
    for (let i = 0; i < extra; i++) c.float64()
    return [x, y]
  }
  const points = (): Position[] => {
    const n = c.uint32()
    if (n * 16 > c.view.byteLength) throw new Error('count too large')
    return Array.from({ length: n }, point)
  }
  const ringsOf = (): Position[][] => {
    const n = c.uint32()
    if (n * 4 > c.view.byteLength) throw new Error('count too large')
    return Array.from({ length: n }, points)
  }
  const parts = (): Geometry[] => {
    const n = c.uint32()
    if (n * 5 > c.view.byteLength) throw new Error('count too large')
    return Array.from({ length: n }, () => {
      const g = read(c, depth + 1)
      c.little = little
      return g
    })
  }
  switch (type) {
    case 1: {
      const p = point()
      return { type: 'Point', coordinates: Number.isNaN(p[0]) && Number.isNaN(p[1]) ? [] : p }
    }
    case 2:
      return { type: 'LineString', coordinates: points() }
    case 3:
      return { type: 'Polygon', coordinates: ringsOf() }
    case 4:
      return {
        type: 'MultiPoint',
        coordinates: parts().flatMap((g) =>
          g.type === 'Point' && g.coordinates.length ? [g.coordinates] : [],
        ),
      }
    case 5:
      return {
        type: 'MultiLineString',
        coordinates: parts().flatMap((g) => (g.type === 'LineString' ? [g.coordinates] : [])),
      }
    case 6:
      return {
        type: 'MultiPolygon',
        coordinates: parts().flatMap((g) => (g.type === 'Polygon' ? [g.coordinates] : [])),
      }
    case 7:
      return { type: 'GeometryCollection', geometries: parts() }
    default:
      throw new Error(`unknown WKB type ${type}`)
  }
}

/** Parse hex WKB / EWKB (`0101000000…`, `0101000020E6100000…`); null when it is not. */
export function parseHexWkb(text: string): Geometry | null {
  const hex = text.trim()
  if (hex.length < 10 || hex.length % 2 !== 0 || !/^0[01][0-9A-Fa-f]+$/.test(hex)) return null
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  const cursor = new Cursor(new DataView(bytes.buffer))
  try {
    const g = read(cursor, 0)
    return cursor.offset === bytes.length ? g : null
  } catch {
    return null
  }
}
