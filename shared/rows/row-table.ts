/**
 * A join's rows read in place from the JSON the provider sent (UTF-8 bytes of an array of objects, or of one
 * object): one pass over the bytes checks the shape and finds where each value lies; a value becomes a
 * string only when it is asked for. A million-row answer is never turned into a million objects on its way
 * from the provider to the screen: the core checks it and hands on the same bytes, the renderer reads the
 * rows the table shows and the geometries the map draws (decision 011).
 *
 * Values are read as the table shows them (`cellText`): a string as it is, null as empty, a number or a
 * literal as its text, an object or an array as its JSON.
 */
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  Scanner,
  cellText,
  decoder,
  encoder,
  setMember,
  textOf,
} from './json-scan'

/** What `RowsReader.sameShape` found: the row read, a row of another shape, or the bytes ending inside it. */
const READ = 0
const OTHER_SHAPE = 1
const CUT = 2

/** What a byte is inside a string, for the one-pass row (`RowsReader.sameShape`). */
const PLAIN = 0
const END = 1
/** A backslash or a control character: the general reader checks it. */
const ESCAPE = 2
const NOT_ASCII = 3
const STRING_BYTE = new Uint8Array(256).fill(PLAIN)
STRING_BYTE.fill(ESCAPE, 0, 0x20)
STRING_BYTE.fill(NOT_ASCII, 0x80)
STRING_BYTE[QUOTE] = END
STRING_BYTE[BACKSLASH] = ESCAPE

/** Where each column's values lie, row by row: start and end byte of the value (0, 0 where a row has none). */
export interface Column {
  key: string
  /** The key as it is written between its quotes, for matching the next rows' keys byte by byte. */
  raw: Uint8Array
  starts: Uint32Array
  ends: Uint32Array
}

/**
 * The rows read so far, one object at a time, with each column's value offsets (into the bytes being
 * read) when it `records` them. A row is counted only once its closing brace has been read, so a reader
 * stopped mid-row (the bytes ran out) can start that row again when more have come (`JoinBodyReader.feed`).
 * Without recording, the rows are checked and counted exactly as they are read (the same errors at the same
 * places), and no offsets are kept.
 */
export class RowsReader {
  readonly columns: Column[] = []
  readonly byKey = new Map<string, Column>()
  count = 0
  private capacity: number
  /** The column of each member position in the previous row: the next row usually has the same keys. */
  private readonly previous: Column[] = []

  constructor(
    expectedRows: number,
    private readonly records = true,
  ) {
    this.capacity = records ? Math.max(1024, Math.min(expectedRows, 1 << 28)) : 0
  }

  private grow(): void {
    this.capacity *= 2
    for (const c of this.columns) {
      const starts = new Uint32Array(this.capacity)
      starts.set(c.starts)
      c.starts = starts
      const ends = new Uint32Array(this.capacity)
      ends.set(c.ends)
      c.ends = ends
    }
  }

  private columnOf(bytes: Uint8Array, keyStart: number, keyEnd: number, escaped: boolean, member: number) {
    const guess = this.previous[member]
    if (guess && !escaped && guess.raw.length === keyEnd - keyStart) {
      const raw = guess.raw
      let same = true
      for (let i = 0; i < raw.length; i++)
        if (bytes[keyStart + i] !== raw[i]) {
          same = false
          break
        }
      if (same) return guess
    }
    const text = decoder.decode(bytes.subarray(keyStart, keyEnd))
    const key = escaped ? (JSON.parse(`"${text}"`) as string) : text
    let column = this.byKey.get(key)
    if (!column) {
      column = {
        key,
        raw: bytes.slice(keyStart, keyEnd),
        starts: new Uint32Array(this.capacity),
        ends: new Uint32Array(this.capacity),
      }
      this.columns.push(column)
      this.byKey.set(key, column)
    }
    this.previous[member] = column
    return column
  }

  /**
   * One row: the object at the scanner's place (its "{"), leaving the scanner after its "}"; with
   * `wholeOnly`, false and nothing read when the bytes end inside a row shaped like the one before (a reader
   * fed while they arrive: no error made and thrown for the row every piece cuts).
   */
  row(s: Scanner, wholeOnly = false): boolean {
    const count = this.count
    const records = this.records
    if (count === this.capacity && records) this.grow()
    const shape = this.sameShape(s)
    if (shape === READ) return true
    // A row the bytes cut, while they are still coming: read it whole when more have come.
    if (shape === CUT && wholeOnly) return false
    s.p++ // {
    const at = `result.${count}`
    let members = 0
    if (s.space() === CLOSE_BRACE) s.p++
    else
      for (let member = 0; ; member++) {
        const escaped = s.member(at)
        const column = this.columnOf(s.b, s.nameStart, s.nameEnd, escaped, member)
        const valueStart = s.p
        s.value()
        if (records) {
          column.starts[count] = valueStart
          column.ends[count] = s.p
        }
        members = member + 1
        if (!s.more(CLOSE_BRACE, at)) break
      }
    this.width = members
    this.count = count + 1
    return true
  }

