import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  decodeFrames,
  encodeFrames,
  FOOTER_BYTES,
  framesEnd,
  FramesReceiver,
  leadHeader,
  readLead,
  type FramesLead,
  type PartReader,
} from '../../../electron/contract/frames'

function concat(pieces: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.byteLength, 0))
  let at = 0
  for (const p of pieces) {
    out.set(p, at)
    at += p.byteLength
  }
  return out
}

/** The body the host sends for `value` (its parts, then the JSON and footer), and its lead. */
function framed(value: unknown): { whole: Uint8Array; lead?: FramesLead } {
  const { json, chunks, lead } = encodeFrames(value)
  return { whole: concat([...chunks, framesEnd(json)]), ...(lead ? { lead } : {}) }
}

describe('frames', () => {
  it('carries byte arrays as they are before the JSON, and gives them back in place', () => {
    const whole = new TextEncoder().encode('xx[{"a":"line\\nbreak"}]yy')
    const rows = whole.subarray(2, whole.length - 2)
    const value = {
      ok: true,
      value: { runId: 'r', rowCount: 1, rowsJson: rows, nested: [{ more: new Uint8Array([0, 10, 255]) }] },
    }
    expect(encodeFrames({ ok: true })).toEqual({ json: '{"ok":true}', chunks: [] })
    const { whole: body, lead } = framed(value)
    // The first part is named before it comes, with the plain members beside it.
    expect(lead).toEqual({ key: 'rowsJson', holder: { runId: 'r', rowCount: 1 }, length: rows.length })
    expect(new TextDecoder().decode(body.subarray(0, rows.length))).toBe('[{"a":"line\\nbreak"}]')
    const back = decodeFrames(body) as typeof value
    expect(back.value.runId).toBe('r')
    expect(back.value.rowsJson).toBeInstanceOf(Uint8Array)
    expect(new TextDecoder().decode(back.value.rowsJson)).toBe('[{"a":"line\\nbreak"}]')
    expect([...back.value.nested[0]!.more]).toEqual([0, 10, 255])
  })

  it('sends a byte array held twice once', () => {
    const part = new Uint8Array([1, 2, 3])
    const { chunks } = encodeFrames({ a: part, b: [part] })
    expect(chunks).toHaveLength(1)
    const back = decodeFrames(framed({ a: part, b: [part] }).whole) as { a: Uint8Array; b: Uint8Array[] }
    expect([...back.a]).toEqual([1, 2, 3])
    expect([...back.b[0]!]).toEqual([1, 2, 3])
  })

  it('refers to the first bytes of a part where they already went, and sends only its rest', () => {
    const rows = new TextEncoder().encode('[{"i":"0"},{"i":"1"}]')
    const other = new Uint8Array([9])
    // 5 void bytes (an attempt given up), then the first 10 bytes of the rows.
    const sentBefore = concat([new Uint8Array([1, 2, 3, 4, 5]), rows.subarray(0, 10)])
    const value = { ok: true, value: { other, rowsJson: rows } }
    const { json, chunks } = encodeFrames(value, {
      start: sentBefore.length,
      sent: (part) => (part === rows ? { offset: 5, bytes: 10 } : undefined),
    })
    // The rest of the rows comes first, right after their prefix; then the other part.
    expect(chunks.map((c) => c.byteLength)).toEqual([rows.length - 10, 1])
    const back = decodeFrames(concat([sentBefore, ...chunks, framesEnd(json)])) as typeof value
    expect(new TextDecoder().decode(back.value.rowsJson)).toBe('[{"i":"0"},{"i":"1"}]')
    expect([...back.value.other]).toEqual([9])
    expect(() =>
      encodeFrames(value, {
        start: 99,
        sent: (part) => (part === rows ? { offset: 5, bytes: 10 } : undefined),
      }),
    ).toThrow(/must end the body/)
  })

  it('leaves objects that only look like references alone, and refuses references past the JSON', () => {
    const look = { $bytes: [0, 1], other: true }
    expect(decodeFrames(framed({ look, p: new Uint8Array(1) }).whole)).toMatchObject({ look })
    const bad = concat([new TextEncoder().encode('ab'), framesEnd('{"v":{"$bytes":[0,3]}}')])
    expect(() => decodeFrames(bad)).toThrow(/does not hold/)
    expect(() => decodeFrames(new TextEncoder().encode('{}'))).toThrow(/no end/)
    expect(() => decodeFrames(new TextEncoder().encode('{}\n00000000000002'))).toThrow(/no end/)
    expect(() => decodeFrames(new TextEncoder().encode('{}\n000000000000099'))).toThrow(/shorter than/)
    expect(framesEnd('{}').byteLength).toBe(2 + FOOTER_BYTES)
  })

  it('reads a lead header, and nothing from one that is not', () => {
    expect(readLead('{"key":"rowsJson","holder":{"rowCount":3,"deep":{"x":1}},"expectedBytes":90}')).toEqual({
      key: 'rowsJson',
      holder: { rowCount: 3 },
      expectedBytes: 90,
    })
    // A header carries ASCII only: other characters go escaped, and come back.
    const named = { key: 'rowsJson', holder: { savedDataset: '東京 Zürich "q"\n' }, length: 3 }
    expect(leadHeader(named)).toMatch(/^[\x20-\x7e]+$/)
    expect(readLead(leadHeader(named))).toEqual(named)
    for (const header of [
      null,
      '',
      'nope',
      '{"holder":{}}',
      '{"key":"k","length":-1}',
      '{"key":"k","expectedBytes":1.5}',
    ])
      expect(readLead(header)).toBeUndefined()
  })
})

