import { ImportError } from './crs'

/**
 * A GeoJSON document read a chunk of bytes at a time, never held whole: the top-level object's members are
 * found by tracking strings, escapes and nesting depth, each element of a `features` array is cut out and
 * `JSON.parse`d on its own, and every other member's value is parsed when it ends (small: `type`, `crs`, a
 * bare Feature's `geometry`). Structural bytes are ASCII, which never occurs inside a UTF-8 sequence, so
 * the bytes are scanned undecoded and each piece decoded once; positions are byte offsets in the file.
 */

export interface GeoJsonScanEvents {
  /** A top-level member other than an array `features`, parsed (a later one of the same name follows). */
  member(key: string, value: unknown): void
  /**
   * A top-level `features` array starts (`occurrence` counts every `features` member, from 0): whether its
   * elements go to `feature`. They are parsed either way, so malformed JSON is refused wherever it is.
   */
  featuresStart(occurrence: number): boolean
  /** Element `index` of a `features` array `featuresStart` asked for, parsed. */
  feature(value: unknown, index: number): void
}

const State = {
  Start: 0,
  Bom1: 1,
  Bom2: 2,
  KeyOrEnd: 3,
  Key: 4,
  Colon: 5,
  Value: 6,
  AfterValue: 7,
  ElementOrEnd: 8,
  Element: 9,
  AfterElement: 10,
  Done: 11,
  Capture: 12,
} as const
type StateValue = (typeof State)[keyof typeof State]

/** What a value being cut out is: the member's name, a member's value, a feature, the whole document. */
const Target = {
  Key: 0,
  Member: 1,
  Element: 2,
  Document: 3,
} as const
type TargetValue = (typeof Target)[keyof typeof Target]

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

export const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v)

function shown(c: number): string {
  return c >= 0x20 && c < 0x7f ? `"${String.fromCharCode(c)}"` : `byte 0x${c.toString(16).padStart(2, '0')}`
}

export class GeoJsonScanner {
  private state: StateValue = State.Start
  /** The state a finished capture returns to (for a primitive, whose end is the next byte's business). */
  private target: TargetValue = Target.Document
  /** Byte offset in the file of the chunk being read. */
  private base = 0
  private boms = 0
  private key = ''
  private occurrence = -1
  private streaming = false
  private element = 0

  // The value being cut out.
  private kind: 'container' | 'string' | 'primitive' = 'container'
  private depth = 0
  private inString = false
  private escape = false
  private captureStart = 0
  private parts: Buffer[] = []

  constructor(private readonly events: GeoJsonScanEvents) {}

  /** Bytes read so far. */
  get position(): number {
    return this.base
  }

  /** Read the next bytes; `final` on the last (possibly empty) piece. */
  push(chunk: Uint8Array, final: boolean): void {
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    const n = buf.length
    let pieceStart = 0
    let i = 0
    while (i < n) {
      if (this.state === State.Capture) {
        i = this.capture(buf, i, pieceStart)
        continue
      }
      const c = buf[i]!
      if (isSpace(c) && this.state !== State.Bom1 && this.state !== State.Bom2) {
        i++
        continue
      }
      switch (this.state) {
        case State.Start:
          if (c === 0xef && this.boms < 2 && this.base + i === this.boms * 3) this.state = State.Bom1
          else if (c === 0x7b) this.state = State.KeyOrEnd
          else {
            pieceStart = i
            this.begin(Target.Document, c, i)
          }
          break
        case State.Bom1:
          if (c !== 0xbb) this.fail(i, `${shown(c)} where a GeoJSON object starts`)
          this.state = State.Bom2
          break
        case State.Bom2:
          if (c !== 0xbf) this.fail(i, `${shown(c)} where a GeoJSON object starts`)
          this.boms++
          this.state = State.Start
          break
        case State.KeyOrEnd:
        case State.Key:
          if (c === QUOTE) {
            pieceStart = i
            this.begin(Target.Key, c, i)
          } else if (c === 0x7d && this.state === State.KeyOrEnd) this.state = State.Done
          else this.fail(i, `${shown(c)} where a member name in double quotes was expected`)
          break
        case State.Colon:
          if (c !== COLON) this.fail(i, `${shown(c)} where ":" was expected after the member name`)
          this.state = State.Value
          break
        case State.Value:
          if (this.key === 'features' && c === 0x5b) {
            this.occurrence++
            this.streaming = this.events.featuresStart(this.occurrence)
            this.element = 0
            this.state = State.ElementOrEnd
          } else {
            if (this.key === 'features') this.occurrence++
            pieceStart = i
            this.begin(Target.Member, c, i)
          }
          break
        case State.AfterValue:
          if (c === COMMA) this.state = State.Key
          else if (c === 0x7d) this.state = State.Done
          else this.fail(i, `${shown(c)} where "," or "}" was expected after a member`)
          break
        case State.ElementOrEnd:
        case State.Element:
          if (c === 0x5d && this.state === State.ElementOrEnd) this.state = State.AfterValue
          else if (c === 0x5d || c === COMMA) this.fail(i, `${shown(c)} where a feature was expected`)
          else {
            pieceStart = i
            this.begin(Target.Element, c, i)
          }
          break
        case State.AfterElement:
          if (c === COMMA) this.state = State.Element
          else if (c === 0x5d) this.state = State.AfterValue
          else this.fail(i, `${shown(c)} where "," or "]" was expected after feature ${this.element - 1}`)
          break
        case State.Done:
          this.fail(i, `${shown(c)} after the end of the GeoJSON object`)
      }
      if ((this.state as StateValue) !== State.Capture) i++
    }
    if (this.state === State.Capture) {
      this.parts.push(Buffer.from(buf.subarray(pieceStart, n)))
    }
    this.base += n
    if (final) this.end()
  }

