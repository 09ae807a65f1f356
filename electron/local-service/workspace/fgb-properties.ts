import type * as flatbuffers from 'flatbuffers'
import type { ColumnMeta } from 'flatgeobuf/lib/mjs/column-meta.js'
import { ColumnType } from 'flatgeobuf/lib/mjs/flat-geobuf/column-type.js'
import type { Feature } from 'flatgeobuf/lib/mjs/flat-geobuf/feature.js'
import type { FieldInfo } from './features'
import { decodeText } from './text-column'

/** FlatGeobuf reading: a feature's property values, decoded by column index. */
/**
 * Text of `n` bytes from `from`, cut at `end`: when all ASCII, its bytes as characters (Latin-1 gives the
 * same), else UTF-8 (`decodeText`).
 */
const textAt = (bytes: Uint8Array, text: Buffer, end: number, from: number, n: number): string =>
  decodeText(bytes, from, Math.min(end, from + n), text)

/** What `readPropertyValues` leaves in `values` for a text value it did not decode (see `spans`). */
export const TEXT = Symbol('text')

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
export function readPropertyValues(
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
export function fieldTemplate(fields: readonly FieldInfo[]): Record<string, unknown> {
  const template = Object.create(null) as Record<string, unknown>
  for (const f of fields) template[f.name] = null
  return template
}

/** A feature's property values by column index (null where it has none), read by `readPropertyValues`. */
export function propertyValuesOf(
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
