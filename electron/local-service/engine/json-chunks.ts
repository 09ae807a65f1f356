const encoder = new TextEncoder()
const EMPTY = new Uint8Array(0)

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
    this.room(b.length)
    this.buf.set(b, this.pos)
    this.pos += b.length
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
    buf[this.pos++] = 0x22
    let v = value
    if (v < 0) {
      buf[this.pos++] = 0x2d
      v = -v
    }
    const start = this.pos
    do {
      buf[this.pos++] = 0x30 + (v % 10)
      v = Math.floor(v / 10)
    } while (v > 0)
    buf.subarray(start, this.pos).reverse()
    buf[this.pos++] = 0x22
  }

  /** Hands on what is left. */
  flush(): void {
    this.flushChunk()
  }
}
