import { utf8SequenceLength } from '../engine/utf8'

/**
 * A text field of a point dataset held as the file's UTF-8 bytes: every feature's text copied once into one
 * buffer, in feature order, with where each starts and ends. A value becomes a JavaScript string only when
 * asked for (`get`), decoded as the FlatGeobuf reader decoded it (see `decodeText`); the result rows are
 * written straight from the bytes (`JsonChunkWriter.utf8String`). A million short names held so are two
 * buffers, not a million strings for the garbage collector to make, move and keep.
 */
export class TextColumn {
  constructor(
    /** The texts' bytes, one after the other. */
    readonly bytes: Uint8Array,
    /** Feature i's text is `bytes[offsets[i]..offsets[i + 1]]`. */
    readonly offsets: Uint32Array | Float64Array,
    /** 1 where a feature has no value (null); undefined when every feature has one. */
    readonly nulls: Uint8Array | undefined,
    /** Whether every byte is printable ASCII other than `"` and `\`: each text's JSON literal is its bytes quoted. */
    readonly plain: boolean,
    /** Whether every byte is ASCII. */
    readonly ascii: boolean,
  ) {
    this.latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }

  private readonly latin1: Buffer

  get length(): number {
    return this.offsets.length - 1
  }

  /** Feature i's value: its text, or null. */
  get(i: number): string | null {
    if (this.nulls !== undefined && this.nulls[i] === 1) return null
    return decodeText(this.bytes, this.offsets[i]!, this.offsets[i + 1]!, this.latin1)
  }

  /** Feature i's text's length in UTF-16 code units (what `get(i).length` is), or -1 for null. */
  textLength(i: number): number {
    if (this.nulls !== undefined && this.nulls[i] === 1) return -1
    const start = this.offsets[i]!
    const end = this.offsets[i + 1]!
    if (this.ascii) return end - start
    const length = utf16Length(this.bytes, start, end)
    return length >= 0 ? length : decodeText(this.bytes, start, end, this.latin1).length
  }
}

/** Builds a `TextColumn` a value at a time (`TextColumn`'s bytes copied from wherever they were read). */
export class TextColumnBuilder {
  private bytes: Uint8Array
  private at = 0
  /** 32-bit while the bytes are fewer than 2^32 (half the memory to touch), then doubles. */
  private offsets: Uint32Array | Float64Array
  private n = 0
  private nulls: Uint8Array | undefined
  private plain = true
  private ascii = true

  /** Room for `count` values of `bytes` bytes in all to begin with (both grow as needed). */
  constructor(count: number, bytes: number) {
    this.offsets = new Uint32Array(Math.max(16, count) + 1)
    this.bytes = new Uint8Array(Math.max(64, bytes))
  }

  /** The next feature's text: `from`'s bytes `start..end`. */
  add(from: Uint8Array, start: number, end: number): void {
    const length = end - start
    if (this.n + 1 === this.offsets.length) this.growOffsets()
    if (this.at + length > 0xffffffff && this.offsets instanceof Uint32Array)
      this.offsets = Float64Array.from(this.offsets)
    if (this.at + length > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.at + length))
      grown.set(this.bytes.subarray(0, this.at))
      this.bytes = grown
    }
    const bytes = this.bytes
    let at = this.at
    // Short texts byte by byte (whether they are plain read on the way); a call of `set` costs more.
    if (length <= 32) {
      let plain = this.plain
      for (let i = start; i < end; i++) {
        const c = from[i]!
        if (plain && (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c)) plain = false
        bytes[at++] = c
      }
      this.plain = plain
    } else {
      bytes.set(from.subarray(start, end), at)
      at += length
      if (this.plain)
        for (let i = start; i < end; i++)
          if (!plainByte(from[i]!)) {
            this.plain = false
            break
          }
    }
    if (!this.plain && this.ascii)
      for (let i = start; i < end; i++)
        if (from[i]! >= 0x80) {
          this.ascii = false
          break
        }
    this.at = at
    this.offsets[++this.n] = at
  }

  /** The next feature has no value. */
  addNull(): void {
    if (this.n + 1 === this.offsets.length) this.growOffsets()
    ;(this.nulls ??= new Uint8Array(this.offsets.length - 1))[this.n] = 1
    this.offsets[++this.n] = this.at
  }

  /**
   * The column of the values so far: views of the buffers they were written in when those are at least half
   * full (pages never written take no memory; a copy is fresh memory to touch), else copies.
   */
  finish(): TextColumn {
    const n = this.n
    const fit = <T extends Uint8Array | Uint32Array | Float64Array>(a: T, length: number): T =>
      (length * 2 >= a.length ? a.subarray(0, length) : a.slice(0, length)) as T
    const nulls = this.nulls === undefined ? undefined : fit(this.nulls, n)
    return new TextColumn(fit(this.bytes, this.at), fit(this.offsets, n + 1), nulls, this.plain, this.ascii)
  }

  private growOffsets(): void {
    const length = (this.offsets.length - 1) * 2 + 1
    const grown = this.offsets instanceof Uint32Array ? new Uint32Array(length) : new Float64Array(length)
    grown.set(this.offsets)
    this.offsets = grown
    if (this.nulls) {
      const nulls = new Uint8Array(grown.length - 1)
      nulls.set(this.nulls)
      this.nulls = nulls
    }
  }
}

