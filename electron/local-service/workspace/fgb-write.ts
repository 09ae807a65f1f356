import type { Geometry, GeometryCollection } from 'geojson'
import * as flatbuffers from 'flatbuffers'
import type { ColumnMeta } from 'flatgeobuf/lib/mjs/column-meta.js'
import { ColumnType } from 'flatgeobuf/lib/mjs/flat-geobuf/column-type.js'
import { Feature } from 'flatgeobuf/lib/mjs/flat-geobuf/feature.js'
import { GeometryType } from 'flatgeobuf/lib/mjs/flat-geobuf/geometry-type.js'
import { buildGeometry } from 'flatgeobuf/lib/mjs/generic/geometry.js'
import { buildHeader } from 'flatgeobuf/lib/mjs/generic/featurecollection.js'
import { parseGeometry } from 'flatgeobuf/lib/mjs/geojson/geometry.js'
import type { HeaderMeta } from 'flatgeobuf/lib/mjs/header-meta.js'
import { coerce, type DatasetFeature, type FieldInfo, type FieldType } from './features'

/**
 * FlatGeobuf reading and writing with an explicit column schema (the library's own serializer guesses the
 * columns from the first feature only). A feature without geometry is stored as an empty
 * GeometryCollection and read back as null.
 */
const COLUMN_BY_FIELD: Record<FieldType, ColumnType> = {
  string: ColumnType.String,
  number: ColumnType.Double,
  boolean: ColumnType.Bool,
  json: ColumnType.Json,
}

const GEOMETRY_TYPE_BY_NAME: Record<string, GeometryType> = {
  Point: GeometryType.Point,
  MultiPoint: GeometryType.MultiPoint,
  LineString: GeometryType.LineString,
  MultiLineString: GeometryType.MultiLineString,
  Polygon: GeometryType.Polygon,
  MultiPolygon: GeometryType.MultiPolygon,
  GeometryCollection: GeometryType.GeometryCollection,
}

const EMPTY: GeometryCollection = { type: 'GeometryCollection', geometries: [] }

function column(field: FieldInfo): ColumnMeta {
  return {
    name: field.name,
    type: COLUMN_BY_FIELD[field.type],
    title: null,
    description: null,
    width: -1,
    precision: -1,
    scale: -1,
    nullable: true,
    unique: false,
    primary_key: false,
  }
}

/** One builder and one property buffer per thread, reused for every feature (a builder per feature was most of the writing time). */
const builder = new flatbuffers.Builder(1024)
let scratch = new Uint8Array(1024)
let scratchView = new DataView(scratch.buffer)
const utf8 = new TextEncoder()

function room(needed: number): void {
  if (needed <= scratch.length) return
  const grown = new Uint8Array(Math.max(needed, scratch.length * 2))
  grown.set(scratch)
  scratch = grown
  scratchView = new DataView(scratch.buffer)
}

/**
 * A feature as a size-prefixed FlatBuffer, laid out as the flatgeobuf library's `buildFeature` lays it
 * out (properties: column index, then the value; text as length and UTF-8), for the column types this
 * module writes. The result is a view into the shared builder: copy it before the next call.
 */
function encodeFeature(
  geometry: ReturnType<typeof parseGeometry> | null,
  values: readonly unknown[],
  fields: readonly FieldInfo[],
): Uint8Array {
  let at = 0
  values.forEach((value, i) => {
    if (value === null || value === undefined) return
    switch (fields[i]!.type) {
      case 'boolean':
        room(at + 3)
        scratchView.setUint16(at, i, true)
        scratchView.setUint8(at + 2, value ? 1 : 0)
        at += 3
        break
      case 'number':
        room(at + 10)
        scratchView.setUint16(at, i, true)
        scratchView.setFloat64(at + 2, value as number, true)
        at += 10
        break
      default: {
        const text = value as string
        room(at + 6 + text.length * 3)
        scratchView.setUint16(at, i, true)
        const { written } = utf8.encodeInto(text, scratch.subarray(at + 6))
        scratchView.setUint32(at + 2, written, true)
        at += 6 + written
      }
    }
  })
  builder.clear()
  const properties = at > 0 ? Feature.createPropertiesVector(builder, scratch.subarray(0, at)) : 0
  const geometryOffset = geometry ? buildGeometry(builder, geometry) : 0
  Feature.startFeature(builder)
  if (geometryOffset) Feature.addGeometry(builder, geometryOffset)
  if (properties) Feature.addProperties(builder, properties)
  builder.finishSizePrefixed(Feature.endFeature(builder))
  return builder.asUint8Array()
}

/**
 * A size-prefixed FlatBuffer grown to a multiple of 8 bytes (zeros at its end, the prefix updated), so the
 * next one starts 8-aligned: a feature without doubles (a null geometry) is only 4-aligned, and readers view
 * the doubles of the features after it in place.
 */