  /** Start cutting out a value at byte `i` (its first byte `c`). */
  private begin(target: TargetValue, c: number, i: number): void {
    this.target = target
    this.kind = c === 0x7b || c === 0x5b ? 'container' : c === QUOTE ? 'string' : 'primitive'
    this.depth = 0
    this.inString = false
    this.escape = false
    this.captureStart = this.base + i
    this.parts = []
    this.state = State.Capture
  }

  /** Read the value being cut out from byte `i`; the index after what it took. */
  private capture(buf: Buffer, i: number, pieceStart: number): number {
    const n = buf.length
    if (this.kind === 'primitive') {
      for (; i < n; i++) {
        const c = buf[i]!
        if (isSpace(c) || c === COMMA || c === 0x5d || c === 0x7d) {
          this.finish(buf, pieceStart, i)
          return i
        }
      }
      return i
    }
    let { depth, inString, escape } = this
    // A string value is a container of depth 0 that starts inside its quotes.
    if (this.kind === 'string' && this.captureStart === this.base + i) {
      inString = true
      i++
    }
    for (; i < n; i++) {
      const c = buf[i]!
      if (inString) {
        if (escape) escape = false
        else if (c === BACKSLASH) escape = true
        else if (c === QUOTE) {
          inString = false
          if (depth === 0) {
            this.finish(buf, pieceStart, i + 1)
            return i + 1
          }
        }
      } else if (c === QUOTE) inString = true
      else if (c === 0x7b || c === 0x5b) depth++
      else if (c === 0x7d || c === 0x5d) {
        if (--depth === 0) {
          this.finish(buf, pieceStart, i + 1)
          return i + 1
        }
      }
    }
    this.depth = depth
    this.inString = inString
    this.escape = escape
    return i
  }

  /** The value cut out ends before byte `end` of `buf`: parse it and hand it on. */
  private finish(buf: Buffer, pieceStart: number, end: number): void {
    const text =
      this.parts.length === 0
        ? buf.toString('utf8', pieceStart, end)
        : Buffer.concat([...this.parts, buf.subarray(pieceStart, end)]).toString('utf8')
    this.parts = []
    const at = this.captureStart
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      const message = (error as Error).message.slice(0, 160)
      const what =
        this.target === Target.Element
          ? `feature ${this.element} (bytes ${at}–${this.base + end})`
          : this.target === Target.Member
            ? `the member "${this.key.slice(0, 40)}" (at byte ${at})`
            : this.target === Target.Key
              ? `a member name (at byte ${at})`
              : `the document (at byte ${at})`
      throw new ImportError(`malformed JSON in ${what}: ${message}`)
    }
    switch (this.target) {
      case Target.Key:
        this.key = value as string
        this.state = State.Colon
        break
      case Target.Member:
        this.events.member(this.key, value)
        this.state = State.AfterValue
        break
      case Target.Element:
        if (this.streaming) this.events.feature(value, this.element)
        this.element++
        this.state = State.AfterElement
        break
      case Target.Document:
        throw new ImportError(`the document is ${kindOf(value)}, not a GeoJSON object`)
    }
  }

  private fail(i: number, what: string): never {
    throw new ImportError(`malformed JSON at byte ${this.base + i}: ${what}`)
  }

  /** The end of the file: anything left open is a truncated file. */
  private end(): void {
    if (this.state === State.Capture && this.kind === 'primitive') {
      this.finish(Buffer.alloc(0), 0, 0)
    }
    const at = `the file ends at byte ${this.base}`
    switch (this.state) {
      case State.Done:
        return
      case State.Start:
        throw new ImportError(
          `malformed JSON: ${this.base === 0 ? 'the file is empty' : 'no JSON value in the file'}`,
        )
      case State.Capture:
        if (this.target === Target.Element)
          throw new ImportError(
            `malformed JSON: ${at} inside feature ${this.element}, which starts at byte ${this.captureStart} (truncated file?)`,
          )
        throw new ImportError(
          `malformed JSON: ${at} inside a value that starts at byte ${this.captureStart} (truncated file?)`,
        )
      case State.ElementOrEnd:
      case State.Element:
      case State.AfterElement:
        throw new ImportError(
          `malformed JSON: ${at} inside the features array, after ${this.element} features (truncated file?)`,
        )
      default:
        throw new ImportError(`malformed JSON: ${at} before the GeoJSON object is closed (truncated file?)`)
    }
  }
}
