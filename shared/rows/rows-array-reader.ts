import { COMMA, OPEN_BRACE, OPEN_BRACKET, RowsShapeError, Scanner } from './json-scan'
import { RowTable, RowsReader } from './row-table'

/**
 * Rows (a JSON array of objects) read while they arrive: `feed` with the bytes received so far (a view from
 * the array's first byte, or from `from` in a larger answer) reads every row complete in them (a row cut by
 * the end of what came is read again from its start at the next feed); `finishAt` reads the rest. Together
 * they give the table `RowTable.readAt` gives for the same bytes, with the same errors at the same places.
 */
export class RowsArrayReader {
  private readonly rows: RowsReader
  /** Where reading goes on: after the "[" or after the last row read whole; -1 before the "[" is seen. */
  private at = -1
  private ascii = true

  constructor(
    /** Where the rows' JSON starts in the bytes `feed` is given. */
    private readonly from = 0,
    /** The count the sender declared, to size the offsets once. */
    private readonly expectedRows = 0,
    /** Whether the table keeps where each value is (else the rows are only checked and counted). */
    private readonly records = true,
  ) {
    this.rows = new RowsReader(expectedRows, records)
  }

  /** Rows read whole so far. */
  get rowsRead(): number {
    return this.rows.count
  }

  /** The member names of the rows read so far, in the order they were first seen. */
  get keysSoFar(): string[] {
    return this.rows.columns.map((c) => c.key)
  }

  /**
   * Where each value of `key` lies in the rows read so far (as `RowTable.spans`, offsets into the bytes
   * fed; the arrays may be replaced as rows come, so ask again after each feed); null when none has it.
   */
  spansSoFar(key: string): { starts: Uint32Array; ends: Uint32Array } | null {
    const c = this.rows.byKey.get(key)
    return c ? { starts: c.starts, ends: c.ends } : null
  }

  /** Past the rows read so far: the byte where the next row (or its ",") starts; `from` before the "[". */
  get readTo(): number {
    return this.at < 0 ? this.from : this.at
  }

  /** Read every row complete in `bytes` (all received so far, from the start of the answer). */
  feed(bytes: Uint8Array): void {
    const s = new Scanner(bytes, this.at < 0 ? this.from : this.at, bytes.length)
    if (this.at < 0) {
      // Only an array is read as it comes; one object or null is left to `finishAt`.
      if (s.space() !== OPEN_BRACKET) return
      this.at = s.p + 1
      s.p = this.at
    }
    const rows = this.rows
    try {
      for (;;) {
        if (rows.count === 0) {
          if (s.space() !== OPEN_BRACE) return
        } else {
          // Past the separator only when a whole row follows it; the last "]" is left to `finishAt`.
          if (s.space() !== COMMA) return
          s.p++
          if (s.space() !== OPEN_BRACE) return
        }
        if (!rows.row(s, true)) return
        this.at = s.p
        this.ascii &&= s.ascii
      }
    } catch (error) {
      // The bytes ran out (or are wrong, which `finishAt` will name): read again from the last whole row.
      if (!(error instanceof RowsShapeError)) throw error
    }
  }

  /**
   * The rest of the rows, with the scanner over the whole answer (its place is not used: reading goes on
   * where `feed` stopped), leaving it after them: the table of all of them.
   */
  finishAt(s: Scanner): RowTable {
    const reader = this.rows
    if (reader.count === 0) {
      // Nothing after the "[" was read: the rows are read as `RowTable.readAt` reads them.
      s.p = this.from
      return RowTable.readAt(s, this.expectedRows, this.records)
    }
    s.p = this.at
    s.ascii = this.ascii
    while (s.nextRow(reader.count)) {
      if (s.space() !== OPEN_BRACE) s.fail('result rows must be objects', `result.${reader.count}`)
      reader.row(s)
    }
    return reader.table(s.b, this.from, s.p, s.ascii)
  }

  /** All the rows, `bytes` being the whole of them from the start: what `RowTable.read(bytes)` gives. */
  finish(bytes: Uint8Array): RowTable {
    const s = new Scanner(bytes, this.from, bytes.length)
    const table = this.finishAt(s)
    if (s.space() !== -1) s.fail('unexpected text after the rows')
    return table
  }
}
