/**
 * How the browser host sends an operation's answer that holds bytes (a join's rows): the bytes themselves
 * first, one part after another, then the JSON of the answer with each byte array replaced by a reference
 * `{"$bytes": [offset, length]}` (from the body's first byte), then a footer giving the JSON's length. The
 * bytes cross as they are — not as JSON text of numbers, not escaped in a string — and the page reads them
 * as views of the one buffer it received.
 *
 * The JSON comes last so that the host can send a part while it is still arriving from the provider: the
 * rows go on to the page as the core reads them, and the JSON, written once the answer is known, says what
 * they are — or, when the answer turned out to be a failure, holds no reference to them, and they are void.
 * A response header (`FRAMES_LEAD_HEADER`) names the first part before any of it comes, so that the page can
 * read it while it arrives. (In Electron, IPC's structured clone carries byte arrays as they are, so nothing
 * like this is needed there.)
 */

export const FRAMES_CONTENT_TYPE = 'application/x-geo-frames'

/** The response header that names the answer's first byte part (`FramesLead`, as JSON). */
export const FRAMES_LEAD_HEADER = 'x-geo-frames-lead'

/** The footer: a newline and the JSON's length in bytes, as 15 decimal digits. */
export const FOOTER_BYTES = 16

/**
 * What the page is told of the answer's first byte part before it comes: the member that will hold it, the
 * plain members of the object holding it (such as a row count), and its length when known, else the size
 * it will likely have.
 */
export interface FramesLead {
  key: string
  holder: Record<string, string | number | boolean>
  length?: number
  expectedBytes?: number
}

/**
 * Where a byte part of an answer can go while the answer is still arriving from the provider (the browser
 * host forwards a join's rows to the page as the core reads them). The answer, once known, decides what
 * the bytes were: they count only if the part it holds begins with the bytes given since the last `begin`.
 */
export interface PartTap {
  /** A part begins (again, when an earlier attempt's is void), to be held under `lead.key`. */
  begin(lead: FramesLead): void
  /** More of it, in order; bytes that will not change. */
  more(bytes: Uint8Array): void
}

/** Where the first bytes of a part already went out: at that offset of the body, that many of them. */
interface SentPrefix {
  offset: number
  bytes: number
}

function plainMembers(holder: unknown): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {}
  if (typeof holder !== 'object' || holder === null) return out
  for (const [k, v] of Object.entries(holder))
    if (typeof v === 'string' ? v.length <= 256 : typeof v === 'number' || typeof v === 'boolean') out[k] = v
  return out
}

/**
 * An answer as frames: the JSON (with its byte arrays taken out), the bytes to send before it, and what the
 * page is told of the first part (none when the answer holds no bytes). `start`: the bytes of the body
 * already sent; `sent(part)`: where a part's first bytes already went out, when they did (the last bytes
 * sent): then only its rest is sent, first. Each byte array is sent once, however often the answer holds it.
 */
export function encodeFrames(
  value: unknown,
  options: { start?: number; sent?: (part: Uint8Array) => SentPrefix | undefined } = {},
): { json: string; chunks: Uint8Array[]; lead?: FramesLead } {
  const found: Array<{ part: Uint8Array; key: string; holder: unknown }> = []
  const seen = new Set<Uint8Array>()
  // One pass finds the byte arrays; for an answer without any (most of them) it is the JSON itself.
  const plain = JSON.stringify(value, function (this: unknown, key, v: unknown) {
    if (!(v instanceof Uint8Array)) return v
    if (!seen.has(v)) found.push({ part: v, key, holder: this })
    seen.add(v)
    return null
  })
  if (found.length === 0) return { json: plain, chunks: [] }
  const refs = new Map<Uint8Array, [number, number]>()
  const chunks: Uint8Array[] = []
  let at = options.start ?? 0
  // The part whose prefix went out already: its rest follows that prefix, before anything else.
  const prefixed = options.sent && found.map((f) => ({ f, sent: options.sent!(f.part) })).find((x) => x.sent)
  if (prefixed?.sent) {
    const { part } = prefixed.f
    const { offset, bytes } = prefixed.sent
    if (offset + bytes !== at || bytes > part.byteLength)
      throw new Error('a sent prefix must end the body so far')
    refs.set(part, [offset, part.byteLength])
    chunks.push(part.subarray(bytes))
    at += part.byteLength - bytes
  }
  for (const { part } of found) {
    if (refs.has(part)) continue
    refs.set(part, [at, part.byteLength])
    chunks.push(part)
    at += part.byteLength
  }
  const first = prefixed?.f ?? found[0]!
  const json = JSON.stringify(value, (_key, v: unknown) =>
    v instanceof Uint8Array ? { $bytes: refs.get(v) } : v,
  )
  return {
    json,
    chunks: chunks.filter((c) => c.byteLength > 0),
    lead: { key: first.key, holder: plainMembers(first.holder), length: first.part.byteLength },
  }
}

