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

const QUOTE = 34
const BACKSLASH = 92
const COMMA = 44
const COLON = 58
const OPEN_BRACE = 123
const CLOSE_BRACE = 125
const OPEN_BRACKET = 91
const CLOSE_BRACKET = 93

/** The rows are not an array of objects (or one object) in valid JSON; `at` names the place. */
export class RowsShapeError extends Error {
  constructor(
    message: string,
    /** Where, as a path into the answer ("result.12") or a byte offset. */
    readonly at: string,
  ) {
    super(message)
  }
}

/** A value as the table shows it: text as is, null as empty, objects as JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

const decoder = new TextDecoder()

/** Set an own member, so that one named "__proto__" stays a member (as JSON.parse makes it). */
function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}
const encoder = new TextEncoder()

/** Bytes `start..end` as a string: ASCII without a decoder call (cells are short and mostly ASCII). */
function textOf(bytes: Uint8Array, start: number, end: number): string {
  if (end - start <= 64) {
    let ascii = true
    for (let i = start; i < end; i++)
      if (bytes[i]! >= 0x80) {
        ascii = false
        break
      }
    if (ascii) return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[])
  }
  return decoder.decode(bytes.subarray(start, end))
}

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

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)
}

class Scanner {
  p: number
  /** No byte of a string was outside ASCII (the rest of JSON is ASCII by its grammar). */
  ascii = true
  constructor(
    readonly b: Uint8Array,
    start: number,
    readonly end: number,
  ) {
    this.p = start
  }

  fail(what: string, at?: string): never {
    throw new RowsShapeError(`${what} at byte ${this.p}`, at ?? `byte ${this.p}`)
  }

  space(): number {
    const b = this.b
    let p = this.p
    while (p < this.end && isSpace(b[p]!)) p++
    this.p = p
    return p < this.end ? b[p]! : -1
  }

  /** Past a string whose opening quote is at `p`; returns whether it holds an escape. */
  string(): boolean {
    const b = this.b
    const end = this.end
    let p = this.p + 1
    let escaped = false
    for (;;) {
      if (p >= end) this.fail('unterminated string')
      const c = b[p]!
      if (c === QUOTE) break
      if (c >= 0x80) this.ascii = false
      if (c === BACKSLASH) {
        escaped = true
        const e = b[p + 1]
        if (e === 117) {
          if (!(isHex(b[p + 2]!) && isHex(b[p + 3]!) && isHex(b[p + 4]!) && isHex(b[p + 5]!))) {
            this.p = p
            this.fail('bad \\u escape in a string')
          }
          p += 6
          continue
        }
        // " \ / b f n r t
        if (
          e !== 34 &&
          e !== 92 &&
          e !== 47 &&
          e !== 98 &&
          e !== 102 &&
          e !== 110 &&
          e !== 114 &&
          e !== 116
        ) {
          this.p = p
          this.fail('bad escape in a string')
        }
        p += 2
        continue
      }
      if (c < 0x20) {
        this.p = p
        this.fail('a control character in a string')
      }
      p++
    }
    this.p = p + 1
    return escaped
  }

  /** Where the last member name read by `member` lies (between its quotes). */
  nameStart = 0
  nameEnd = 0

  /**
   * At a member of an object: past its name and the ":" to the start of its value (`nameStart..nameEnd`
   * then hold the name); returns whether the name holds an escape.
   */
  member(at: string): boolean {
    if (this.space() !== QUOTE) this.fail('a member name expected', at)
    this.nameStart = this.p + 1
    const escaped = this.string()
    this.nameEnd = this.p - 1
    if (this.space() !== COLON) this.fail('":" expected', at)
    this.p++
    if (this.space() === -1) this.fail('a value expected', at)
    return escaped
  }

  /** After an item of a list: past a "," (true: another item follows) or past `close` (false: the list ends). */
  more(close: number, at: string): boolean {
    const c = this.space()
    if (c === COMMA) {
      this.p++
      return true
    }
    if (c !== close) this.fail(`"," or "${String.fromCharCode(close)}" expected`, at)
    this.p++
    return false
  }

  /**
   * After a row of an array of rows: past a "," (true: row `next` follows) or past the "]" (false). Its
   * place in an error is made only when there is one (not a string a row).
   */
  nextRow(next: number): boolean {
    const c = this.space()
    if (c === COMMA) {
      this.p++
      return true
    }
    if (c !== CLOSE_BRACKET) this.fail('"," or "]" expected', `result.${next}`)
    this.p++
    return false
  }

  /** Past the value at `p`: strings checked, brackets balanced, a literal to its end. */
  skip(): void {
    const b = this.b
    const c = b[this.p]
    if (c === QUOTE) {
      this.string()
      return
    }
    const start = this.p
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      let depth = 0
      for (;;) {
        if (this.p >= this.end) this.fail('unterminated value')
        const d = b[this.p]!
        if (d === QUOTE) {
          this.string()
          continue
        }
        if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++
        else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) depth--
        this.p++
        if (depth === 0) break
      }
    } else {
      while (this.p < this.end) {
        const d = b[this.p]!
        if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || isSpace(d)) break
        this.p++
      }
    }
    if (this.p === start) this.fail('a value expected')
  }

  /** Past any JSON value at `p`, checked whole (by JSON.parse when it is not a string: they are rare). */
  value(): void {
    const start = this.p
    const quoted = this.b[start] === QUOTE
    this.skip()
    if (quoted) return
    try {
      JSON.parse(decoder.decode(this.b.subarray(start, this.p)))
    } catch {
      this.p = start
      this.fail('not a JSON value')
    }
  }
}

/** Where each column's values lie, row by row: start and end byte of the value (0, 0 where a row has none). */
interface Column {
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
class RowsReader {
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

function memberName(s: Scanner): string {
  return JSON.parse(`"${decoder.decode(s.b.subarray(s.nameStart, s.nameEnd))}"`) as string
}

function memberValue(s: Scanner): unknown {
  const valueStart = s.p
  s.value()
  return JSON.parse(decoder.decode(s.b.subarray(valueStart, s.p)))
}
