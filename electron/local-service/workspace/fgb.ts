import type { Geometry, GeometryCollection } from 'geojson'
import * as flatbuffers from 'flatbuffers'
import type { ColumnMeta } from 'flatgeobuf/lib/mjs/column-meta.js'
import { ColumnType } from 'flatgeobuf/lib/mjs/flat-geobuf/column-type.js'
import { Feature } from 'flatgeobuf/lib/mjs/flat-geobuf/feature.js'
import { Geometry as FgbGeometry } from 'flatgeobuf/lib/mjs/flat-geobuf/geometry.js'
import { GeometryType } from 'flatgeobuf/lib/mjs/flat-geobuf/geometry-type.js'
import { parseProperties } from 'flatgeobuf/lib/mjs/generic/feature.js'
import { buildGeometry } from 'flatgeobuf/lib/mjs/generic/geometry.js'
import { buildHeader } from 'flatgeobuf/lib/mjs/generic/featurecollection.js'
import { fromFeature } from 'flatgeobuf/lib/mjs/geojson/feature.js'
import { parseGeometry } from 'flatgeobuf/lib/mjs/geojson/geometry.js'
import { fromByteBuffer as headerFromByteBuffer, type HeaderMeta } from 'flatgeobuf/lib/mjs/header-meta.js'
import { NODE_ITEM_BYTE_LEN } from 'flatgeobuf/lib/mjs/packedrtree.js'
import { coerce, type DatasetFeature, type FieldInfo, type FieldType } from './features'
import { PointColumns, type PointColumn } from './point-columns'
import { decodeText, TextColumnBuilder } from './text-column'
import { checkSizePrefixed, FEATURE, FlatBufferError, HEADER } from './flatbuffer-check'

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

/** A feature as read back: its geometry and properties, or why it could not be decoded. */
export interface FgbFeature {
  geometry: Geometry | null
  properties: Record<string, unknown>
  problem?: string
}

export class FlatGeobufError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FlatGeobufError'
  }
}

const MAGIC = [0x66, 0x67, 0x62, 0x03, 0x66, 0x67, 0x62]
/** The smallest a size-prefixed feature can be: length, root offset, vtable offset, an empty vtable. */
const MIN_FEATURE_BYTES = 12

/** Bytes of a packed Hilbert R-tree over `count` items with `nodeSize` children per node; bounded loop. */
function indexBytes(count: number, nodeSize: number): number {
  let n = count
  let nodes = n
  while (n > 1) {
    n = Math.ceil(n / nodeSize)
    nodes += n
  }
  return nodes * NODE_ITEM_BYTE_LEN
}

function fieldType(type: ColumnType): FieldType {
  if (type === ColumnType.Bool) return 'boolean'
  if (type === ColumnType.Json) return 'json'
  if (type === ColumnType.String || type === ColumnType.DateTime || type === ColumnType.Binary)
    return 'string'
  return 'number'
}

/**
 * Text of `n` bytes from `from`, cut at `end`: when all ASCII, its bytes as characters (Latin-1 gives the
 * same), else UTF-8 (`decodeText`).
 */
const textAt = (bytes: Uint8Array, text: Buffer, end: number, from: number, n: number): string =>
  decodeText(bytes, from, Math.min(end, from + n), text)

/** What `readPropertyValues` leaves in `values` for a text value it did not decode (see `spans`). */
const TEXT = Symbol('text')

/**
 * The properties of a feature by column index, read as the flatgeobuf library's `parseProperties` reads
 * them (same types, same bounds: numbers may be read past the vector up to the file's end, text is cut at
 * the vector's end), without its per-feature views and object: `values` gets the value of each column the
 * feature has (others left as they are). Text that is all ASCII is read as Latin-1 (the same characters;
 * no BOM can start it), any other through the same TextDecoder. With `spans`, a text (or date) value is not
 * decoded: its value is `TEXT`, and `spans[2 * i]`, `spans[2 * i + 1]` where its bytes start and end (the end
 * cut at the vector's end, never before the start). Returns where the last value ended: past the vector's
 * end when a value ran over it.
 */