/** The JSON and the footer that end a frames body. */
export function framesEnd(json: string): Uint8Array {
  const text = new TextEncoder().encode(json)
  const footer = '\n' + String(text.byteLength).padStart(FOOTER_BYTES - 1, '0')
  const out = new Uint8Array(text.byteLength + FOOTER_BYTES)
  out.set(text)
  new TextEncoder().encodeInto(footer, out.subarray(text.byteLength))
  return out
}

/** The lead header's value: its JSON in ASCII (a header carries no other text), each other character escaped. */
export function leadHeader(lead: FramesLead): string {
  return JSON.stringify(lead).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

/** The lead header's value, or undefined when it is absent or not one. */
export function readLead(header: string | null | undefined): FramesLead | undefined {
  if (!header || header.length > 8192) return undefined
  let v: unknown
  try {
    v = JSON.parse(header)
  } catch {
    return undefined
  }
  if (typeof v !== 'object' || v === null) return undefined
  const { key, holder, length, expectedBytes } = v as Record<string, unknown>
  const size = (n: unknown) => n === undefined || (Number.isSafeInteger(n) && (n as number) >= 0)
  if (typeof key !== 'string' || !size(length) || !size(expectedBytes)) return undefined
  return {
    key,
    holder: plainMembers(holder),
    ...(length !== undefined ? { length: length as number } : {}),
    ...(expectedBytes !== undefined ? { expectedBytes: expectedBytes as number } : {}),
  }
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

/**
 * The answer in `all` (a whole frames body): its JSON parsed, each reference a view of `all`, and each part
 * found passed to `found` with the key holding it and where it starts.
 */
function parseFrames(
  all: Uint8Array,
  found: (part: Uint8Array, key: string, start: number) => void = () => {},
): unknown {
  if (all.byteLength < FOOTER_BYTES) throw new Error('the answer has no end to its JSON part')
  const footer = new TextDecoder().decode(all.subarray(all.byteLength - FOOTER_BYTES))
  if (!/^\n\d{15}$/.test(footer)) throw new Error('the answer has no end to its JSON part')
  const jsonStart = all.byteLength - FOOTER_BYTES - Number(footer.slice(1))
  if (jsonStart < 0) throw new Error('the answer is shorter than its JSON part')
  const json = new TextDecoder().decode(all.subarray(jsonStart, all.byteLength - FOOTER_BYTES))
  return JSON.parse(json, (key, v: unknown) => {
    if (!isBytesRef(v)) return v
    const [offset, length] = v.$bytes
    if (offset < 0 || length < 0 || offset + length > jsonStart)
      throw new Error('the answer refers to bytes it does not hold')
    const view = new Uint8Array(all.buffer, all.byteOffset + offset, length)
    found(view, key, offset)
    return view
  })
}

/** The answer back from a whole frames body. */
export function decodeFrames(body: ArrayBuffer | Uint8Array): unknown {
  return parseFrames(body instanceof Uint8Array ? body : new Uint8Array(body))
}

/** Reads one byte part of an answer while it arrives (see `FramesReceiver`). */
export interface PartReader {
  /**
   * What has come from the part's first byte on. Where the part's length is not known while it arrives,
   * this may run on past its end into what follows it.
   */
  feed(received: Uint8Array): void
  /** The part whole (the same view the answer's value holds). */
  finish(whole: Uint8Array): void
}

/**
 * Part readers by the key their part is under in the answer, each made with what is known of the object
 * holding it (its plain members, such as a row count).
 */
export type PartReaders = Readonly<Record<string, (holder: Readonly<Record<string, unknown>>) => PartReader>>

/** A part reader is fed again once this many more of its bytes have come. */
const FEED_BYTES = 256 * 1024

/** Room a receiver takes when nothing tells it the answer's size, and the least it grows by. */
const START_BYTES = 1 << 20

/**
 * `decodeFrames` for an answer that arrives in pieces: they go into one buffer — of the stated length when
 * there is one, else of the size the lead expects, grown when it fills — and the first part, when the lead
 * header names it and `readers` has a reader for its key, is fed while its bytes arrive, so that reading it
 * is done when they are. `finish` gives what `decodeFrames` gives for the whole answer, and the same errors.
 * A reader that throws is dropped, and so is one whose part, in the end, is not the bytes it was fed (the
 * host voided them): what it reads is only ever a head start.
 */
export class FramesReceiver {
  /** The answer's buffer; a read that writes into it in place (`room`, `filled`) may hand it back anew. */
  private all: Uint8Array
  private received = 0
  private reader: PartReader | undefined
  private fed = 0
  /** The buffer's size. */
  private capacity: number
  private readonly length: number | undefined
  private readonly lead: FramesLead | undefined

  constructor(
    options: {
      /** The answer's stated length: it must be exactly that. */
      length?: number
      lead?: FramesLead
      readers?: PartReaders
    } = {},
  ) {
    this.length = options.length
    const lead = (this.lead = options.lead)
    this.all = new Uint8Array(options.length ?? Math.max(lead?.expectedBytes ?? 0, START_BYTES))
    this.capacity = this.all.byteLength
    const make =
      lead && options.readers && Object.hasOwn(options.readers, lead.key)
        ? options.readers[lead.key]
        : undefined
    if (make)
      try {
        this.reader = make(lead!.holder)
      } catch {
        // No head start.
      }
  }

  /** A piece of the answer, copied in after what came before. */
  push(piece: Uint8Array): void {
    this.ensure(piece.byteLength)
    this.all.set(piece, this.received)
    this.came(piece.byteLength)
  }

  /**
   * The part of the buffer still to be filled, for a read that writes into it in place (a stream's BYOB
   * read, which takes the buffer over while it writes): give what it wrote to `filled`. Empty once an
   * answer of stated length is whole; else never empty (the buffer grows).
   */
  room(): Uint8Array {
    if (this.length === undefined) this.ensure(1)
    return this.all.subarray(this.received)
  }

  /** What a read wrote into `room()`: a view at the same place, over the buffer as the read hands it back. */
  filled(written: Uint8Array): void {
    // (The read took the buffer over: `this.all` is detached until it is handed back.)
    if (written.byteOffset !== this.received || written.buffer.byteLength !== this.capacity)
      throw new Error('a read wrote somewhere other than the room it was given')
    this.all = new Uint8Array(written.buffer)
    this.came(written.byteLength)
  }

  /** Room for `bytes` more: past a stated length is an error; else the buffer grows (by half, at least). */
  private ensure(bytes: number): void {
    const need = this.received + bytes
    if (need <= this.capacity) return
    if (this.length !== undefined) throw new Error('the answer is longer than its stated length')
    const grown = new Uint8Array(Math.max(need, this.capacity + (this.capacity >> 1), START_BYTES))
    grown.set(this.all.subarray(0, this.received))
    this.all = grown
    this.capacity = grown.byteLength
  }

  private came(bytes: number): void {
    this.received += bytes
    if (!this.reader || this.received - this.fed < FEED_BYTES) return
    this.fed = this.received
    const have = Math.min(this.received, this.lead?.length ?? Infinity)
    this.guard(() => this.reader?.feed(this.all.subarray(0, have)))
  }

  /** The answer, once all of it has come. */
  finish(): unknown {
    if (this.length !== undefined && this.received !== this.length)
      throw new Error('the answer ended before its stated length')
    const reader = this.reader
    let leadPart: Uint8Array | undefined
    const value = parseFrames(this.all.subarray(0, this.received), (part, key, start) => {
      if (start === 0 && key === this.lead?.key) leadPart = part
    })
    // The reader was fed from the body's first byte: its part must start there.
    if (reader && leadPart) this.guard(() => reader.finish(leadPart!))
    return value
  }

  private guard(read: () => void): void {
    try {
      read()
    } catch {
      this.reader = undefined
    }
  }
}
