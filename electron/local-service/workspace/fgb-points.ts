import type * as flatbuffers from 'flatbuffers'
import type { ColumnMeta } from 'flatgeobuf/lib/mjs/column-meta.js'
import { ColumnType } from 'flatgeobuf/lib/mjs/flat-geobuf/column-type.js'
import { Feature } from 'flatgeobuf/lib/mjs/flat-geobuf/feature.js'
import { Geometry as FgbGeometry } from 'flatgeobuf/lib/mjs/flat-geobuf/geometry.js'
import { GeometryType } from 'flatgeobuf/lib/mjs/flat-geobuf/geometry-type.js'
import type { FieldInfo } from './features'
import type { FgbFeature } from './fgb-header'
import { fieldTemplate, readPropertyValues, TEXT } from './fgb-properties'
import { PointColumns, type PointColumn } from './point-columns'
import { decodeText, TextColumnBuilder } from './text-column'

/** FlatGeobuf reading: 2D points decoded straight from their bytes, and gathered column-wise. */
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
export class PointReader {
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
export class PointSink {
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
