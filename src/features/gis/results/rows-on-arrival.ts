/**
 * A join's rows (`JoinRun.rowsJson`) read while they arrive, where the renderer receives them in pieces
 * (the browser host's answer, `FramesReceiver`): by their last byte the table is read, and so are the
 * positions of a column of plain `POINT (x y)` values, which the map of a large result draws. `readRows` and
 * `pointsReadOnArrival` hand them on instead of reading the bytes again. In Electron the rows cross IPC
 * whole and are read when asked.
 */
import type { PartReader } from '@contract/frames'
import { RowTable } from '../../../../shared/rows/row-table'
import { RowsArrayReader } from '../../../../shared/rows/rows-array-reader'
import { plainPoint } from './result-points'

/** Tables read on arrival, by the bytes they were read from. */
const tables = new WeakMap<Uint8Array, RowTable>()
/** Point columns read on arrival, by table and key. */
const pointColumns = new WeakMap<RowTable, ReadonlyMap<string, Float64Array>>()

/**
 * The positions of each column whose first row holds a point, read as the rows come (lon, lat per row; NaN
 * where a row has none). A column with any value that is not a plain point is dropped: `pointColumn` reads
 * it whole, its general way.
 */
class ArrivingPoints {
  private readonly columns = new Map<string, { out: Float64Array; any: boolean }>()
  private decided = false
  /** Rows whose positions are read. */
  private done = 0

  constructor(private readonly expectedRows: number) {}

  /** The rows `done..count` of what has come (`bytes`, with the spans the rows reader found in it). */
  read(
    bytes: Uint8Array,
    count: number,
    keys: () => readonly string[],
    spans: (key: string) => { starts: Uint32Array; ends: Uint32Array } | null,
  ): void {
    if (count === this.done) return
    if (!this.decided) {
      this.decided = true
      for (const key of keys()) {
        const first = spans(key)
        if (first && first.ends[0] !== 0 && bytes[first.starts[0]! + 1] === 80 /* P */)
          this.columns.set(key, {
            out: new Float64Array(2 * Math.max(this.expectedRows, count)).fill(NaN),
            any: false,
          })
      }
    }
    for (const [key, column] of this.columns) {
      const span = spans(key)
      if (!span) {
        this.columns.delete(key)
        continue
      }
      if (column.out.length < 2 * count) {
        const grown = new Float64Array(4 * count).fill(NaN)
        grown.set(column.out)
        column.out = grown
      }
      const { starts, ends } = span
      for (let i = this.done; i < count; i++) {
        const end = ends[i]!
        if (end === 0) continue
        if (!plainPoint(bytes, starts[i]!, end, column.out, 2 * i)) {
          this.columns.delete(key)
          break
        }
        column.any = true
      }
    }
    this.done = count
  }

  /** The columns read whole, for a table of `count` rows. */
  result(count: number): Map<string, Float64Array> {
    const out = new Map<string, Float64Array>()
    for (const [key, column] of this.columns)
      if (column.any)
        out.set(key, column.out.length === 2 * count ? column.out : column.out.slice(0, 2 * count))
    return out
  }
}

/** The reader of a `rowsJson` part; `holder` is the `JoinRun` (its `rowCount` sizes the table). */
export function rowsPartReader(holder: Readonly<Record<string, unknown>>): PartReader {
  const declared = holder.rowCount
  const expected = typeof declared === 'number' && Number.isSafeInteger(declared) ? declared : 0
  const rows = new RowsArrayReader(0, expected)
  const points = new ArrivingPoints(expected)
  const keys = () => rows.keysSoFar
  return {
    feed(received) {
      rows.feed(received)
      points.read(received, rows.rowsRead, keys, (key) => rows.spansSoFar(key))
    },
    finish(whole) {
      const table = rows.finish(whole)
      tables.set(whole, table)
      points.read(
        table.bytes,
        table.length,
        () => table.keys,
        (key) => table.spans(key),
      )
      pointColumns.set(table, points.result(table.length))
    },
  }
}

/** The rows in `bytes`: the table read while they arrived, else `RowTable.read` of them now. */
export function readRows(bytes: Uint8Array, expectedRows = 0): RowTable {
  return tables.get(bytes) ?? RowTable.read(bytes, 0, bytes.byteLength, expectedRows)
}

/**
 * The positions of `key`'s points read while the rows arrived (what `pointColumn` gives for them), or
 * undefined when they were not: then `pointColumn` reads them.
 */
export function pointsReadOnArrival(table: RowTable, key: string): Float64Array | undefined {
  return pointColumns.get(table)?.get(key)
}