  /** How many members the last row had (its columns are `previous[0…width-1]`, in order). */
  private width = 0

  /**
   * The common row, read in one pass: the previous row's names in its order, each written as it was, each
   * value a string without escapes or control characters, no space between the tokens (as services write
   * rows). Then it is read here (READ); anything else is OTHER_SHAPE, or CUT when the bytes end inside a row
   * of this shape so far, with nothing read (the scanner where it was), and `row` reads it the general way,
   * with its errors. What this writes before it gives up, `row` writes again the same (the same bytes at
   * the same places).
   */
  private sameShape(s: Scanner): number {
    const width = this.width
    if (width === 0) return OTHER_SHAPE
    const b = s.b
    const end = s.end
    const count = this.count
    const previous = this.previous
    const records = this.records
    let p = s.p + 1 // past "{"
    let ascii = true
    for (let m = 0; m < width; m++) {
      const column = previous[m]!
      const raw = column.raw
      const n = raw.length
      // "name":"
      if (p + n + 3 >= end) return CUT
      if (b[p] !== QUOTE || b[p + n + 1] !== QUOTE || b[p + n + 2] !== COLON) return OTHER_SHAPE
      if (b[p + n + 3] !== QUOTE) return OTHER_SHAPE
      for (let i = 0; i < n; i++) if (b[p + 1 + i] !== raw[i]) return OTHER_SHAPE
      const start = p + n + 3
      p = start + 1
      // To the closing quote (a string's bytes are mostly plain: one look-up each).
      for (;;) {
        if (p >= end) return CUT
        const kind = STRING_BYTE[b[p]!]!
        if (kind === PLAIN) {
          p++
          continue
        }
        if (kind === END) break
        if (kind === ESCAPE) return OTHER_SHAPE
        ascii = false
        p++
      }
      p++
      if (records) {
        column.starts[count] = start
        column.ends[count] = p
      }
      // Then "," and the next member, or the row's "}".
      if (p >= end) return CUT
      if (b[p] !== (m + 1 < width ? COMMA : CLOSE_BRACE)) return OTHER_SHAPE
      p++
    }
    if (!ascii) s.ascii = false
    s.p = p
    this.count = count + 1
    return READ
  }

  table(bytes: Uint8Array, start: number, end: number, ascii: boolean): RowTable {
    // Rows only checked keep no offsets: a table of their bytes and count, with nothing to shift.
    if (!this.records) return RowTable.made(bytes, start, end, this.count, [], new Map(), ascii)
    return RowTable.made(bytes, start, end, this.count, this.columns, this.byKey, ascii)
  }
}

/**
 * Rows checked — a JSON array of objects (or one object, or null), every value valid JSON — and counted,
 * as a `JoinBodyChecker` leaves them: their bytes, not read into a table (`RowTable.read(bytes)` reads them).
 * The app's core checks a join's rows and hands on their bytes; the renderer reads them.
 */
export interface CheckedRows {
  /** The JSON of the rows, as received. */
  readonly bytes: Uint8Array
  readonly length: number
}

export class RowTable implements CheckedRows {
  private constructor(
    /** The JSON of the rows, as received. */
    readonly bytes: Uint8Array,
    readonly length: number,
    private readonly columns: readonly Column[],
    private readonly byKey: ReadonlyMap<string, Column>,
    /** Every byte is ASCII: a byte offset is a character offset in the decoded text. */
    private readonly ascii: boolean,
  ) {}

  /** The whole text, decoded once for reading many values (ASCII only: offsets stay valid). */
  private whole: string | undefined

  /** The member names, in the order they were first seen. */
  get keys(): string[] {
    return this.columns.map((c) => c.key)
  }

  /**
   * Read the rows in `bytes` (all of it, or `start..end`): a JSON array of objects, one object (one row),
   * or null (no rows). Throws `RowsShapeError` naming the place when the JSON is not that. `expectedRows`
   * (the count the core gave) sizes the offsets once instead of growing them.
   */
  static read(bytes: Uint8Array, start = 0, end = bytes.length, expectedRows = 0): RowTable {
    const s = new Scanner(bytes, start, end)
    const table = RowTable.readAt(s, expectedRows)
    if (s.space() !== -1) s.fail('unexpected text after the rows')
    return table
  }

