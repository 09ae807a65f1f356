import type { Geometry, Position } from 'geojson'

/**
 * Well-known text (OGC / ISO, with PostGIS's `SRID=n;` prefix) to GeoJSON geometry and back, 2D.
 * Z and M ordinates are read and dropped; `EMPTY` gives an empty geometry. Returns null for text that
 * is not WKT, so callers can use it to detect geometry in result values.
 */

const TYPES = [
  'POINT',
  'LINESTRING',
  'POLYGON',
  'MULTIPOINT',
  'MULTILINESTRING',
  'MULTIPOLYGON',
  'GEOMETRYCOLLECTION',
] as const
type WktType = (typeof TYPES)[number]

class Reader {
  pos = 0
  constructor(readonly text: string) {}
  skip(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++
  }
  peek(): string {
    this.skip()
    return this.text[this.pos] ?? ''
  }
  take(ch: string): boolean {
    if (this.peek() !== ch) return false
    this.pos++
    return true
  }
  expect(ch: string): void {
    if (!this.take(ch)) throw new Error(`expected "${ch}" at ${this.pos}`)
  }
  word(): string {
    this.skip()
    const m = /^[A-Za-z]+/.exec(this.text.slice(this.pos))
    if (!m) return ''
    this.pos += m[0].length
    return m[0].toUpperCase()
  }
  number(): number | null {
    this.skip()
    const m = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/.exec(this.text.slice(this.pos))
    if (!m) return null
    this.pos += m[0].length
    return Number(m[0])
  }
}

function position(r: Reader): Position {
  const values: number[] = []
  for (let n = r.number(); n !== null; n = r.number()) values.push(n)
  if (values.length < 2 || values.length > 4) throw new Error(`bad position at ${r.pos}`)
  return [values[0]!, values[1]!]
}

function positions(r: Reader): Position[] {
  r.expect('(')
  const out: Position[] = []
  do {
    // MULTIPOINT ((1 2), (3 4)) and MULTIPOINT (1 2, 3 4) are both used.
    if (r.take('(')) {
      out.push(position(r))
      r.expect(')')
    } else out.push(position(r))
  } while (r.take(','))
  r.expect(')')
  return out
}

function rings(r: Reader): Position[][] {
  r.expect('(')
  const out: Position[][] = []
  do out.push(positions(r))
  while (r.take(','))
  r.expect(')')
  return out
}

function emptyOf(type: WktType): Geometry {
  switch (type) {
    case 'POINT':
      return { type: 'Point', coordinates: [] }
    case 'LINESTRING':
      return { type: 'LineString', coordinates: [] }
    case 'POLYGON':
      return { type: 'Polygon', coordinates: [] }
    case 'MULTIPOINT':
      return { type: 'MultiPoint', coordinates: [] }
    case 'MULTILINESTRING':
      return { type: 'MultiLineString', coordinates: [] }
    case 'MULTIPOLYGON':
      return { type: 'MultiPolygon', coordinates: [] }
    case 'GEOMETRYCOLLECTION':
      return { type: 'GeometryCollection', geometries: [] }
  }
}

function geometry(r: Reader): Geometry {
  const type = r.word() as WktType
  if (!TYPES.includes(type)) throw new Error(`unknown geometry type at ${r.pos}`)
  let dims = r.word()
  if (dims === 'EMPTY') return emptyOf(type)
  if (dims && !['Z', 'M', 'ZM'].includes(dims)) throw new Error(`unexpected "${dims}"`)
  if (dims) {
    const after = r.word()
    if (after === 'EMPTY') return emptyOf(type)
    dims = after
    if (dims) throw new Error(`unexpected "${dims}"`)
  }
  switch (type) {
    case 'POINT': {
      r.expect('(')
      const p = position(r)
      r.expect(')')
      return { type: 'Point', coordinates: p }
    }
    case 'LINESTRING':
      return { type: 'LineString', coordinates: positions(r) }
    case 'POLYGON':
      return { type: 'Polygon', coordinates: rings(r) }
    case 'MULTIPOINT':
      return { type: 'MultiPoint', coordinates: positions(r) }
    case 'MULTILINESTRING':
      return { type: 'MultiLineString', coordinates: rings(r) }
    case 'MULTIPOLYGON': {
      r.expect('(')
      const polys: Position[][][] = []
      do polys.push(rings(r))
      while (r.take(','))
      r.expect(')')
      return { type: 'MultiPolygon', coordinates: polys }
    }
    case 'GEOMETRYCOLLECTION': {
      r.expect('(')
      const geometries: Geometry[] = []
      do geometries.push(geometry(r))
      while (r.take(','))
      r.expect(')')
      return { type: 'GeometryCollection', geometries }
    }
  }
}

/** Parse WKT or EWKT; null when the text is not well-formed WKT. */
/** `POINT (x y)`, the commonest value of a large result, read without the general reader. */
const SIMPLE_POINT = /^POINT ?\( ?(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?) (-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?) ?\)$/

export function parseWkt(text: string): Geometry | null {
  const point = SIMPLE_POINT.exec(text)
  if (point) return { type: 'Point', coordinates: [Number(point[1]), Number(point[2])] }
  let body = text.trim()
  const srid = /^SRID=\d+;/i.exec(body)
  if (srid) body = body.slice(srid[0].length)
  if (!/^[A-Za-z]/.test(body)) return null
  const r = new Reader(body)
  try {
    const g = geometry(r)
    r.skip()
    return r.pos === body.length ? g : null
  } catch {
    return null
  }
}

const num = (n: number): string => String(n)
const pos = (p: Position): string => `${num(p[0]!)} ${num(p[1]!)}`
const list = (ps: Position[]): string => `(${ps.map(pos).join(', ')})`
const ringList = (rs: Position[][]): string => `(${rs.map(list).join(', ')})`

/** GeoJSON geometry to 2D WKT (`POINT (72.88 19.07)`); null geometry gives ''. */
export function toWkt(g: Geometry | null): string {
  if (!g) return ''
  switch (g.type) {
    case 'Point':
      return g.coordinates.length === 0 ? 'POINT EMPTY' : `POINT (${pos(g.coordinates)})`
    case 'LineString':
      return g.coordinates.length === 0 ? 'LINESTRING EMPTY' : `LINESTRING ${list(g.coordinates)}`
    case 'Polygon':
      return g.coordinates.length === 0 ? 'POLYGON EMPTY' : `POLYGON ${ringList(g.coordinates)}`
    case 'MultiPoint':
      return g.coordinates.length === 0 ? 'MULTIPOINT EMPTY' : `MULTIPOINT ${list(g.coordinates)}`
    case 'MultiLineString':
      return g.coordinates.length === 0
        ? 'MULTILINESTRING EMPTY'
        : `MULTILINESTRING ${ringList(g.coordinates)}`
    case 'MultiPolygon':
      return g.coordinates.length === 0
        ? 'MULTIPOLYGON EMPTY'
        : `MULTIPOLYGON (${g.coordinates.map(ringList).join(', ')})`
    case 'GeometryCollection':
      return g.geometries.length === 0
        ? 'GEOMETRYCOLLECTION EMPTY'
        : `GEOMETRYCOLLECTION (${g.geometries.map(toWkt).join(', ')})`
  }
}