function padded(buffer: Uint8Array): Uint8Array {
  if (buffer.length % 8 === 0) return buffer
  const out = new Uint8Array(buffer.length + (8 - (buffer.length % 8)))
  out.set(buffer)
  new DataView(out.buffer).setUint32(0, out.length - 4, true)
  return out
}

/**
 * A geometry as the library's builder takes it. The library gives a MultiLineString `ends` only when it
 * has two parts or more; GDAL's reader refuses one without them ("MultiLineString ends data"), and stops
 * reading the file there.
 */
function parsed(g: Geometry): ReturnType<typeof parseGeometry> {
  if (g.type === 'GeometryCollection')
    return { type: GeometryType.GeometryCollection, parts: g.geometries.map(parsed) } as never
  const p = parseGeometry(g as never)
  if (g.type === 'MultiLineString' && !p.ends && g.coordinates.length === 1)
    p.ends = [g.coordinates[0]!.length]
  return p
}

/**
 * The features as a FlatGeobuf file (EPSG:4326, no index), declaring their geometry type when they share
 * one. A feature without geometry is stored as an empty GeometryCollection (how datasets store it), or,
 * with `withoutGeometry` (exports, for other readers), as a feature without a geometry, which GDAL reads
 * as null and which does not count for the declared type.
 */
export function writeFlatGeobuf(
  features: readonly DatasetFeature[],
  fields: readonly FieldInfo[],
  options: { withoutGeometry?: boolean } = {},
): Uint8Array {
  const absent = options.withoutGeometry === true
  let type: GeometryType | undefined
  for (const f of features) {
    if (absent && !f.geometry) continue
    type = widenGeometryType(type, f.geometry)
  }
  // Each feature is appended as it is built: a built feature is a view into its builder's buffer, and
  // keeping a million of those alive held a gigabyte.
  let out = new Uint8Array(1 << 16)
  let length = 0
  const append = (part: Uint8Array) => {
    if (length + part.length > out.length) {
      const grown = new Uint8Array(Math.max(out.length * 2, length + part.length))
      grown.set(out.subarray(0, length))
      out = grown
    }
    out.set(part, length)
    length += part.length
  }
  append(flatGeobufStart(type, fields, features.length))
  for (const f of features) append(encodeDatasetFeature(f, fields, absent))
  return out.slice(0, length)
}

/**
 * The geometry type a file declares once it also holds a feature with this geometry (none stored as an
 * empty GeometryCollection): the same type, else Unknown. `undefined` before the first feature.
 */
export function widenGeometryType(type: GeometryType | undefined, geometry: Geometry | null): GeometryType {
  const t = GEOMETRY_TYPE_BY_NAME[(geometry ?? EMPTY).type] ?? GeometryType.Unknown
  return type === undefined || type === t ? t : GeometryType.Unknown
}

/** The magic bytes and header of a FlatGeobuf file (EPSG:4326, no index) of `count` features. */
export function flatGeobufStart(
  type: GeometryType | undefined,
  fields: readonly FieldInfo[],
  count: number,
): Uint8Array {
  const header: HeaderMeta = {
    geometryType: type ?? GeometryType.Unknown,
    columns: fields.length > 0 ? fields.map(column) : null,
    envelope: null,
    featuresCount: count,
    indexNodeSize: 0,
    crs: { code: 4326, org: 'EPSG', name: 'WGS 84', description: null, wkt: null, code_string: null },
    title: null,
    description: null,
    metadata: null,
  }
  const start = padded(buildHeader(header, 4326))
  const out = new Uint8Array(8 + start.length)
  out.set([0x66, 0x67, 0x62, 0x03, 0x66, 0x67, 0x62, 0x00])
  out.set(start, 8)
  return out
}

/**
 * A 2D point feature whose values are given by position, already fitting `fields` (numbers, texts, null):
 * the bytes `encodeDatasetFeature` gives for the same feature. A view into a shared builder (copy it).
 */
export function encodePointFeature(
  x: number,
  y: number,
  values: readonly unknown[],
  fields: readonly FieldInfo[],
): Uint8Array {
  return padded(encodeFeature({ type: GeometryType.Point, xy: [x, y] } as never, values, fields))
}

/**
 * One feature as `writeFlatGeobuf` writes it (padded to 8 bytes). The result may be a view into a shared
 * builder: copy it before the next call.
 */
export function encodeDatasetFeature(
  f: DatasetFeature,
  fields: readonly FieldInfo[],
  withoutGeometry = false,
): Uint8Array {
  // Values by position, never through an object keyed by field name: a field may be named `__proto__`.
  const values = fields.map((field) => {
    const v = coerce(Object.hasOwn(f.properties, field.name) ? f.properties[field.name] : null, field.type)
    return field.type === 'json' && v !== null ? JSON.stringify(v) : v
  })
  const g = f.geometry ?? (withoutGeometry ? null : EMPTY)
  return padded(encodeFeature(g && parsed(g), values, fields))
}
