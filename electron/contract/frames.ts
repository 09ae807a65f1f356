/**
 * How the browser host sends an operation's answer that holds bytes (a join's rows): the JSON of the answer
 * with each byte array replaced by a reference `{"$bytes": [offset, length]}`, a newline, then the bytes
 * themselves one after another. The bytes cross as they are — not as JSON text of numbers, not escaped in
 * a string — and the page reads them as views of the one buffer it received. (In Electron, IPC's
 * structured clone carries byte arrays as they are, so nothing like this is needed there.)
 */

export const FRAMES_CONTENT_TYPE = 'application/x-geo-frames'

const NEWLINE = 10

/** The answer's JSON with its byte arrays taken out, and those byte arrays; none when it holds none. */
export function encodeFrames(value: unknown): { json: string; parts: Uint8Array[] } {
  const parts: Uint8Array[] = []
  let offset = 0
  const json = JSON.stringify(value, (_key, v: unknown) => {
    if (!(v instanceof Uint8Array)) return v
    parts.push(v)
    const ref = { $bytes: [offset, v.byteLength] }
    offset += v.byteLength
    return ref
  })
  return { json, parts }
}

function isBytesRef(v: unknown): v is { $bytes: [number, number] } {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false
  const keys = Object.keys(v)
  const ref = (v as { $bytes?: unknown }).$bytes
  return (
    keys.length === 1 &&
    Array.isArray(ref) &&
    ref.length === 2 &&
    Number.isSafeInteger(ref[0]) &&
    Number.isSafeInteger(ref[1])
  )
}

/** The answer back from a body written by `encodeFrames` (JSON, newline, bytes). */
export function decodeFrames(body: ArrayBuffer): unknown {
  const all = new Uint8Array(body)
  const newline = all.indexOf(NEWLINE)
  if (newline < 0) throw new Error('the answer has no end to its JSON part')
  const json = new TextDecoder().decode(all.subarray(0, newline))
  const base = newline + 1
  return JSON.parse(json, (_key, v: unknown) => {
    if (!isBytesRef(v)) return v
    const [offset, length] = v.$bytes
    if (offset < 0 || length < 0 || base + offset + length > all.byteLength)
      throw new Error('the answer refers to bytes it does not hold')
    return new Uint8Array(body, base + offset, length)
  })
}

/** Reads one byte part of an answer while it arrives (see `FramesReceiver`). */
export interface PartReader {
  /** The part's bytes received so far (a view from its first byte). */
  feed(received: Uint8Array): void
  /** The part whole (the same view the answer's value holds). */
  finish(whole: Uint8Array): void
}

/**
 * Part readers by the key their part is under in the answer, each made with the object holding it (whose
 * other members, such as a row count, it may read).
 */
export type PartReaders = Readonly<Record<string, (holder: Readonly<Record<string, unknown>>) => PartReader>>

/** A part reader is fed again once this many more of its bytes have come. */
const FEED_BYTES = 256 * 1024

/**
 * `decodeFrames` for an answer that arrives in pieces and whose length is known: the pieces go into one
 * buffer of that length (no copy at the end), the JSON part is read as soon as its newline has come, and a
 * byte part under a key with a reader in `readers` is fed while its bytes arrive, so that reading it is
 * done when they are. `finish` gives what `decodeFrames` gives for the whole answer, and the same errors.
 * A reader that throws is dropped: what it reads is only ever a head start.
 */
export class FramesReceiver {
  /** The answer's buffer; a read that writes into it in place (`room`, `filled`) may hand it back anew. */
  private all: Uint8Array
  private received = 0
  private value: unknown
  private parsed = false
  /** Every byte part of the answer: where it lies, and the object and key that hold it. */
  private readonly parts: Array<{
    holder: Record<string, unknown>
    key: string
    start: number
    length: number
  }> = []
  private readonly fed: Array<{ start: number; length: number; reader: PartReader; fed: number }> = []

  constructor(
    readonly length: number,
    private readonly readers: PartReaders = {},
  ) {
    this.all = new Uint8Array(length)
  }

  /** A piece of the answer, copied in after what came before. */
  push(piece: Uint8Array): void {
    if (this.received + piece.byteLength > this.length)
      throw new Error('the answer is longer than its stated length')
    this.all.set(piece, this.received)
    this.came(piece.byteLength)
  }

  /**
   * The part of the buffer still to be filled, for a read that writes into it in place (a stream's BYOB
   * read, which takes the buffer over while it writes): give what it wrote to `filled`.
   */
  room(): Uint8Array {
    return this.all.subarray(this.received)
  }

  /** What a read wrote into `room()`: a view at the same place, over the buffer as the read hands it back. */
  filled(written: Uint8Array): void {
    if (written.byteOffset !== this.received || written.buffer.byteLength !== this.length)
      throw new Error('a read wrote somewhere other than the room it was given')
    this.all = new Uint8Array(written.buffer)
    this.came(written.byteLength)
  }

  private came(bytes: number): void {
    const before = this.received
    this.received += bytes
    if (!this.parsed) {
      const newline = this.all.subarray(before, this.received).indexOf(NEWLINE)
      if (newline < 0) return
      this.parse(before + newline)
    }
    for (const part of this.fed) {
      const have = Math.min(Math.max(this.received - part.start, 0), part.length)
      if (have - part.fed < FEED_BYTES) continue
      part.fed = have
      this.guard(part, () => part.reader.feed(this.viewOf(part.start, have)))
    }
  }

  /** The answer, once all of it has come. */
  finish(): unknown {
    if (this.received !== this.length) throw new Error('the answer ended before its stated length')
    if (!this.parsed) {
      const newline = this.all.indexOf(NEWLINE)
      if (newline < 0) throw new Error('the answer has no end to its JSON part')
      this.parse(newline)
    }
    // Each part as a view of the buffer as it is now (a read in place may have handed it back anew).
    const views = new Map<number, Uint8Array>()
    for (const { holder, key, start, length } of this.parts) {
      const view = this.viewOf(start, length)
      holder[key] = view
      views.set(start, view)
    }
    for (const part of this.fed) this.guard(part, () => part.reader.finish(views.get(part.start)!))
    return this.value
  }

  private viewOf(start: number, length: number): Uint8Array {
    return new Uint8Array(this.all.buffer, this.all.byteOffset + start, length)
  }

  private guard(part: (typeof this.fed)[number], read: () => void): void {
    try {
      read()
    } catch {
      this.fed.splice(this.fed.indexOf(part), 1)
    }
  }

  private parse(newline: number): void {
    const base = newline + 1
    const json = new TextDecoder().decode(this.all.subarray(0, newline))
    const total = this.length
    const parts = this.parts
    const view = (start: number, length: number) => this.viewOf(start, length)
    this.value = JSON.parse(json, function (this: Record<string, unknown>, key, v: unknown) {
      if (!isBytesRef(v)) return v
      const [offset, length] = v.$bytes
      if (offset < 0 || length < 0 || base + offset + length > total)
        throw new Error('the answer refers to bytes it does not hold')
      parts.push({ holder: this, key, start: base + offset, length })
      return view(base + offset, length)
    })
    this.parsed = true
    for (const { key, holder, start, length } of parts) {
      const make = Object.hasOwn(this.readers, key) ? this.readers[key] : undefined
      if (!make) continue
      try {
        this.fed.push({ start, length, reader: make(holder), fed: 0 })
      } catch {
        // No head start for this part.
      }
    }
  }
}
