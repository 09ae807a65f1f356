import {
  CLOSE_BRACE,
  OPEN_BRACE,
  OPEN_BRACKET,
  RowsShapeError,
  Scanner,
  memberName,
  memberValue,
  setMember,
} from './json-scan'
import { RowTable, type CheckedRows } from './row-table'
import { RowsArrayReader } from './rows-array-reader'

/**
 * A join answer's body (a JSON object): every member but `result` parsed, and the rows of `result` read in
 * place (none when it is absent or null). Throws `RowsShapeError` naming the place when it is not that.
 */
export function readJoinBody(bytes: Uint8Array): { envelope: Record<string, unknown>; rows: RowTable } {
  return new JoinBodyReader().finish(bytes)
}

/**
 * Where a join answer's rows go while they are read (`JoinBodyReader`): the bytes of the rows' JSON array,
 * from its "[", in order, up to the last row read whole; what `finish` then gives as the table's bytes
 * begins with them.
 */
export interface RowsTap {
  /** The rows begin: the count the answer declares before them, when it does; the answer's likely size. */
  begin(declaredRows: number | undefined, expectedBytes: number | undefined): void
  /** More of them (bytes that will not change). */
  more(bytes: Uint8Array): void
}

/**
 * A join answer's body checked while it is still arriving, as `readJoinBody` reads it whole: `feed` with the
 * bytes received so far reads the envelope up to the rows and checks every row complete in them (a row cut
 * by the end of what came is read again from its start at the next feed); `finish` with the whole answer
 * reads the rest, with the same errors at the same places as `readJoinBody`. A transport feeds it as the
 * answer comes, so that a million rows are already checked when their last byte arrives. Given a `tap`, it
 * hands on the rows' bytes as they are read: whole rows only, from the array's "[" on. The rows are checked
 * and counted, not kept as a table (`CheckedRows`; the app's core needs no more, its renderer reads them):
 * no offsets per value to write, grow and shift. `JoinBodyReader` keeps them (`RowTable`).
 */
export class JoinBodyChecker {
  constructor(
    private readonly tap?: RowsTap,
    /** Whether the rows' table keeps where each value is (`JoinBodyReader`), or they are only checked. */
    private readonly records = false,
  ) {}

  /** Where the rows handed to the tap end (-1: none handed on yet). */
  private tapped = -1

  /** "start": the envelope before the rows not read yet; "rows": inside the rows' array; "rest": past what `feed` reads. */
  private stage: 'start' | 'rows' | 'rest' = 'start'
  private envelope: Record<string, unknown> = {}
  private rows?: RowsArrayReader
  /** Where the rows' array starts (its "["). */
  private rowsStart = 0

  /** Rows read whole so far. */
  get rowsRead(): number {
    return this.rows?.rowsRead ?? 0
  }

  /**
   * The answer's size, estimated from the rows read so far and the row count the envelope declared before
   * them (`rowCount`, as this app's service writes it): a tenth over, for rows that grow longer (ids gain
   * digits). Undefined before 256 rows or without a count.
   */
  expectedBytes(): number | undefined {
    const n = this.envelope.rowCount
    const read = this.rowsRead
    if (read < 256 || typeof n !== 'number' || !Number.isSafeInteger(n) || n <= read) return undefined
    const at = this.rows!.readTo
    return Math.ceil(this.rowsStart + ((at - this.rowsStart) / read) * n * 1.1) + (1 << 16)
  }