function readPropertyValues(
  bytes: Uint8Array,
  text: Buffer,
  view: DataView,
  start: number,
  length: number,
  columns: readonly ColumnMeta[],
  values: unknown[],
  spans?: Float64Array,
): number {
  const end = start + length
  let at = start
  while (at < end) {
    const i = view.getUint16(at, true)
    at += 2
    const column = columns[i]
    if (!column) throw new TypeError(`Cannot read properties of undefined (reading 'name')`)
    switch (column.type) {
      case ColumnType.Bool:
        values[i] = !!view.getUint8(at)
        at += 1
        break
      case ColumnType.Byte:
        values[i] = view.getInt8(at)
        at += 1
        break
      case ColumnType.UByte:
        values[i] = view.getUint8(at)
        at += 1
        break
      case ColumnType.Short:
        values[i] = view.getInt16(at, true)
        at += 2
        break
      case ColumnType.UShort:
        values[i] = view.getUint16(at, true)
        at += 2
        break
      case ColumnType.Int:
        values[i] = view.getInt32(at, true)
        at += 4
        break
      case ColumnType.UInt:
        values[i] = view.getUint32(at, true)
        at += 4
        break
      case ColumnType.Long:
        values[i] = Number(view.getBigInt64(at, true))
        at += 8
        break
      case ColumnType.ULong:
        values[i] = Number(view.getBigUint64(at, true))
        at += 8
        break
      case ColumnType.Float:
        values[i] = view.getFloat32(at, true)
        at += 4
        break
      case ColumnType.Double:
        values[i] = view.getFloat64(at, true)
        at += 8
        break
      case ColumnType.DateTime:
      case ColumnType.String: {
        const n = view.getUint32(at, true)
        at += 4
        if (spans) {
          values[i] = TEXT
          spans[2 * i] = at
          spans[2 * i + 1] = Math.max(at, Math.min(end, at + n))
        } else values[i] = textAt(bytes, text, end, at, n)
        at += n
        break
      }
      case ColumnType.Json: {
        const n = view.getUint32(at, true)
        at += 4
        values[i] = JSON.parse(textAt(bytes, text, end, at, n))
        at += n
        break
      }
      case ColumnType.Binary: {
        const n = view.getUint32(at, true)
        at += 4
        values[i] = bytes.subarray(at, Math.min(end, at + n))
        at += n
        break
      }
      default:
        throw new Error(`Unknown type ${column.type}`)
    }
  }
  return at
}

/**
 * A feature's properties object with every field as an own key set to null, `__proto__` included (the
 * object has no prototype, so no key is special to it). Spread it (`{ ...template }`) for each feature:
 * the copy's keys are its own data properties, so assigning one by name never reaches `Object.prototype`.
 */
function fieldTemplate(fields: readonly FieldInfo[]): Record<string, unknown> {
  const template = Object.create(null) as Record<string, unknown>
  for (const f of fields) template[f.name] = null
  return template
}

/** A feature's property values by column index (null where it has none), read by `readPropertyValues`. */
function propertyValuesOf(
  feature: Feature,
  bb: flatbuffers.ByteBuffer,
  bytes: Uint8Array,
  view: DataView,
  columns: readonly ColumnMeta[],
): unknown[] {
  const values = new Array<unknown>(columns.length).fill(null)
  const vector = bb.__offset(feature.bb_pos, 6)
  if (vector) {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    const start = bb.__vector(feature.bb_pos + vector)
    readPropertyValues(bytes, text, view, start, bb.__vector_len(feature.bb_pos + vector), columns, values)
  }
  return values
}

/**
 * The table that the offset at `ref` refers to, when it and its vtable are sound as the general check has
 * them: the offset unsigned, forward and at most 2^31 - 1; the vtable even, of at least `minVtable` bytes,
 * and it and the table's declared size inside `base..end`. Its position, or -1.
 */
function tableAt(view: DataView, ref: number, base: number, end: number, minVtable: number): number {
  const offset = view.getUint32(ref, true)
  if (offset === 0 || offset > 0x7fffffff || ref + offset + 4 > end) return -1
  const table = ref + offset
  const vtable = table - view.getInt32(table, true)
  if (vtable < base || vtable + 4 > end || vtable % 2 !== 0) return -1
  const vtableSize = view.getInt16(vtable, true)
  const tableSize = view.getInt16(vtable + 2, true)
  if (vtableSize < minVtable || vtableSize % 2 !== 0 || vtable + vtableSize > end) return -1
  if (tableSize < 4 || table + tableSize > end) return -1
  return table
}

