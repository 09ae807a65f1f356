import { randomBytes } from 'node:crypto'
import { RowTable, type CheckedRows } from '../../shared/rows/row-table'

/**
 * The JSON the CLI prints (`--json`, `call`, `call --out`): what `JSON.stringify(value, null, 2)` gives for
 * plain data (`compact`: on one line, for a stream of JSON lines), with the values it would garble written
 * as what they hold:
 * - a join's rows (`CheckedRows`: the provider's JSON bytes, checked by the core) as the JSON array they are,
 *   each value as the provider wrote it (a number keeps all its digits), indented like the rest; one object
 *   is an array of that row, null an empty array;
 * - a typed array of numbers as an array of numbers; bytes of their own (a Uint8Array, a Buffer, an
 *   ArrayBuffer) as their base64 text;
 * - a Map as an object, a Set as an array, a bigint as its decimal text.
 * Never a byte array as a map of indexes to numbers ({"0": 91, "1": 123, …}). Ends with a newline.
 */
export function jsonOutput(value: unknown, options: { compact?: boolean } = {}): Buffer {
  const unit = options.compact ? 0 : 2
  const rows: CheckedRows[] = []
  const nonce = randomBytes(6).toString('hex')
  const text = JSON.stringify(
    value,
    function (this: Record<string, unknown>, key: string, after: unknown) {
      // `after` has been through toJSON (a Buffer is {type, data} by then): look at the member itself.
      const raw = this[key]
      if (isCheckedRows(raw)) {
        rows.push(raw)
        return `\u0000rows-${nonce}-${rows.length - 1}`
      }
      return plain(raw, after)
    },
    unit,
  )
  // undefined (or a function) prints nothing in JSON.stringify; a script reading stdout gets null.
  if (text === undefined) return Buffer.from('null\n')
  if (rows.length === 0) return Buffer.from(text + '\n')
  const parts: Uint8Array[] = []
  const marker = new RegExp(`"\\\\u0000rows-${nonce}-(\\d+)"`, 'g')
  let from = 0
  for (const match of text.matchAll(marker)) {
    const at = match.index
    // The level of the line it is on: JSON.stringify indents two spaces a level.
    const lineStart = text.lastIndexOf('\n', at) + 1
    const depth = unit ? /^ */.exec(text.slice(lineStart, at))![0].length / unit : 0
    parts.push(Buffer.from(text.slice(from, at)))
    parts.push(rowsJson(rows[Number(match[1])]!, depth, unit))
    from = at + match[0].length
  }
  parts.push(Buffer.from(text.slice(from) + '\n'))
  return Buffer.concat(parts)
}

/** A join's rows as the core hands them on: a `RowTable`, or a plain `{ bytes, length }`. */
function isCheckedRows(value: unknown): value is CheckedRows {
  if (value instanceof RowTable) return true
  if (typeof value !== 'object' || value === null) return false
  const proto = Object.getPrototypeOf(value) as unknown
  if (proto !== Object.prototype && proto !== null) return false
  const keys = Object.keys(value).sort()
  const v = value as { bytes?: unknown; length?: unknown }
  return (
    keys.length === 2 &&
    keys[0] === 'bytes' &&
    keys[1] === 'length' &&
    v.bytes instanceof Uint8Array &&
    typeof v.length === 'number'
  )
}

/** A value JSON.stringify would garble, as plain data; anything else as it is. */
function plain(raw: unknown, after: unknown): unknown {
  if (typeof raw === 'bigint') return raw.toString()
  if (typeof raw !== 'object' || raw === null) return after
  if (raw instanceof Uint8Array)
    return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64')
  if (raw instanceof ArrayBuffer) return Buffer.from(raw).toString('base64')
  if (raw instanceof DataView)
    return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64')
  if (ArrayBuffer.isView(raw))
    return Array.from(raw as unknown as ArrayLike<number | bigint>, (n) =>
      typeof n === 'bigint' ? n.toString() : n,
    )
  if (raw instanceof Map) return Object.fromEntries([...raw].map(([k, v]) => [String(k), v as unknown]))
  if (raw instanceof Set) return [...raw]
  return after
}

const QUOTE = 34
const BACKSLASH = 92
const COMMA = 44
const COLON = 58
const OPEN_BRACE = 123
const CLOSE_BRACE = 125
const OPEN_BRACKET = 91
const CLOSE_BRACKET = 93

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9
}

