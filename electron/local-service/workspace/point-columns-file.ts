import type { FieldInfo } from './features'
import { PointColumns, type PointColumn } from './point-columns'
import { TextColumn, textFlags } from './text-column'

/**
 * `columns.bin`, beside a point dataset's `data.fgb`: the same points as `PointColumns` hold them once the
 * FlatGeobuf reader has decoded them (coordinates, each number field's values, each text field's UTF-8
 * bytes and offsets), laid out so they are read back as views of the file's bytes without decoding. It is
 * derived from `data.fgb` — made by reading that file back, so it holds exactly what the reader gives — and
 * only a cache: a dataset without one, or with one that does not check, is read from `data.fgb`.
 *
 * Layout (little-endian): the 8 bytes `GEOCOLS1`, a u32 length and that many bytes of JSON (the header:
 * count, fields, and where each array lies), then the arrays, each at a multiple of 8 from the start.
 */
const MAGIC = 'GEOCOLS1'

interface Section {
  /** Byte offset from the file's start (a multiple of 8) and length in bytes. */
  at: number
  bytes: number
}

interface ColumnHeader {
  kind: 'number' | 'text'
  /** number: the values (f64, NaN where null); text: the bytes. */
  values: Section
  /** text: where each value starts (u32, or f64 past 4 GiB), count + 1 of them. */
  offsets?: Section
  offsetsWide?: boolean
  /** 1 where a feature has no value (u8), when any has none. */
  nulls?: Section
}

/** The `data.fgb` a columns file was made from: its size and modification time (ms). */
export interface DataFileStamp {
  size: number
  mtimeMs: number
}

interface Header {
  data: DataFileStamp
  count: number
  fields: FieldInfo[]
  xs: Section
  ys: Section
  columns: ColumnHeader[]
}

const align8 = (n: number) => Math.ceil(n / 8) * 8

/**
 * The file's bytes for `points`, or undefined when a field holds something other than numbers, texts or
 * nulls (a boolean, a JSON value): such datasets are read from `data.fgb` only.
 */
export function encodePointColumns(points: PointColumns, data: DataFileStamp): Uint8Array | undefined {
  const count = points.count
  const arrays: ArrayBufferView[] = []
  let at = 0
  const place = (view: ArrayBufferView): Section => {
    const section = { at, bytes: view.byteLength }
    arrays.push(view)
    at = align8(at + view.byteLength)
    return section
  }
  const xs = place(points.xs)
  const ys = place(points.ys)
  const columns: ColumnHeader[] = []
  for (const column of points.values) {
    if (column instanceof TextColumn) {
      columns.push({
        kind: 'text',
        values: place(column.bytes),
        offsets: place(column.offsets),
        offsetsWide: column.offsets instanceof Float64Array,
        ...(column.nulls ? { nulls: place(column.nulls) } : {}),
      })
      continue
    }
    const values = new Float64Array(count)
    let nulls: Uint8Array | undefined
    for (let i = 0; i < count; i++) {
      const v = column[i]
      if (typeof v === 'number') values[i] = v
      else if (v === null) {
        values[i] = NaN
        ;(nulls ??= new Uint8Array(count))[i] = 1
      } else return undefined
    }
    columns.push({ kind: 'number', values: place(values), ...(nulls ? { nulls: place(nulls) } : {}) })
  }
  const header: Header = { data, count, fields: [...points.fields], xs, ys, columns }
  const json = new TextEncoder().encode(JSON.stringify(header))
  const base = align8(MAGIC.length + 4 + json.length)
  const out = new Uint8Array(base + at)
  const view = new DataView(out.buffer)
  for (let i = 0; i < MAGIC.length; i++) out[i] = MAGIC.charCodeAt(i)
  view.setUint32(MAGIC.length, json.length, true)
  out.set(json, MAGIC.length + 4)
  let offset = base
  for (const array of arrays) {
    out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), offset)
    offset = align8(offset + array.byteLength)
  }
  return out
}