/**
 * Reads a 2D point feature at the ByteBuffer's position straight from its coordinates and its properties by
 * column index, with one Feature and one Geometry reader for every feature: what the library's
 * `fromFeature` and the reader's property loop give, without their views and intermediate objects.
 * `read` returns undefined, having read nothing, for any other feature.
 */
class PointReader {
  private readonly feature = new Feature()
  private readonly geometry = new FgbGeometry()
  private readonly text: Buffer
  /** The last point's values by column: `TEXT` for a text whose bytes `spans` locates (see `value`). */
  readonly values: unknown[]
  readonly spans: Float64Array
  /** The properties object of a feature with every field in order, each feature's a copy of it. */
  private readonly template: Record<string, unknown>
  /** Whether any field is JSON (its text parsed once more, as the feature path does). */
  private readonly json: boolean

  constructor(
    private readonly bytes: Uint8Array,
    private readonly view: DataView,
    private readonly bb: flatbuffers.ByteBuffer,
    private readonly headerType: GeometryType,
    private readonly columns: readonly ColumnMeta[],
    private readonly fields: readonly FieldInfo[],
  ) {
    this.text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    this.values = new Array<unknown>(columns.length)
    this.spans = new Float64Array(2 * columns.length)
    this.template = fieldTemplate(fields)
    this.json = fields.some((f) => f.type === 'json')
  }

  /**
   * Check and decode in one pass the size-prefixed feature at `at` (8-aligned), the bytes up to `limit`
   * being the file's, when it is laid out as a 2D point usually is: a feature table with a geometry and
   * perhaps properties, no columns; a geometry table with two coordinates and perhaps a type, nothing else.
   * Returns the feature's end with `x`, `y` and `values` set, what `checkSizePrefixed` then `decode` would
   * give; or -1, having decided nothing, for any other feature or any doubt (an offset out of place, a
   * value running past its vector, content that does not decode), which then takes the general check and
   * path: they give the answer, or the error, every feature gets.
   *
   * The conditions are the general check's for the fields met (each offset inside the feature, forward,
   * vtables even and inside, tables within their declared size, the coordinates 8-aligned), so only
   * features that check would pass are read here. Without that check's walk over a schema and the
   * library's Feature and Geometry readers, 1,000,000 points decode in about 400 ms instead of 650 (warm).
   */
  fast(at: number, limit: number): number {
    const view = this.view
    if (at + 8 > limit) return -1
    const length = view.getUint32(at, true)
    const base = at + 4
    const end = base + length
    if (length < 4 || end > limit) return -1
    // The feature table.
    const root = tableAt(view, base, base, end, 6)
    if (root < 0) return -1
    const vtable = root - view.getInt32(root, true)
    const vtableSize = view.getInt16(vtable, true)
    const tableSize = view.getInt16(vtable + 2, true)
    // Slot 0, the geometry (a table); slot 1, the properties (bytes); slot 2, per-feature columns (none).
    const geometryField = view.getInt16(vtable + 4, true)
    if (geometryField < 4 || geometryField + 4 > tableSize) return -1
    const propertiesField = vtableSize >= 8 ? view.getInt16(vtable + 6, true) : 0
    if (propertiesField !== 0 && (propertiesField < 4 || propertiesField + 4 > tableSize)) return -1
    if (vtableSize >= 10 && view.getInt16(vtable + 8, true) !== 0) return -1
    // The geometry table.
    const g = tableAt(view, root + geometryField, base, end, 8)
    if (g < 0) return -1
    const gVtable = g - view.getInt32(g, true)
    const gVtableSize = view.getInt16(gVtable, true)
    const gTableSize = view.getInt16(gVtable + 2, true)
    // Slots: 0 ends, 1 xy, 2 z, 3 m, 4 t, 5 tm, 6 type, 7 parts; only xy and type may be there.
    const gSlots = (gVtableSize - 4) >> 1
    if (view.getInt16(gVtable + 4, true) !== 0) return -1
    const xyField = view.getInt16(gVtable + 6, true)
    if (xyField < 4 || xyField + 4 > gTableSize) return -1
    for (let slot = 2; slot < 6 && slot < gSlots; slot++)
      if (view.getInt16(gVtable + 4 + slot * 2, true) !== 0) return -1
    const typeField = gSlots > 6 ? view.getInt16(gVtable + 16, true) : 0
    if (typeField !== 0 && (typeField < 4 || typeField + 1 > gTableSize)) return -1
    if (gSlots > 7 && view.getInt16(gVtable + 18, true) !== 0) return -1
    const type =
      this.headerType === GeometryType.Unknown
        ? typeField === 0
          ? GeometryType.Unknown
          : view.getUint8(g + typeField)
        : this.headerType
    if (type !== GeometryType.Point) return -1
    // The coordinates: a vector of two doubles, 8-aligned.
    const xyAt = g + xyField
    const xyOffset = view.getUint32(xyAt, true)
    if (xyOffset === 0 || xyOffset > 0x7fffffff || xyAt + xyOffset + 4 > end) return -1
    const xy = xyAt + xyOffset + 4
    if (view.getUint32(xy - 4, true) !== 2 || xy + 16 > end || (this.bytes.byteOffset + xy) % 8 !== 0)
      return -1
    // The properties: a vector of bytes inside the feature, each value read within it.
    let start = 0
    let count = 0
    if (propertiesField !== 0) {
      const propertiesAt = root + propertiesField
      const propertiesOffset = view.getUint32(propertiesAt, true)
      if (
        propertiesOffset === 0 ||
        propertiesOffset > 0x7fffffff ||
        propertiesAt + propertiesOffset + 4 > end
      )
        return -1
      start = propertiesAt + propertiesOffset + 4
      count = view.getUint32(start - 4, true)
      if (count > 0x7fffffff || start + count > end) return -1
    }
    const values = this.values
    const fields = this.fields
    // A loop, not `fill`: a builtin call per feature cost more than the two or three stores (~55 ms a
    // million points).
    for (let k = 0; k < values.length; k++) values[k] = null
    if (count > 0 && fields.length > 0) {
      try {
        if (
          readPropertyValues(this.bytes, this.text, view, start, count, this.columns, values, this.spans) >
          start + count
        )
          return -1
      } catch {
        return -1
      }
      this.parseJson()
    }
    this.x = view.getFloat64(xy, true)
    this.y = view.getFloat64(xy + 8, true)
    return end
  }