/** The answer with each byte array as its length and digest (quick to compare). */
const digest = (v: unknown) =>
  JSON.stringify(v, (_k, x: unknown) =>
    x instanceof Uint8Array ? `${x.length}:${createHash('sha256').update(x).digest('hex')}` : x,
  )

const rowsOf = (count: number) =>
  new TextEncoder().encode(`[${Array.from({ length: count }, (_, i) => `{"i":"${i}"}`).join(',')}]`)

/** A reader that records what it was fed (always from its part's first byte) and the part it finished with. */
function recorder(rows: Uint8Array) {
  const seen: number[] = []
  const state: { holder?: unknown; finished?: Uint8Array } = {}
  const make = (holder: Readonly<Record<string, unknown>>): PartReader => {
    state.holder = holder
    return {
      feed: (received) => {
        expect(received[0]).toBe(91)
        const n = Math.min(received.length, rows.length)
        expect(Buffer.from(received.subarray(0, n)).equals(Buffer.from(rows.subarray(0, n)))).toBe(true)
        seen.push(received.length)
      },
      finish: (part) => void (state.finished = part),
    }
  }
  return { seen, state, make }
}

describe('FramesReceiver', () => {
  const count = 100_000
  const rows = rowsOf(count)
  const value = { ok: true, value: { rowCount: count, rowsJson: rows, other: new Uint8Array([1, 2, 3]) } }
  const { whole, lead } = framed(value)

  function receive(
    pieceBytes: number,
    options: ConstructorParameters<typeof FramesReceiver>[0] = { length: whole.length, lead },
  ): unknown {
    const receiver = new FramesReceiver(options)
    for (let at = 0; at < whole.length; at += pieceBytes) receiver.push(whole.slice(at, at + pieceBytes))
    return receiver.finish()
  }

  it('gives what decodeFrames gives, however the answer is cut into pieces, with or without its length', () => {
    const expected = digest(decodeFrames(whole.slice()))
    for (const piece of [1 << 20, 65_536, 4_099, 7]) {
      expect(digest(receive(piece))).toBe(expected)
      // Without a length the buffer grows as the pieces come.
      expect(digest(receive(piece, { lead: { ...lead!, expectedBytes: 1000 } }))).toBe(expected)
    }
  })

  it('feeds the lead part’s reader its bytes as they arrive, then the part whole', () => {
    const { seen, state, make } = recorder(rows)
    const back = receive(65_536, { length: whole.length, lead, readers: { rowsJson: make } }) as typeof value
    expect(seen.length).toBeGreaterThan(1)
    expect(seen.at(-1)!).toBeLessThanOrEqual(rows.length)
    expect(seen).toEqual([...seen].sort((a, b) => a - b))
    expect(state.finished).toBe(back.value.rowsJson)
    expect(state.holder).toEqual({ rowCount: count })
  })

  it('drops a reader that throws, and the answer is unchanged', () => {
    const expected = digest(decodeFrames(whole.slice()))
    const throwing = (): PartReader => ({
      feed: () => {
        throw new Error('reader broke')
      },
      finish: () => {
        throw new Error('never reached')
      },
    })
    expect(digest(receive(65_536, { length: whole.length, lead, readers: { rowsJson: throwing } }))).toBe(
      expected,
    )
  })

  it('does not finish a reader with a part other than the bytes it was fed', () => {
    // The host forwarded rows that the answer then did not hold (a failure): the reader is not finished.
    const forwarded = rows.subarray(0, 300_000)
    const failure = { ok: false, error: { message: 'cut' } }
    const body = concat([forwarded, framesEnd(JSON.stringify(failure))])
    const { state, make } = recorder(rows)
    const receiver = new FramesReceiver({
      lead: { key: 'rowsJson', holder: {} },
      readers: { rowsJson: make },
    })
    for (let at = 0; at < body.length; at += 65_536) receiver.push(body.slice(at, at + 65_536))
    expect(receiver.finish()).toEqual(failure)
    expect(state.finished).toBeUndefined()
    // A part under another key at the first byte is not the lead's either.
    const other = framed({ list: rows.subarray(0, 1000) })
    const second = recorder(rows)
    const r2 = new FramesReceiver({
      lead: { key: 'rowsJson', holder: {} },
      readers: { rowsJson: second.make },
    })
    r2.push(other.whole)
    r2.finish()
    expect(second.state.finished).toBeUndefined()
  })

  it('refuses an answer longer or shorter than its stated length, or without its JSON part', () => {
    const short = new FramesReceiver({ length: whole.length + 1 })
    short.push(whole)
    expect(() => short.finish()).toThrow(/ended before/)
    const long = new FramesReceiver({ length: whole.length - 1 })
    expect(() => long.push(whole)).toThrow(/longer than/)
    const noJson = new FramesReceiver()
    noJson.push(new Uint8Array([123, 125]))
    expect(() => noJson.finish()).toThrow(/no end/)
    const cut = new FramesReceiver()
    cut.push(whole.subarray(0, whole.length - 3))
    expect(() => cut.finish()).toThrow()
  })
})

