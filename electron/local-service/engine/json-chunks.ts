import { utf8SequenceLength } from './utf8'

const encoder = new TextEncoder()
const EMPTY = new Uint8Array(0)
const POINT_OPEN = encoder.encode('"POINT (')
/** What follows `\` in JSON.stringify's escape of an ASCII character, 0 for \u00XX (or none needed). */
const SHORT_ESCAPE = new Uint8Array(128)
for (const [c, e] of [
  [0x08, 'b'],
  [0x09, 't'],
  [0x0a, 'n'],
  [0x0c, 'f'],
  [0x0d, 'r'],
  [0x22, '"'],
  [0x5c, '\\'],
] as const)
  SHORT_ESCAPE[c] = e.charCodeAt(0)
/** Lower-case hexadecimal digits, as JSON.stringify writes them. */
const HEX = encoder.encode('0123456789abcdef')

/**
 * A coordinate's text as GEOS 3.13's WKT writer (trimmed, the engine's) writes it, when that is JavaScript's
 * own `String(n)`: GEOS writes the shortest round-trip digits, rounded to 16 decimal places, in exponent
 * form below 1e-4 (and from 1e17); JavaScript writes the shortest digits, in exponent form below 1e-6 and
 * from 1e21. They agree for a finite number from 1e-4 to 1e15 (or 0) whose shortest text has at most 16
 * decimal places — every longitude and latitude a dataset holds in practice. Undefined for any other
 * number: ask GEOS. (Checked against GEOS on random numbers of every magnitude in the engine's tests.)
 */
export function geosNumberText(n: number): string | undefined {
  const a = n < 0 ? -n : n
  if (!(a >= 1e-4 && a < 1e15) && n !== 0) return undefined
  const text = String(n)
  const point = text.indexOf('.')
  if (point >= 0 && text.length - point - 1 > 16) return undefined
  return text
}

/**
 * For `n` 0, or a number from 1e-4 to 1e6 whose value is k / 10^7 for an integer k: k for |n| (0 for 0);
 * -1 for any other number. Then its shortest text (JavaScript's, and GEOS's by `geosNumberText`) is k's
 * digits with the point 7 places from the right, trailing zeros dropped — no shorter decimal lies within an
 * ulp of it, since two decimals of at most 7 places differ by at least 1e-7, far more than an ulp below 1e6.
 */
function fixed7(n: number): number {
  if (n === 0) return 0
  const a = n < 0 ? -n : n
  if (!(a >= 1e-4 && a < 1e6)) return -1
  const k = Math.round(a * 1e7)
  return k / 1e7 === a ? k : -1
}

/** How many digits the integer `v` (0 ≤ v < 2^31) has. */
const digitCount = (v: number): number =>
  v < 1e5
    ? v < 100
      ? v < 10
        ? 1
        : 2
      : v < 1e3
        ? 3
        : v < 1e4
          ? 4
          : 5
    : v < 1e7
      ? v < 1e6
        ? 6
        : 7
      : v < 1e8
        ? 8
        : v < 1e9
          ? 9
          : 10

/**
 * Writes the non-negative integer `v` in `digits` digits (leading zeros when it has fewer) into `buf` at
 * `at`; returns the position after them. Below 2^31 in 32-bit integer steps (a division by 10 of a double,
 * floored, costs several times more), above it as doubles.
 */
function writeDigits(buf: Uint8Array, at: number, v: number, digits: number): number {
  const end = at + digits
  let i = end
  if (v < 2147483648)
    while (i > at) {
      const q = (v / 10) | 0
      buf[--i] = 0x30 + v - q * 10
      v = q
    }
  else
    while (i > at) {
      buf[--i] = 0x30 + (v % 10)
      v = Math.floor(v / 10)
    }
  return end
}

/** Writes the non-negative integer `v` (below 2^53) in its own digits; returns the position after them. */
function writeInteger(buf: Uint8Array, at: number, v: number): number {
  let digits: number
  if (v < 2147483648) digits = digitCount(v)
  else {
    digits = 10
    for (let t = Math.floor(v / 1e10); t >= 1; t = Math.floor(t / 10)) digits++
  }
  return writeDigits(buf, at, v, digits)
}

/**
 * Writes the text of a number `fixed7` accepted, negative when `negative`, from its k, into `buf` at `at`;
 * returns the position after it.
 */
function writeFixed7(buf: Uint8Array, at: number, negative: boolean, k: number): number {
  if (k === 0) {
    buf[at] = 0x30
    return at + 1
  }
  if (negative) buf[at++] = 0x2d
  // Below 1e6: the whole part and the fraction's 7 digits are 32-bit integers.
  const whole = Math.floor(k / 1e7)
  let fraction = k - whole * 1e7
  at = writeDigits(buf, at, whole, digitCount(whole))
  if (fraction === 0) return at
  let places = 7
  for (let q = (fraction / 10) | 0; fraction === q * 10; q = (fraction / 10) | 0) {
    fraction = q
    places--
  }
  buf[at++] = 0x2e
  return writeDigits(buf, at, fraction, places)
}