  /** The values of json fields parsed from their text (a text that is not JSON kept as it is). */
  private parseJson(): void {
    if (!this.json) return
    const fields = this.fields
    const values = this.values
    for (let k = 0; k < fields.length; k++) {
      const v = values[k]
      if (fields[k]!.type === 'json' && typeof v === 'string') {
        try {
          values[k] = JSON.parse(v)
        } catch {
          /* keep the text */
        }
      }
    }
  }

  /** The last point's coordinates and its values by field (`decode`'s answer 1), or why it failed (2). */
  x = 0
  y = 0
  problem = ''

  /**
   * Decode the feature at the ByteBuffer's position: 0 when it is not a 2D point (nothing read), 1 when it
   * is (`x`, `y` and `values`, one per field, set), 2 when its properties could not be decoded (`problem`).
   */
  decode(): 0 | 1 | 2 {
    const bb = this.bb
    const feature = Feature.getSizePrefixedRootAsFeature(bb, this.feature)
    const g = feature.geometry(this.geometry)
    if (!g) return 0
    const type = this.headerType === GeometryType.Unknown ? g.type() : this.headerType
    if (type !== GeometryType.Point || g.xyLength() !== 2 || bb.__offset(g.bb_pos, 8) !== 0) return 0
    this.x = g.xy(0)!
    this.y = g.xy(1)!
    const fields = this.fields
    const values = this.values
    try {
      for (let k = 0; k < values.length; k++) values[k] = null
      const vector = bb.__offset(feature.bb_pos, 6)
      if (vector && fields.length > 0) {
        const start = bb.__vector(feature.bb_pos + vector)
        const length = bb.__vector_len(feature.bb_pos + vector)
        readPropertyValues(this.bytes, this.text, this.view, start, length, this.columns, values, this.spans)
      }
      this.parseJson()
    } catch (error) {
      this.problem = `its content could not be decoded (${(error as Error).message.slice(0, 80)})`
      return 2
    }
    return 1
  }

