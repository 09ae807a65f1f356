/**
 * Newline-delimited GeoJSON (NDJSON, GeoJSONL) and GeoJSON text sequences (RFC 8142, each text after a
 * record separator, RS) read a chunk of bytes at a time: each line — or, when the file starts with RS, each
 * RS-delimited text — is decoded and handed on with its line number, never the whole file. A line is what
 * splitting the decoded text on LF gives (a CR before the LF is JSON whitespace); a byte-order mark at the
 * start of the file is dropped.
 */

const LF = 0x0a
const RS = 0x1e

export class NdjsonLineSplitter {
  /** 1-based line number where the text being gathered starts. */
  private line = 1
  /** LFs seen so far. */
  private lines = 0
  private parts: Buffer[] = []
  private started = false
  private rs = false
  private head = Buffer.alloc(0)

  /** `onText(text, line)` for each line or RS text, in order (blank ones included: the caller skips them). */
  constructor(private readonly onText: (text: string, line: number) => void) {}

  push(chunk: Uint8Array, final: boolean): void {
    let buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    if (!this.started) {
      // Up to two byte-order marks, then an RS or not: decided once the first 7 bytes are in.
      buf = Buffer.concat([this.head, buf])
      if (buf.length < 7 && !final) {
        this.head = Buffer.from(buf)
        return
      }
      let at = 0
      while (at < 6 && buf[at] === 0xef && buf[at + 1] === 0xbb && buf[at + 2] === 0xbf) at += 3
      this.started = true
      this.head = Buffer.alloc(0)
      this.rs = buf[at] === RS
      buf = buf.subarray(at)
    }
    const sep = this.rs ? RS : LF
    let from = 0
    for (let i = 0; i < buf.length; i++) {
      const c = buf[i]!
      if (c === sep) {
        this.emit(buf, from, i)
        from = i + 1
        if (!this.rs) this.lines++
        this.line = this.lines + 1
      } else if (c === LF) {
        this.lines++
      }
    }
    if (from < buf.length) this.parts.push(Buffer.from(buf.subarray(from)))
    if (final) this.emit(Buffer.alloc(0), 0, 0)
  }

  private emit(buf: Buffer, from: number, to: number): void {
    const text =
      this.parts.length === 0
        ? buf.toString('utf8', from, to)
        : Buffer.concat([...this.parts, buf.subarray(from, to)]).toString('utf8')
    this.parts = []
    this.onText(text, this.line)
  }
}
