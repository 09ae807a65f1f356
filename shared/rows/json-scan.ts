/**
 * The byte-level JSON scanning under the row codec (`row-table.ts`, `rows-array-reader.ts`, `join-body.ts`):
 * a scanner over UTF-8 bytes that checks strings, members and values in place, and the small helpers that
 * turn a value's bytes into the text the table shows (decision 011).
 */

export const QUOTE = 34
export const BACKSLASH = 92
export const COMMA = 44
export const COLON = 58
export const OPEN_BRACE = 123
export const CLOSE_BRACE = 125
export const OPEN_BRACKET = 91
export const CLOSE_BRACKET = 93

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

export const decoder = new TextDecoder()

/** Set an own member, so that one named "__proto__" stays a member (as JSON.parse makes it). */
export function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}
export const encoder = new TextEncoder()

/** Bytes `start..end` as a string: ASCII without a decoder call (cells are short and mostly ASCII). */
export function textOf(bytes: Uint8Array, start: number, end: number): string {
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

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)
}

export class Scanner {
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

export function memberName(s: Scanner): string {
  return JSON.parse(`"${decoder.decode(s.b.subarray(s.nameStart, s.nameEnd))}"`) as string
}

export function memberValue(s: Scanner): unknown {
  const valueStart = s.p
  s.value()
  return JSON.parse(decoder.decode(s.b.subarray(valueStart, s.p)))
}