  read(): FgbFeature | undefined {
    const decoded = this.decode()
    if (decoded === 0) return undefined
    if (decoded === 2) return { geometry: null, properties: {}, problem: this.problem }
    return this.point()
  }

  /** The last point's value of column `k`, a text decoded. */
  value(k: number): unknown {
    const v = this.values[k]
    return v === TEXT ? decodeText(this.bytes, this.spans[2 * k]!, this.spans[2 * k + 1]!, this.text) : v
  }

  /** Appends the last point's value of text column `k` to `column`. */
  addText(k: number, column: TextColumnBuilder): void {
    if (this.values[k] === TEXT) column.add(this.bytes, this.spans[2 * k]!, this.spans[2 * k + 1]!)
    else column.addNull()
  }

  /** The last point decoded as a feature object. */
  point(): FgbFeature {
    const fields = this.fields
    const properties = { ...this.template }
    for (let k = 0; k < fields.length; k++) properties[fields[k]!.name] = this.value(k)
    return { geometry: { type: 'Point', coordinates: [this.x, this.y] }, properties }
  }
}

/** Points decoded column-wise so far (see `readFlatGeobufTable`). */
class PointSink {
  n = 0
  xs: Float64Array
  ys: Float64Array
  /** Per column, its values so far: a text column's as bytes, any other's in an array. */
  private readonly values: Array<unknown[] | undefined>
  private readonly texts: Array<TextColumnBuilder | undefined>

  /**
   * Room for `declared` points (the header's count) when that takes at most twice the bytes `bytes` (the
   * file's features) hold, so a false count cannot make it allocate more; else it grows as points come.
   */
  constructor(declared: number, columns: readonly ColumnMeta[], bytes: number) {
    const fields = columns.length
    const capacity = declared * (16 + 8 * fields) <= 2 * bytes ? declared : 0
    this.xs = new Float64Array(Math.max(16, capacity))
    this.ys = new Float64Array(Math.max(16, capacity))
    const text = columns.map((c) => c.type === ColumnType.String || c.type === ColumnType.DateTime)
    // Made at their length and filled in place: faster than growing them item by item.
    this.values = text.map((t) => (t ? undefined : new Array<unknown>(capacity)))
    this.texts = text.map((t) => (t ? new TextColumnBuilder(capacity, capacity * 8) : undefined))
  }

  add(reader: PointReader): void {
    if (this.n === this.xs.length) {
      const xs = new Float64Array(this.n * 2)
      const ys = new Float64Array(this.n * 2)
      xs.set(this.xs)
      ys.set(this.ys)
      this.xs = xs
      this.ys = ys
    }
    this.xs[this.n] = reader.x
    this.ys[this.n] = reader.y
    const values = this.values
    const n = this.n
    for (let k = 0; k < values.length; k++) {
      const column = values[k]
      if (column) column[n] = reader.values[k]
      else reader.addText(k, this.texts[k]!)
    }
    this.n = n + 1
  }

  columns(fields: readonly FieldInfo[]): PointColumns {
    const n = this.n
    const xs = n === this.xs.length ? this.xs : this.xs.slice(0, n)
    const ys = n === this.ys.length ? this.ys : this.ys.slice(0, n)
    const columns = this.values.map((column, k): PointColumn => {
      if (!column) return this.texts[k]!.finish()
      column.length = n
      return column
    })
    return new PointColumns(xs, ys, fields, columns)
  }
}

/**
 * Read a FlatGeobuf file, trusting nothing it declares: the magic bytes and version, the header's and each
 * feature's FlatBuffers structure (checked before the library reads it), the index size against the bytes
 * that remain, the declared feature count against what the bytes can hold and against what was found.
 * Structural damage throws FlatGeobufError; a feature whose content cannot be decoded carries `problem`.
 * Work is linear in the file's size whatever it holds. `fast` false reads every feature the general way,
 * not points the direct way first (the same answer; tests compare the two).
 */
export function readFlatGeobuf(
  input: Uint8Array,
  fast = true,
): {
  features: FgbFeature[]
  fields: FieldInfo[]
  crs?: number
} {
  const read = decodeFlatGeobuf(input, false, fast)
  return { features: read.features!, fields: read.fields, crs: read.crs }
}