/**
 * The rows' JSON as an array, indented by `unit` spaces a level from `depth` (the level of the line the
 * array starts on), as JSON.stringify indents (0: on one line): the bytes the provider sent, only their
 * spacing changed.
 * Rows that are not a `RowTable` are checked first (`RowTable.read` throws naming the place when they are
 * not an array of objects in valid JSON), so nothing but JSON is ever spliced into the output.
 */
function rowsJson(rows: CheckedRows, depth: number, unit: number): Uint8Array {
  const bytes = rows.bytes
  if (!(rows instanceof RowTable)) RowTable.read(bytes)
  let start = 0
  while (start < bytes.length && isSpace(bytes[start]!)) start++
  const first = bytes[start]
  if (first === OPEN_BRACKET) return indented(bytes, start, depth, unit)
  if (first === OPEN_BRACE) {
    // One object: one row.
    const row = indented(bytes, start, depth + 1, unit)
    const line = (level: number) => (unit ? '\n' + ' '.repeat(unit * level) : '')
    return Buffer.concat([Buffer.from(`[${line(depth + 1)}`), row, Buffer.from(`${line(depth)}]`)])
  }
  return Buffer.from('[]') // null: no rows
}

/** Copy `b[from..to)` into `out` at `n`: byte by byte when short (a view per string costs more). */
function copy(out: Uint8Array, n: number, b: Uint8Array, from: number, to: number): void {
  if (to - from > 32) out.set(b.subarray(from, to), n)
  else for (let k = from; k < to; k++) out[n++] = b[k]!
}

/** `out` with room for `more` bytes after the first `n`. */
function roomy(out: Uint8Array, n: number, more: number): Uint8Array {
  if (n + more <= out.length) return out
  const grown = new Uint8Array(Math.max(out.length * 2, n + more))
  grown.set(out.subarray(0, n))
  return grown
}

/** The JSON value at `start` (checked JSON), re-spaced: strings and literals copied byte for byte. */
function indented(b: Uint8Array, start: number, depth: number, unit: number): Uint8Array {
  const end = b.length
  let out: Uint8Array = new Uint8Array(Math.max(256, Math.ceil(b.length * 1.75)))
  let n = 0
  let level = depth
  let open = 0
  let i = start
  while (i < end) {
    const c = b[i]!
    if (isSpace(c)) {
      i++
      continue
    }
    // Room for a structural byte, its line break and indent, and a short token.
    out = roomy(out, n, 64 + unit * (level + 1))
    if (c === QUOTE) {
      const j = closingQuote(b, i + 1, end)
      out = roomy(out, n, j + 1 - i)
      copy(out, n, b, i, j + 1)
      n += j + 1 - i
      i = j + 1
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      let k = i + 1
      while (k < end && isSpace(b[k]!)) k++
      out[n++] = c
      if (b[k] === (c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET)) {
        out[n++] = b[k]!
        i = k + 1
      } else {
        open++
        n = lineBreak(out, n, ++level, unit)
        i++
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      open--
      n = lineBreak(out, n, --level, unit)
      out[n++] = c
      i++
    } else if (c === COMMA) {
      out[n++] = c
      n = lineBreak(out, n, level, unit)
      i++
    } else if (c === COLON) {
      out[n++] = c
      if (unit) out[n++] = 32
      i++
    } else {
      // A number or a literal, to the next delimiter.
      let j = i
      while (j < end) {
        const d = b[j]!
        if (isSpace(d) || d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || d === COLON) break
        j++
      }
      out = roomy(out, n, j - i)
      copy(out, n, b, i, j)
      n += j - i
      i = j
    }
    if (open === 0) break
  }
  return out.subarray(0, n)
}

/** Where the string whose text starts at `from` ends: its closing quote (one not escaped). */
function closingQuote(b: Uint8Array, from: number, end: number): number {
  let j = from
  for (;;) {
    j = b.indexOf(QUOTE, j)
    if (j < 0 || j >= end) return end
    // Escaped only after an odd count of backslashes.
    let backslashes = 0
    while (b[j - 1 - backslashes] === BACKSLASH) backslashes++
    if (backslashes % 2 === 0) return j
    j++
  }
}

/** A line break and the indent of `level` at `n` (nothing when `unit` is 0); returns the end. */
function lineBreak(out: Uint8Array, n: number, level: number, unit: number): number {
  if (!unit) return n
  out[n++] = 10
  const to = n + unit * level
  out.fill(32, n, to)
  return to
}