  /** Read the rows at the scanner's place, leaving it after them. */
  static readAt(s: Scanner, expectedRows = 0, records = true): RowTable {
    const start = s.p
    const rows = new RowsReader(expectedRows, records)
    const first = s.space()
    if (first === OPEN_BRACKET) {
      s.p++
      if (s.space() === CLOSE_BRACKET) s.p++
      else
        do {
          if (s.space() !== OPEN_BRACE) s.fail('result rows must be objects', `result.${rows.count}`)
          rows.row(s)
        } while (s.nextRow(rows.count))
    } else if (first === OPEN_BRACE) {
      rows.row(s)
    } else if (first === 110 && decoder.decode(s.b.subarray(s.p, s.p + 4)) === 'null') {
      s.p += 4
    } else s.fail('result rows must be objects', 'result')
    return rows.table(s.b, start, s.p, s.ascii)
  }

  /** The table `RowsReader` read from `bytes[start..end]` (`ascii`: no byte of a string was over 0x7f). */
  static made(
    bytes: Uint8Array,
    start: number,
    end: number,
    count: number,
    columns: Column[],
    byKey: Map<string, Column>,
    ascii: boolean,
  ): RowTable {
    return new RowTable(bytes.subarray(start, end), count, columns, byKey, ascii).shifted(start)
  }

  /** Offsets relative to `bytes` (the rows' own view) rather than to the buffer they were read from. */
  private shifted(start: number): this {
    if (start === 0) return this
    for (const c of this.columns)
      for (let i = 0; i < this.length; i++) {
        if (c.ends[i] !== 0) {
          c.starts[i] = c.starts[i]! - start
          c.ends[i] = c.ends[i]! - start
        }
      }
    return this
  }

  /** Rows given as objects (tests, a reconciled join, a fake provider), as the JSON a provider sends. */
  static of(rows: ReadonlyArray<Readonly<Record<string, unknown>>>): RowTable {
    return RowTable.read(encoder.encode(JSON.stringify(rows)))
  }

  has(index: number, key: string): boolean {
    const c = this.byKey.get(key)
    return !!c && index >= 0 && index < this.length && c.ends[index] !== 0
  }

  /** The value of `key` in row `index` as the table shows it; '' where the row has none. */
  cell(index: number, key: string): string {
    const c = this.byKey.get(key)
    if (!c || index < 0 || index >= this.length) return ''
    return this.valueAt(c.starts[index]!, c.ends[index]!)
  }

  /** Decode the whole text once before reading many values, when offsets in it equal byte offsets. */
  private bulk(): void {
    if (this.ascii && this.whole === undefined) this.whole = decoder.decode(this.bytes)
  }

  private valueAt(start: number, end: number): string {
    if (end === 0) return ''
    const b = this.bytes
    if (b[start] === QUOTE) {
      const text =
        this.whole !== undefined ? this.whole.slice(start + 1, end - 1) : textOf(b, start + 1, end - 1)
      return text.includes('\\') ? (JSON.parse(`"${text}"`) as string) : text
    }
    return cellText(JSON.parse(textOf(b, start, end)))
  }

  /**
   * Where every value of `key` lies in `bytes` (start and end per row, quotes included; 0 and 0 where a row
   * has none), for reading a whole column without a call per row; null when no row has the key.
   */
  spans(key: string): { starts: Uint32Array; ends: Uint32Array } | null {
    const c = this.byKey.get(key)
    return c ? { starts: c.starts, ends: c.ends } : null
  }

  /** Row `index` as an object of strings (only the members it has). */
  row(index: number): Record<string, string> {
    const out: Record<string, string> = {}
    for (const c of this.columns) {
      const end = c.ends[index]!
      if (end !== 0) setMember(out, c.key, this.valueAt(c.starts[index]!, end))
    }
    return out
  }

  /** Every row as an object of strings: for exports and the CLI, not for drawing. */
  rows(): Array<Record<string, string>> {
    this.bulk()
    const out = new Array<Record<string, string>>(this.length)
    for (let i = 0; i < this.length; i++) out[i] = this.row(i)
    return out
  }

  /** Every value of one column as the table shows it ('' where a row has none). */
  column(key: string): string[] {
    const c = this.byKey.get(key)
    this.bulk()
    const out = new Array<string>(this.length)
    for (let i = 0; i < this.length; i++) out[i] = c ? this.valueAt(c.starts[i]!, c.ends[i]!) : ''
    return out
  }
}