/**
 * `readFlatGeobuf`; with `columnar`, a file of 2D points (every feature one, decoded without a problem, the
 * fields' names distinct) is read as `PointColumns` instead of a feature list: `points.features()` is then
 * what `features` would have been. Any other file gives `features`, as `readFlatGeobuf` does.
 */
export function readFlatGeobufTable(input: Uint8Array, columnar = true, fast = true): TableRead {
  const read = decodeFlatGeobuf(input, columnar, fast)
  return read.points
    ? { points: read.points, fields: read.fields, crs: read.crs }
    : { features: read.features!, fields: read.fields, crs: read.crs }
}

export type TableRead = { fields: FieldInfo[]; crs?: number } & (
  { points: PointColumns; features?: undefined } | { features: FgbFeature[]; points?: undefined }
)

/** Where the bytes of a file read piecewise come from (a file descriptor, in the workspace). */
export interface ByteSource {
  /** The file's length in bytes. */
  readonly size: number
  /** Read up to `length` bytes at file position `position` into `into` from `at`; the count read, 0 at the end. */
  read(into: Uint8Array, at: number, length: number, position: number): number
}

/** Read from `position` into `into` from `at` until it is full or the file ends; how far `into` is filled. */
function fill(source: ByteSource, into: Uint8Array, at: number, position: number): number {
  while (at < into.length) {
    const n = source.read(into, at, into.length - at, position)
    if (n <= 0) break
    at += n
    position += n
  }
  return at
}

/** The whole file, as read (shorter than `size` if it shrank meanwhile). */
function readAll(source: ByteSource): Uint8Array {
  const bytes = new Uint8Array(source.size)
  const n = fill(source, bytes, 0, 0)
  return n === bytes.length ? bytes : bytes.subarray(0, n)
}

/**
 * Bytes of the buffer a file is read through piecewise: small enough to stay in the processor's cache, and
 * reused, as the pages of a fresh buffer the size of the file cost more to touch than reading the file
 * does (368 ms against 15 ms for 112 MB, 1,000,000 points). A feature larger than this takes the
 * whole-file path.
 */
const CHUNK_BYTES = 1 << 20
let chunk: Uint8Array | undefined

/**
 * `readFlatGeobufTable` of a file read piecewise: a file of 2D points whose every feature the direct path
 * reads (`PointReader.fast`) is decoded from one reused buffer, a chunk at a time, without the file's bytes
 * in memory at once (nor its index's, which no point read needs). At the first feature that is anything
 * else (a polygon, a point with z, one misaligned, damaged, truncated or larger than a chunk), or a count
 * that does not match the header's, it reads the whole file and decodes that as `readFlatGeobufTable`
 * does: the same answer, and the same error, as reading it whole. `chunkBytes` is for tests.
 */
export function readFlatGeobufTableFrom(source: ByteSource, chunkBytes = CHUNK_BYTES): TableRead {
  const whole = () => readFlatGeobufTable(readAll(source), true)
  const size = source.size
  if (size <= chunkBytes) return whole()
  const buffer =
    chunkBytes === CHUNK_BYTES ? (chunk ??= new Uint8Array(CHUNK_BYTES)) : new Uint8Array(chunkBytes)
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength)
  let filled = fill(source, buffer, 0, 0)
  let head: HeaderRead
  try {
    head = readHeader(buffer.subarray(0, filled), view, size)
  } catch {
    // The header is damaged or larger than a chunk: the whole-file path names what is wrong.
    return whole()
  }
  const { header, columns, fields, declared } = head
  if (
    !pointReadable(columns) ||
    !columnReadable(fields) ||
    // Binary values are views of the bytes they were read from: the file's, not a reused buffer's.
    columns.some((c) => c.type === ColumnType.Binary)
  )
    return whole()
  const reader = new PointReader(
    buffer,
    view,
    new flatbuffers.ByteBuffer(buffer),
    header.geometryType,
    columns,
    fields,
  )
  const sink = new PointSink(declared, columns, size - head.offset)
  /** The file position of the buffer's first byte, a multiple of 8 (so positions in both align alike). */
  let base = 0
  let at = head.offset
  while (at < size) {
    if (at % 8 !== 0) return whole()
    let p = at - base
    if (p + 4 > filled || p + 4 + view.getUint32(p, true) > filled) {
      // The feature runs past the bytes read: unless the file ends in it (truncated), move what was read
      // of it to the buffer's start and read on (the first feature may start past them, after an index).
      if (base + filled >= size) return whole()
      buffer.copyWithin(0, p, filled)
      filled = Math.max(0, filled - p)
      base = at
      p = 0
      filled = fill(source, buffer, filled, base + filled)
      if (4 > filled || 4 + view.getUint32(0, true) > filled) return whole()
    }
    const next = reader.fast(p, filled)
    if (next < 0) return whole()
    sink.add(reader)
    at += next - p
  }
  if (declared > 0 && sink.n !== declared) return whole()
  return { points: sink.columns(fields), fields, crs: header.crs?.code || undefined }
}