describe('FramesReceiver written in place', () => {
  const count = 50_000
  const rows = rowsOf(count)
  const value = { ok: true, value: { rowCount: count, rowsJson: rows, list: [new Uint8Array([7, 8])] } }
  const { whole, lead } = framed(value)

  /** A byte stream of the answer in pieces, read as a browser's BYOB reader reads it: into the room given. */
  async function receiveInPlace(
    piece: number,
    options: ConstructorParameters<typeof FramesReceiver>[0],
  ): Promise<unknown> {
    let at = 0
    const stream = new ReadableStream({
      type: 'bytes',
      pull(controller) {
        if (at >= whole.length) {
          controller.close()
          controller.byobRequest?.respond(0)
          return
        }
        controller.enqueue(whole.slice(at, at + piece))
        at += piece
      },
    })
    const reader = stream.getReader({ mode: 'byob' })
    const receiver = new FramesReceiver(options)
    for (;;) {
      const room = receiver.room()
      if (room.byteLength === 0) break
      const { done, value: written } = await reader.read(room)
      // The read takes the buffer over: the view it was given is empty now.
      expect(room.byteLength).toBe(0)
      if (written) receiver.filled(written)
      if (done) break
    }
    return receiver.finish()
  }

  it.each([
    ['of stated length', true],
    ['of no stated length, growing', false],
  ])(
    'gives what decodeFrames gives, every part a view of the buffer as it ends up (%s)',
    async (_, stated) => {
      const expected = digest(decodeFrames(whole.slice()))
      const { seen, state, make } = recorder(rows)
      const back = (await receiveInPlace(100_003, {
        ...(stated ? { length: whole.length } : {}),
        lead: { ...lead!, expectedBytes: stated ? undefined : 200_000 },
        readers: { rowsJson: make },
      })) as typeof value
      expect(digest(back)).toBe(expected)
      expect(back.value.rowsJson.byteLength).toBe(rows.length)
      expect([...back.value.list[0]!]).toEqual([7, 8])
      expect(state.finished).toBe(back.value.rowsJson)
      expect(seen.length).toBeGreaterThan(1)
    },
  )

  it('refuses a piece written anywhere but the room it was given', () => {
    const receiver = new FramesReceiver({ length: whole.length })
    expect(() => receiver.filled(new Uint8Array(whole.length).subarray(5, 10))).toThrow(/somewhere other/)
    expect(() => receiver.filled(new Uint8Array(10))).toThrow(/somewhere other/)
  })
})