  /** Read what can be read of the answer's first `bytes.length` bytes (`bytes` views them from the start). */
  feed(bytes: Uint8Array): void {
    if (this.stage === 'start') {
      const s = new Scanner(bytes, 0, bytes.length)
      const envelope: Record<string, unknown> = {}
      try {
        if (!this.envelopeToRows(s, envelope)) {
          this.stage = 'rest'
          return
        }
      } catch (error) {
        // The bytes ran out before the rows (or are wrong, which `finish` will name): start again next time.
        if (!(error instanceof RowsShapeError)) throw error
        return
      }
      this.envelope = envelope
      this.rowsStart = s.p
      this.rows = new RowsArrayReader(s.p, 0, this.records)
      this.stage = 'rows'
    }
    if (this.stage !== 'rows') return
    const rows = this.rows!
    rows.feed(bytes)
    const tap = this.tap
    if (!tap || rows.rowsRead === 0) return
    if (this.tapped < 0) {
      const n = this.envelope.rowCount
      tap.begin(
        typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined,
        this.expectedBytes(),
      )
      this.tapped = this.rowsStart
    }
    if (rows.readTo > this.tapped) tap.more(bytes.subarray(this.tapped, rows.readTo))
    this.tapped = rows.readTo
  }

  /** The answer read whole (`bytes`: all of it, beginning with what `feed` was given). */
  finish(bytes: Uint8Array): { envelope: Record<string, unknown>; rows: CheckedRows } {
    let s: Scanner
    let rows: RowTable | undefined
    const envelope = this.stage === 'rows' ? this.envelope : {}
    if (this.stage === 'rows') {
      s = new Scanner(bytes, this.rowsStart, bytes.length)
      rows = this.rows!.finishAt(s)
    } else {
      s = new Scanner(bytes, 0, bytes.length)
      if (this.envelopeToRows(s, envelope)) rows = RowTable.readAt(s, 0, this.records)
      else if (s.p === bytes.length) return { envelope, rows: RowTable.of([]) }
      // Else `envelopeToRows` stopped at "result" (not an array): read it as rows, whatever it holds.
      else rows = RowTable.readAt(s, 0, this.records)
    }
    // The members after the rows.
    while (s.more(CLOSE_BRACE, 'body')) {
      s.member('body')
      const key = memberName(s)
      if (key === 'result') rows = RowTable.readAt(s, 0, this.records)
      else setMember(envelope, key, memberValue(s))
    }
    if (s.space() !== -1) s.fail('unexpected text after the answer', 'body')
    return { envelope, rows: rows ?? RowTable.of([]) }
  }

  /**
   * From the start of the answer (after a byte order mark) through its members up to `result`, parsing the
   * others into `envelope`: true with the scanner at the "[" of an array of rows; false with it at the
   * value of `result` when that is not an array, or at the end of the bytes when the answer ends without
   * rows (the scanner past the closing brace: `s.p === s.end`).
   */
  private envelopeToRows(s: Scanner, envelope: Record<string, unknown>): boolean {
    const b = s.b
    // A byte order mark is not JSON, but decoders drop it (as the answer's reader did before): so does this.
    if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) s.p = 3
    if (s.space() !== OPEN_BRACE) s.fail('the answer is not a JSON object', 'body')
    s.p++
    if (s.space() === CLOSE_BRACE) {
      s.p++
      if (s.space() !== -1) s.fail('unexpected text after the answer', 'body')
      return false
    }
    for (;;) {
      s.member('body')
      const key = memberName(s)
      if (key === 'result') return s.b[s.p] === OPEN_BRACKET
      setMember(envelope, key, memberValue(s))
      if (!s.more(CLOSE_BRACE, 'body')) {
        if (s.space() !== -1) s.fail('unexpected text after the answer', 'body')
        return false
      }
    }
  }
}

/**
 * `JoinBodyChecker` whose table keeps where each value is: the rows to be read (`cell`, `column`, `spans`),
 * as `readJoinBody` gives them.
 */
export class JoinBodyReader extends JoinBodyChecker {
  constructor(tap?: RowsTap) {
    super(tap, true)
  }

  override finish(bytes: Uint8Array): { envelope: Record<string, unknown>; rows: RowTable } {
    return super.finish(bytes) as { envelope: Record<string, unknown>; rows: RowTable }
  }
}