/** A file's header as read and checked, and where its features start (past any index). */
interface HeaderRead {
  header: HeaderMeta
  columns: ColumnMeta[]
  fields: FieldInfo[]
  declared: number
  /** The first feature's offset. */
  offset: number
}

/**
 * Check and read the header at the start of `bytes` (8-aligned), of a file `total` bytes long: its magic
 * bytes, structure and content, its feature count against what the file can hold and its index's size
 * against what remains. Throws FlatGeobufError naming what is wrong.
 */
function readHeader(bytes: Uint8Array, view: DataView, total: number): HeaderRead {
  if (bytes.length < 12 || MAGIC.some((b, i) => bytes[i] !== b)) {
    if (bytes[0] === 0x66 && bytes[1] === 0x67 && bytes[2] === 0x62 && bytes[3] !== 0x03) {
      throw new FlatGeobufError(`FlatGeobuf version ${bytes[3]} is not supported (version 3 is)`)
    }
    throw new FlatGeobufError('not a FlatGeobuf file (magic bytes missing)')
  }
  let offset: number
  try {
    offset = checkSizePrefixed(bytes, view, 8, HEADER, 'the header')
  } catch (error) {
    if (error instanceof FlatBufferError) throw new FlatGeobufError(error.message)
    throw error
  }
  const bb = new flatbuffers.ByteBuffer(bytes)
  bb.setPosition(8)
  let header: HeaderMeta
  try {
    header = headerFromByteBuffer(bb)
  } catch (error) {
    // The structure is sound; what is left is content the library refuses, such as a column without a name.
    throw new FlatGeobufError(`the header is not usable: ${(error as Error).message}`)
  }
  const fields: FieldInfo[] = (header.columns ?? []).map((c) => ({ name: c.name, type: fieldType(c.type) }))
  const declared = header.featuresCount
  const room = Math.floor((total - offset) / MIN_FEATURE_BYTES)
  if (!Number.isFinite(declared) || declared > room) {
    throw new FlatGeobufError(
      `the header declares ${declared} features, more than the ${total - offset} bytes after it can hold (corrupt or truncated)`,
    )
  }
  if (header.indexNodeSize === 1) throw new FlatGeobufError('the header declares an index node size of 1')
  if (header.indexNodeSize > 1 && declared > 0) {
    const size = indexBytes(declared, header.indexNodeSize)
    if (offset + size > total) {
      throw new FlatGeobufError(
        `the spatial index of ${declared} features needs ${size} bytes but ${total - offset} remain (truncated?)`,
      )
    }
    offset += size
  }
  return { header, columns: header.columns ?? [], fields, declared, offset }
}

/** Whether the point reader takes these columns (names that repeat take the library's path). */
const pointReadable = (columns: readonly ColumnMeta[]): boolean =>
  new Set(columns.map((c) => c.name)).size === columns.length

/** Whether points with these fields can be held column-wise (a field named __proto__ would not read back the same). */
const columnReadable = (fields: readonly FieldInfo[]): boolean => !fields.some((f) => f.name === '__proto__')