/**
 * The UTF-16 length of the text well-formed UTF-8 bytes `start..end` decode to, counted without decoding
 * them (a code unit for each sequence, two for one of four bytes); -1 for bytes a decoder would not take as
 * they are (a sequence that is not well-formed, a leading BOM).
 */
function utf16Length(bytes: Uint8Array, start: number, end: number): number {
  if (end - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf)
    return -1
  let units = 0
  let i = start
  while (i < end) {
    const length = bytes[i]! < 0x80 ? 1 : utf8SequenceLength(bytes, i, end)
    if (length === 0) return -1
    units += length === 4 ? 2 : 1
    i += length
  }
  return units
}

const plainByte = (c: number): boolean => c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c

/** Whether texts' bytes are all plain (`TextColumn.plain`) and all ASCII (`TextColumn.ascii`), read from them. */
export function textFlags(bytes: Uint8Array): { plain: boolean; ascii: boolean } {
  let plain = true
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!
    if (plainByte(c)) continue
    plain = false
    if (c >= 0x80) return { plain, ascii: false }
  }
  return { plain, ascii: true }
}

const textDecoder = new TextDecoder()
const char = String.fromCharCode

/**
 * The text of UTF-8 bytes `start..end` (empty when `end <= start`): when all ASCII, its bytes as characters
 * (Latin-1 gives the same), else the TextDecoder's (invalid sequences as U+FFFD, a leading BOM dropped).
 * `latin1`, when given, is `bytes` as a Buffer (made otherwise for a text of more than 12 bytes).
 */
export function decodeText(bytes: Uint8Array, start: number, end: number, latin1?: Buffer): string {
  if (end <= start) return ''
  for (let i = start; i < end; i++)
    if (bytes[i]! >= 0x80) return textDecoder.decode(bytes.subarray(start, end))
  if (end - start <= 12) return shortText(bytes, start, end - start)
  return (latin1 ?? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).toString(
    'latin1',
    start,
    end,
  )
}

/**
 * ASCII text of 1 to 12 bytes from `s`: one call of a builtin that makes the string in JavaScript, where
 * `Buffer.toString` crosses into C++ for each (a million names of a few letters took 56 to 90 ms that way,
 * 11 to 39 ms this way).
 */
function shortText(b: Uint8Array, s: number, n: number): string {
  switch (n) {
    case 1:
      return char(b[s]!)
    case 2:
      return char(b[s]!, b[s + 1]!)
    case 3:
      return char(b[s]!, b[s + 1]!, b[s + 2]!)
    case 4:
      return char(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!)
    case 5:
      return char(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!)
    case 6:
      return char(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!)
    case 7:
      return char(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!)
    case 8:
      return char(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!)
    default:
      // 9 to 12: the first eight, then the rest (V8 copies a string this short into one, not a pair).
      return (
        char(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!) +
        shortText(b, s + 8, n - 8)
      )
  }
}