/** A full chunk's size (`JsonChunkWriter`'s default): the one size whose buffers are used again. */
export const CHUNK_BYTES = 1 << 18

/** Full chunks' buffers handed back once their bytes were written, for the next chunks of this thread. */
const spareChunks: ArrayBuffer[] = []
const SPARE_CHUNKS = 16

let freshChunks = 0

/** How many full chunks' buffers this thread allocated (not reused) so far: for tests and diagnostics. */
export function freshChunkBuffers(): number {
  return freshChunks
}

/**
 * Keep a full chunk's buffer, handed back after its bytes went out (a pool worker's, by the serving thread
 * that wrote them: `pool/serve-jobs.ts`), for a later chunk of this thread. A buffer moved between threads
 * and dropped counts as external memory where it was dropped: streaming a large answer's parts through the
 * serving thread made V8 run a full mark-compact of its heap every 2–3 s (decision 035). Other sizes, and
 * past 16 kept, are left to the collector. The writer overwrites what it reuses and fills the rest of what
 * it hands over with zeros, so no byte of an earlier answer goes out with a later one.
 */
export function reuseChunkBuffer(buffer: ArrayBuffer): void {
  if (buffer.byteLength === CHUNK_BYTES && spareChunks.length < SPARE_CHUNKS) spareChunks.push(buffer)
}

/**
 * A chunk's buffer, its own (never a slice of a pool: it is transferred), not filled with zeros first: on
 * the machines measured, zeroing a fresh 256 KiB buffer for each chunk of a 72 MB answer cost 60 to 340 ms,
 * not zeroing it 5 to 14 ms (the writer fills what it hands over).
 */
function chunkBuffer(size: number): Uint8Array {
  if (size === CHUNK_BYTES) {
    const spare = spareChunks.pop()
    if (spare) return new Uint8Array(spare)
    freshChunks++
  }
  const b = Buffer.allocUnsafeSlow(size)
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength)
}

/**
 * JSON text written straight into UTF-8 byte chunks of a fixed size, each handed to `emit` when full (and
 * the last one on `flush`): no intermediate strings for the common values (ASCII text, integers), and each
 * chunk has a buffer of its own, so it can be transferred to another thread rather than copied.
 *
 * The first chunk starts small (16 KiB) and grows in place, doubling, up to `chunkSize` before anything is
 * handed over: an answer that fits in one chunk is one part. (Handing over 16, 32, 64 and 128 KiB parts as
 * they filled cost a small answer one message between threads and one socket write each; a 20 KB answer's
 * early first part held the join worker 0.5 ms at the median, 1.5 ms at the 90th percentile, while the
 * serving thread it woke took the core. Decision 026.)
 */
export class JsonChunkWriter {
  private buf: Uint8Array
  private pos = 0

  constructor(
    private readonly emit: (bytes: Uint8Array) => void,
    private readonly chunkSize = CHUNK_BYTES,
  ) {
    this.buf = chunkBuffer(Math.min(chunkSize, 1 << 14))
  }

  /** Makes room for `n` more bytes (small enough to be inlined where it is called: the test is all it does). */
  private room(n: number): void {
    if (this.pos + n > this.buf.length) this.grow(n)
  }

  private grow(n: number): void {
    const size = this.buf.length
    if (size > 0 && size < this.chunkSize) {
      // The first chunk, not full size yet: copied into one twice as large (or as large as needed).
      const grown = chunkBuffer(Math.max(this.pos + n, Math.min(this.chunkSize, size * 2)))
      grown.set(this.buf.subarray(0, this.pos))
      this.buf = grown
      return
    }
    this.flushChunk()
    this.buf = chunkBuffer(Math.max(n, this.chunkSize))
  }

  private flushChunk(): void {
    if (this.pos === 0) return
    // A mostly empty buffer is copied to one of its size rather than handed over whole; one handed over
    // has zeros past what was written, as a fresh buffer would.
    const used = this.buf.subarray(0, this.pos)
    if (this.pos < this.buf.length >> 2) {
      this.emit(used.slice())
      // Not handed over: a full chunk's buffer serves the next chunk.
      if (this.buf.byteOffset === 0) reuseChunkBuffer(this.buf.buffer as ArrayBuffer)
    } else {
      this.buf.fill(0, this.pos)
      this.emit(used)
    }
    this.buf = EMPTY
    this.pos = 0
  }

  /** Bytes already encoded (a key, a memoized value). */
  bytes(b: Uint8Array): void {
    const n = b.length
    this.room(n)
    // A short array is copied byte by byte: `set` costs more than the copy for a key or an id.
    if (n <= 32) {
      const buf = this.buf
      let at = this.pos
      for (let i = 0; i < n; i++) buf[at++] = b[i]!
      this.pos = at
    } else {
      this.buf.set(b, this.pos)
      this.pos += n
    }
  }

  /** One byte of ASCII punctuation (`,`, `{`, …). */
  byte(c: number): void {
    this.room(1)
    this.buf[this.pos++] = c
  }

  /** Raw JSON text (already escaped), e.g. punctuation. */
  raw(text: string): void {
    this.room(text.length * 3)
    this.pos += encoder.encodeInto(text, this.buf.subarray(this.pos)).written
  }