function decodeFlatGeobuf(
  input: Uint8Array,
  columnar: boolean,
  fast = true,
): { features?: FgbFeature[]; points?: PointColumns; fields: FieldInfo[]; crs?: number } {
  // Typed views of doubles inside the file need its start 8-aligned.
  const bytes = input.byteOffset % 8 === 0 ? input : input.slice()
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const read = readHeader(bytes, view, bytes.length)
  const { header, columns, fields, declared } = read
  let offset = read.offset
  const bb = new flatbuffers.ByteBuffer(bytes)
  let features: FgbFeature[] = []
  const headerMeta = { ...header, columns }
  const template = fieldTemplate(fields)
  const protoAt = fields.findIndex((f) => f.name === '__proto__')
  // The direct path for 2D points.
  const points = pointReadable(columns)
    ? new PointReader(bytes, view, bb, header.geometryType, columns, fields)
    : undefined
  // Column-wise while every feature is a point.
  let sink =
    columnar && points && columnReadable(fields)
      ? new PointSink(declared, columns, bytes.length - offset)
      : undefined
  while (offset < bytes.length) {
    const id = sink ? sink.n : features.length
    // A feature that follows one of a length not a multiple of 8 (as this module wrote them before it
    // padded) is misaligned for typed views of its doubles: read it from an aligned copy.
    const aligned = offset % 8 === 0
    if (aligned && points && fast) {
      const next = points.fast(offset, bytes.length)
      if (next >= 0) {
        if (sink) sink.add(points)
        else features.push(points.point())
        offset = next
        continue
      }
    }
    const length = offset + 4 <= bytes.length ? view.getUint32(offset, true) : 0
    const src = aligned ? bytes : bytes.slice(offset, Math.min(bytes.length, offset + 4 + length))
    const at = aligned ? offset : 0
    let end: number
    try {
      end = checkSizePrefixed(src, aligned ? view : new DataView(src.buffer), at, FEATURE, 'feature', id)
    } catch (error) {
      if (error instanceof FlatBufferError)
        throw new FlatGeobufError(`${error.message} (truncated or corrupt)`)
      throw error
    }
    const srcBb = aligned ? bb : new flatbuffers.ByteBuffer(src)
    srcBb.setPosition(at)
    if (sink) {
      if (aligned && points!.decode() === 1) {
        sink.add(points!)
        offset += end - at
        continue
      }
      // Not a point (or not decoded): the features so far as objects, and this one and the rest as before.
      features = sink.columns(fields).features()
      sink = undefined
      srcBb.setPosition(at)
    }
    if (aligned && points) {
      const point = points.read()
      if (point) {
        features.push(point)
        offset += end - at
        continue
      }
      srcBb.setPosition(at)
    }
    const feature = Feature.getSizePrefixedRootAsFeature(srcBb)
    offset += end - at
    let decoded: { geometry: unknown; properties?: unknown }
    let byIndex: unknown[] | undefined
    try {
      decoded = feature.geometry()
        ? fromFeature(id, feature, headerMeta)
        : { geometry: null, properties: parseProperties(feature, headerMeta.columns) }
      if (protoAt >= 0) {
        const srcView = aligned ? view : new DataView(src.buffer, src.byteOffset, src.byteLength)
        byIndex = propertyValuesOf(feature, srcBb, src, srcView, columns)
      }
    } catch (error) {
      features.push({
        geometry: null,
        properties: {},
        problem: `its content could not be decoded (${(error as Error).message.slice(0, 80)})`,
      })
      continue
    }
    let geometry = decoded.geometry as Geometry | null
    if (geometry && geometry.type === 'GeometryCollection' && geometry.geometries.length === 0)
      geometry = null
    // The library's properties object is keyed by name: a name it has no value for would read an
    // inherited one (`constructor`), and it drops a `__proto__` value (or makes it the prototype). Own
    // values only, and that field's value read by its column index.
    const named = (decoded.properties ?? {}) as Record<string, unknown>
    const properties = { ...template }
    for (const [k, field] of fields.entries()) {
      let v =
        (k === protoAt ? byIndex![k] : Object.hasOwn(named, field.name) ? named[field.name] : null) ?? null
      if (field.type === 'json' && typeof v === 'string') {
        try {
          v = JSON.parse(v)
        } catch {
          /* keep the text */
        }
      }
      properties[field.name] = v
    }
    features.push({ geometry, properties })
  }
  const found = sink ? sink.n : features.length
  if (declared > 0 && found !== declared) {
    throw new FlatGeobufError(
      `the header declares ${declared} features but the file holds ${found} (truncated?)`,
    )
  }
  const crs = header.crs?.code || undefined
  return sink ? { points: sink.columns(fields), fields, crs } : { features, fields, crs }
}