/**
 * The points in a `columns.bin` file's bytes, as views of them; undefined when they were made from another
 * `data.fgb` than the one there now (its size or modification time differ: replaced, damaged, restored
 * from a copy), when they do not hold what the dataset's manifest says (its feature count and fields), or
 * when they do not check (a section out of the file, offsets that go back or past the texts' bytes): then
 * `data.fgb` is read instead, and answers for itself.
 */
export function decodePointColumns(
  file: Uint8Array,
  expected: { featureCount: number; fields: readonly FieldInfo[]; data: DataFileStamp },
): PointColumns | undefined {
  try {
    if (file.byteLength < MAGIC.length + 4) return undefined
    for (let i = 0; i < MAGIC.length; i++) if (file[i] !== MAGIC.charCodeAt(i)) return undefined
    // Views need their element size's alignment: a file read into a shared pool buffer is copied first.
    const bytes = file.byteOffset % 8 === 0 ? file : file.slice()
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    const length = view.getUint32(MAGIC.length, true)
    if (MAGIC.length + 4 + length > bytes.byteLength) return undefined
    const header = JSON.parse(
      new TextDecoder().decode(bytes.subarray(MAGIC.length + 4, MAGIC.length + 4 + length)),
    ) as Header
    const base = align8(MAGIC.length + 4 + length)
    const count = header.count
    if (header.data?.size !== expected.data.size || header.data.mtimeMs !== expected.data.mtimeMs)
      return undefined
    if (count !== expected.featureCount || header.columns.length !== expected.fields.length) return undefined
    // The names, in order (the types are the reader's, as `PointColumns` has them).
    if (
      header.fields.length !== expected.fields.length ||
      header.fields.some((f, k) => f.name !== expected.fields[k]!.name)
    )
      return undefined
    const section = <T>(s: Section | undefined, size: number, make: (at: number, n: number) => T): T => {
      if (!s || s.at % 8 !== 0 || s.bytes % size !== 0 || base + s.at + s.bytes > bytes.byteLength)
        throw new Error('a section out of place')
      return make(bytes.byteOffset + base + s.at, s.bytes / size)
    }
    const f64 = (s: Section | undefined, n: number) => {
      const a = section(s, 8, (at, k) => new Float64Array(bytes.buffer, at, k))
      if (a.length !== n) throw new Error('a column of another length')
      return a
    }
    const u8 = (s: Section | undefined) => section(s, 1, (at, k) => new Uint8Array(bytes.buffer, at, k))
    const xs = f64(header.xs, count)
    const ys = f64(header.ys, count)
    const columns = header.columns.map((c): PointColumn => {
      const nulls = c.nulls ? u8(c.nulls) : undefined
      if (nulls && nulls.length !== count) throw new Error('nulls of another length')
      if (c.kind === 'number') {
        const values = f64(c.values, count)
        const column = new Array<number | null>(count)
        // A whole number in 32-bit range as an integer, as the FlatGeobuf reader gives an integer column's
        // values: the array then holds small integers, not doubles boxed again at every read of a row.
        for (let i = 0; i < count; i++) {
          const v = values[i]!
          column[i] = (v | 0) === v && (v !== 0 || 1 / v > 0) ? v | 0 : v
        }
        if (nulls) for (let i = 0; i < count; i++) if (nulls[i] === 1) column[i] = null
        return column
      }
      if (c.kind !== 'text') throw new Error('a column of an unknown kind')
      const texts = u8(c.values)
      const offsets = c.offsetsWide
        ? f64(c.offsets, count + 1)
        : section(c.offsets, 4, (at, k) => new Uint32Array(bytes.buffer, at, k))
      if (offsets.length !== count + 1 || offsets[0] !== 0 || offsets[count] !== texts.length)
        throw new Error('offsets past the texts')
      for (let i = 0; i < count; i++) if (offsets[i + 1]! < offsets[i]!) throw new Error('offsets going back')
      // Whether the texts are plain or ASCII is read from their bytes, not taken from the file: the rows'
      // writer quotes plain texts without looking at them.
      const { plain, ascii } = textFlags(texts)
      return new TextColumn(texts, offsets, nulls, plain, ascii)
    })
    return new PointColumns(xs, ys, header.fields, columns)
  } catch {
    return undefined
  }
}
