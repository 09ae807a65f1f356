const encoder = new TextEncoder()
const EMPTY = new Uint8Array(0)
const POINT_OPEN = encoder.encode('"POINT (')

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
 * Whether `n` is 0, or a number from 1e-4 to 1e6 whose value is k / 10^7 for an integer k: then its shortest
 * text (JavaScript's, and GEOS's by `geosNumberText`) is k's digits with the point 7 places from the right,
 * trailing zeros dropped — no shorter decimal lies within an ulp of it, since two decimals of at most 7
 * places differ by at least 1e-7, far more than an ulp below 1e6.
 */
function hasFixed7(n: number): boolean {
  const a = n < 0 ? -n : n
  if (n === 0) return true
  if (!(a >= 1e-4 && a < 1e6)) return false
  return Math.round(a * 1e7) / 1e7 === a
}

/**
 * Writes the non-negative integer `v` in `places` digits (its own count when not given; leading zeros
 * otherwise) into `buf` at `at`; returns the position after them.
 */
function writeDigits(buf: Uint8Array, at: number, v: number, places?: number): number {
  let digits = places ?? 1
  if (places === undefined) for (let t = v; t >= 10; t = Math.floor(t / 10)) digits++
  at += digits
  for (let i = 1; i <= digits; i++) {
    buf[at - i] = 0x30 + (v % 10)
    v = Math.floor(v / 10)
  }
  return at
}

/** Writes `n` (one `hasFixed7` accepts) as that text into `buf` at `at`; returns the position after it. */
function writeFixed7(buf: Uint8Array, at: number, n: number): number {
  if (n === 0) {
    buf[at] = 0x30
    return at + 1
  }
  if (n < 0) {
    buf[at++] = 0x2d
    n = -n
  }
  const k = Math.round(n * 1e7)
  const whole = Math.floor(k / 1e7)
  let fraction = k - whole * 1e7
  at = writeDigits(buf, at, whole)
  if (fraction === 0) return at
  let places = 7
  while (fraction % 10 === 0) {
    fraction /= 10
    places--
  }
  buf[at++] = 0x2e
  return writeDigits(buf, at, fraction, places)
}

/**
 * JSON text written straight into UTF-8 byte chunks of a fixed size, each handed to `emit` when full (and
 * the last one on `flush`): no intermediate strings for the common values (ASCII text, integers), and each
 * chunk has a buffer of its own, so it can be transferred to another thread rather than copied.
 */
export class JsonChunkWriter {
  private buf: Uint8Array
  private pos = 0
  /** The next chunk's size: small answers stay small, large ones grow to `chunkSize`. */
  private nextSize: number

  constructor(
    private readonly emit: (bytes: Uint8Array) => void,
    private readonly chunkSize = 1 << 18,
  ) {
    this.nextSize = Math.min(chunkSize, 1 << 14)
    this.buf = new Uint8Array(this.nextSize)
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return
    this.flushChunk()
    this.nextSize = Math.min(this.chunkSize, this.nextSize * 2)
    this.buf = new Uint8Array(Math.max(n, this.nextSize))
  }

  private flushChunk(): void {
    if (this.pos === 0) return
    // A mostly empty buffer is copied to one of its size rather than handed over whole.
    const used = this.buf.subarray(0, this.pos)
    this.emit(this.pos < this.buf.length >> 2 ? used.slice() : used)
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
    at = writeDigits(buf, at, v)
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
    let sx: string | undefined
    let sy: string | undefined
    if (!hasFixed7(x) && (sx = geosNumberText(x)) === undefined) return false
    if (!hasFixed7(y) && (sy = geosNumberText(y)) === undefined) return false
    this.room((sx?.length ?? 16) + (sy?.length ?? 16) + 11)
    const buf = this.buf
    let at = this.pos
    for (let i = 0; i < POINT_OPEN.length; i++) buf[at++] = POINT_OPEN[i]!
    if (sx === undefined) at = writeFixed7(buf, at, x)
    else for (let i = 0; i < sx.length; i++) buf[at++] = sx.charCodeAt(i)
    buf[at++] = 0x20
    if (sy === undefined) at = writeFixed7(buf, at, y)
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