  /** A JSON string literal of `text`, escaped as JSON.stringify does. */
  string(text: string): void {
    const n = text.length
    this.room(n + 2)
    const buf = this.buf
    let at = this.pos
    buf[at++] = 0x22
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i)
      // Printable ASCII other than `"` and `\` goes as is; anything else takes the general path.
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) {
        this.raw(JSON.stringify(text))
        return
      }
      buf[at++] = c
    }
    buf[at++] = 0x22
    this.pos = at
  }

  /**
   * The JSON string literal of UTF-8 bytes `start..end` of `src` that are all printable ASCII other than `"`
   * and `\` (the caller knows: a text column's flag): the bytes quoted.
   */
  plainString(src: Uint8Array, start: number, end: number): void {
    const n = end - start
    this.room(n + 2)
    const buf = this.buf
    let at = this.pos
    buf[at++] = 0x22
    if (n <= 32) for (let i = start; i < end; i++) buf[at++] = src[i]!
    else {
      buf.set(src.subarray(start, end), at)
      at += n
    }
    buf[at++] = 0x22
    this.pos = at
  }

  /**
   * The JSON string literal of the text that UTF-8 bytes `start..end` of `src` decode to, as JSON.stringify
   * writes it (`"`, `\` and control characters escaped, everything else as is), without making the string:
   * when the bytes are well-formed UTF-8 (what a TextDecoder decodes without a replacement character) not
   * starting with a byte order mark (which it drops). Returns false, having written nothing, otherwise (the
   * caller decodes and writes the string).
   */
  utf8String(src: Uint8Array, start: number, end: number): boolean {
    const n = end - start
    if (n >= 3 && src[start] === 0xef && src[start + 1] === 0xbb && src[start + 2] === 0xbf) return false
    // At most 6 bytes a byte (a control character as \u00XX): no chunk is handed on while it is written.
    this.room(6 * n + 2)
    const buf = this.buf
    let at = this.pos
    buf[at++] = 0x22
    let i = start
    while (i < end) {
      const c = src[i]!
      if (c < 0x80) {
        i++
        if (c >= 0x20 && c !== 0x22 && c !== 0x5c) buf[at++] = c
        else {
          buf[at++] = 0x5c
          const short = SHORT_ESCAPE[c]!
          if (short !== 0) buf[at++] = short
          else {
            buf[at++] = 0x75
            buf[at++] = 0x30
            buf[at++] = 0x30
            buf[at++] = HEX[c >> 4]!
            buf[at++] = HEX[c & 15]!
          }
        }
        continue
      }
      // A sequence of 2 to 4 bytes, checked as the WHATWG decoder checks it, copied as it is.
      const length = utf8SequenceLength(src, i, end)
      if (length === 0) return false
      for (let k = 0; k < length; k++) buf[at++] = src[i + k]!
      i += length
    }
    buf[at++] = 0x22
    this.pos = at
    return true
  }

  /** A JSON string literal of a number's text (`String(n)`), digits written directly for integers. */
  numberText(value: number): void {
    if (!Number.isSafeInteger(value)) {
      this.string(String(value))
      return
    }
    this.room(24)
    const buf = this.buf
    let at = this.pos
    buf[at++] = 0x22
    let v = value
    if (v < 0) {
      buf[at++] = 0x2d
      v = -v
    }
    at = writeInteger(buf, at, v)
    buf[at++] = 0x22
    this.pos = at
  }

  /**
   * The JSON string literal of a point's WKT exactly as the GEOS WKT writer of the engine writes it (trimmed,
   * 2D: `"POINT (x y)"`), when both coordinates are plain decimals GEOS writes as JavaScript does (see
   * `geosNumberText`); returns false, having written nothing, otherwise (the caller asks GEOS).
   */
  pointWkt(x: number, y: number): boolean {
    // Coordinates of at most 7 decimals (what datasets hold) are written digit by digit; others as String(n).
    const kx = fixed7(x)
    const ky = fixed7(y)
    let sx: string | undefined
    let sy: string | undefined
    if (kx < 0 && (sx = geosNumberText(x)) === undefined) return false
    if (ky < 0 && (sy = geosNumberText(y)) === undefined) return false
    this.room((sx?.length ?? 16) + (sy?.length ?? 16) + 11)
    const buf = this.buf
    let at = this.pos
    for (let i = 0; i < POINT_OPEN.length; i++) buf[at++] = POINT_OPEN[i]!
    if (sx === undefined) at = writeFixed7(buf, at, x < 0, kx)
    else for (let i = 0; i < sx.length; i++) buf[at++] = sx.charCodeAt(i)
    buf[at++] = 0x20
    if (sy === undefined) at = writeFixed7(buf, at, y < 0, ky)
    else for (let i = 0; i < sy.length; i++) buf[at++] = sy.charCodeAt(i)
    buf[at++] = 0x29
    buf[at++] = 0x22
    this.pos = at
    return true
  }

  /** Hands on what is left. */
  flush(): void {
    this.flushChunk()
  }
}
