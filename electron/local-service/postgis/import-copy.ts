import type { Geometry, Position } from 'geojson'
import { coerce, type DatasetFeature, type FieldInfo, type FieldType } from '../workspace/features'
import { ImportError } from '../import/crs'

/**
 * The rows of an import as `COPY … FROM STDIN` text (PostgreSQL's text format: tab-separated, `\N` for
 * NULL, backslash escapes): each field in the column type of its field type, the geometry as hex EWKB with
 * SRID 4326 (exact: the doubles as they are, no text rounding).
 */

/** The column type of a field type. */
export const COLUMN_TYPES: Record<FieldType, string> = {
  string: 'text',
  number: 'double precision',
  boolean: 'boolean',
  json: 'jsonb',
}

const WKB_TYPES: Record<Geometry['type'], number> = {
  Point: 1,
  LineString: 2,
  Polygon: 3,
  MultiPoint: 4,
  MultiLineString: 5,
  MultiPolygon: 6,
  GeometryCollection: 7,
}
const EWKB_Z = 0x80000000
const EWKB_SRID = 0x20000000

/** Little-endian EWKB written into a growing buffer. */
class WkbWriter {
  private buf = Buffer.allocUnsafe(256)
  length = 0

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.length + n))
    this.buf.copy(grown, 0, 0, this.length)
    this.buf = grown
  }
  byte(b: number): void {
    this.room(1)
    this.buf[this.length++] = b
  }
  uint(n: number): void {
    this.room(4)
    this.buf.writeUInt32LE(n >>> 0, this.length)
    this.length += 4
  }
  double(d: number): void {
    this.room(8)
    this.buf.writeDoubleLE(d, this.length)
    this.length += 8
  }
  hex(): string {
    return this.buf.toString('hex', 0, this.length)
  }
  reset(): void {
    this.length = 0
  }
}

/** Whether every position of the geometry has a third coordinate (then it is written with Z). */
function hasZ(g: Geometry): boolean {
  let all = true
  let any = false
  const visit = (p: Position) => {
    any = true
    if (p.length < 3) all = false
  }
  const walk = (g: Geometry): void => {
    switch (g.type) {
      case 'Point':
        return visit(g.coordinates)
      case 'MultiPoint':
      case 'LineString':
        return g.coordinates.forEach(visit)
      case 'MultiLineString':
      case 'Polygon':
        return g.coordinates.forEach((r) => r.forEach(visit))
      case 'MultiPolygon':
        return g.coordinates.forEach((p) => p.forEach((r) => r.forEach(visit)))
      case 'GeometryCollection':
        return g.geometries.forEach(walk)
    }
  }
  walk(g)
  return any && all
}

function writeGeometry(w: WkbWriter, g: Geometry, z: boolean, srid: boolean): void {
  w.byte(1)
  w.uint(WKB_TYPES[g.type] | (z ? EWKB_Z : 0) | (srid ? EWKB_SRID : 0))
  if (srid) w.uint(4326)
  const pos = (p: Position) => {
    w.double(p[0]!)
    w.double(p[1]!)
    if (z) w.double(p[2]!)
  }
  const points = (ps: Position[]) => {
    w.uint(ps.length)
    ps.forEach(pos)
  }
  switch (g.type) {
    case 'Point':
      // An empty point is NaN NaN in WKB.
      if (g.coordinates.length === 0) {
        w.double(NaN)
        w.double(NaN)
        if (z) w.double(NaN)
      } else pos(g.coordinates)
      return
    case 'LineString':
    case 'MultiPoint':
      if (g.type === 'LineString') return points(g.coordinates)
      w.uint(g.coordinates.length)
      for (const p of g.coordinates) writeGeometry(w, { type: 'Point', coordinates: p }, z, false)
      return
    case 'Polygon':
      w.uint(g.coordinates.length)
      g.coordinates.forEach(points)
      return
    case 'MultiLineString':
      w.uint(g.coordinates.length)
      for (const l of g.coordinates) writeGeometry(w, { type: 'LineString', coordinates: l }, z, false)
      return
    case 'MultiPolygon':
      w.uint(g.coordinates.length)
      for (const p of g.coordinates) writeGeometry(w, { type: 'Polygon', coordinates: p }, z, false)
      return
    case 'GeometryCollection':
      w.uint(g.geometries.length)
      for (const part of g.geometries) writeGeometry(w, part, z, false)
  }
}

const wkb = new WkbWriter()

/** A geometry as hex EWKB with SRID 4326 (with Z when every position has a third coordinate). */
export function ewkbHex(g: Geometry): string {
  wkb.reset()
  writeGeometry(wkb, g, hasZ(g), true)
  return wkb.hex()
}

/** A text as a field of COPY's text format: backslash, tab, newline and carriage return escaped. */
function copyText(text: string, field: string): string {
  if (text.includes('\0'))
    throw new ImportError(
      `field "${field.slice(0, 80)}" holds a NUL character, which PostgreSQL text cannot hold`,
    )
  return /[\\\t\n\r]/.test(text)
    ? text.replace(/[\\\t\n\r]/g, (c) =>
        c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
      )
    : text
}

function copyValue(value: unknown, field: FieldInfo): string {
  const v = coerce(value, field.type)
  if (v === null || v === undefined) return '\\N'
  switch (field.type) {
    case 'number':
      return typeof v === 'number' ? String(v) : copyText(String(v), field.name)
    case 'boolean':
      return v === true ? 't' : v === false ? 'f' : copyText(String(v), field.name)
    case 'json':
      return copyText(JSON.stringify(v), field.name)
    case 'string':
      return copyText(v as string, field.name)
  }
}

/** One feature as a line of COPY text: its fields in order, then the geometry. */
export function copyLine(f: DatasetFeature, fields: readonly FieldInfo[]): string {
  let line = ''
  for (const field of fields) line += copyValue(f.properties[field.name], field) + '\t'
  return line + (f.geometry ? ewkbHex(f.geometry) : '\\N') + '\n'
}
