import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  decodeFrames,
  encodeFrames,
  FramesReceiver,
  type PartReader,
} from '../../../electron/contract/frames'

function body(value: unknown): ArrayBuffer {
  const { json, parts } = encodeFrames(value)
  const head = new TextEncoder().encode(json + '\n')
  const out = new Uint8Array(head.length + parts.reduce((n, p) => n + p.byteLength, 0))
  out.set(head)
  let at = head.length
  for (const p of parts) {
    out.set(p, at)
    at += p.byteLength
  }
  return out.buffer
}

describe('frames', () => {
  it('carries byte arrays as they are beside the JSON, and gives them back in place', () => {
    const whole = new TextEncoder().encode('xx[{"a":"line\\nbreak"}]yy')
    const rows = whole.subarray(2, whole.length - 2)
    const value = {
      ok: true,
      value: { runId: 'r', rowsJson: rows, nested: [{ more: new Uint8Array([0, 10, 255]) }] },
    }
    expect(encodeFrames({ ok: true }).parts).toEqual([])
    const back = decodeFrames(body(value)) as typeof value
    expect(back.value.runId).toBe('r')
    expect(back.value.rowsJson).toBeInstanceOf(Uint8Array)
    expect(new TextDecoder().decode(back.value.rowsJson)).toBe('[{"a":"line\\nbreak"}]')
    expect([...back.value.nested[0]!.more]).toEqual([0, 10, 255])
  })

  it('leaves objects that only look like references alone, and refuses references past the end', () => {
    const look = { $bytes: [0, 1], other: true }
    expect(decodeFrames(body({ look }))).toEqual({ look })
    const bad = new TextEncoder().encode('{"v":{"$bytes":[0,99]}}\nab')
    expect(() => decodeFrames(bad.buffer)).toThrow(/does not hold/)
    expect(() => decodeFrames(new TextEncoder().encode('{}').buffer)).toThrow(/no end/)
  })
})

/** The answer with each byte array as its length and digest (quick to compare). */
const digest = (v: unknown) =>
  JSON.stringify(v, (_k, x: unknown) =>
    x instanceof Uint8Array ? `${x.length}:${createHash('sha256').update(x).digest('hex')}` : x,
  )

describe('FramesReceiver', () => {
  const count = 100_000
  const rows = new TextEncoder().encode(
    `[${Array.from({ length: count }, (_, i) => `{"i":"${i}"}`).join(',')}]`,
  )
  const value = { ok: true, value: { rowCount: count, rowsJson: rows, other: new Uint8Array([1, 2, 3]) } }
  const whole = new Uint8Array(body(value))

  function receive(pieceBytes: number, readers = {}): { receiver: FramesReceiver; result: unknown } {
    const receiver = new FramesReceiver(whole.length, readers)
    for (let at = 0; at < whole.length; at += pieceBytes) receiver.push(whole.slice(at, at + pieceBytes))
    return { receiver, result: receiver.finish() }
  }

  it('gives what decodeFrames gives, however the answer is cut into pieces', () => {
    const expected = digest(decodeFrames(whole.slice().buffer))
    for (const piece of [1 << 20, 65_536, 4_099, 7]) expect(digest(receive(piece).result)).toBe(expected)
  })

  it('feeds a reader the bytes of its part as they arrive, then the part whole', () => {
    const seen: number[] = []
    let holder: unknown
    let finished: Uint8Array | undefined
    const { result } = receive(65_536, {
      rowsJson: (h: Readonly<Record<string, unknown>>): PartReader => {
        holder = h
        return {
          feed: (received) => {
            // Always from the part's first byte, and always what has come of it so far.
            expect(received[0]).toBe(91)
            expect(Buffer.from(received).equals(Buffer.from(rows.subarray(0, received.length)))).toBe(true)
            seen.push(received.length)
          },
          finish: (part) => void (finished = part),
        }
      },
    })
    const back = result as typeof value
    expect(seen.length).toBeGreaterThan(1)
    expect(seen.at(-1)!).toBeLessThan(rows.length)
    expect(seen).toEqual([...seen].sort((a, b) => a - b))
    expect(finished).toBe(back.value.rowsJson)
    expect(holder).toBe(back.value)
    expect((holder as { rowCount: number }).rowCount).toBe(count)
  })

  it('drops a reader that throws, and the answer is unchanged', () => {
    const expected = digest(decodeFrames(whole.slice().buffer))
    const throwing = (): PartReader => ({
      feed: () => {
        throw new Error('reader broke')
      },
      finish: () => {
        throw new Error('never reached')
      },
    })
    expect(digest(receive(65_536, { rowsJson: throwing }).result)).toBe(expected)
    expect(digest(receive(65_536, { other: throwing }).result)).toBe(expected)
  })

  it('refuses an answer longer or shorter than its stated length, or without its JSON part', () => {
    const short = new FramesReceiver(whole.length + 1)
    short.push(whole)
    expect(() => short.finish()).toThrow(/ended before/)
    const long = new FramesReceiver(whole.length - 1)
    expect(() => long.push(whole)).toThrow(/longer than/)
    const noJson = new FramesReceiver(2)
    noJson.push(new Uint8Array([123, 125]))
    expect(() => noJson.finish()).toThrow(/no end/)
    const bad = new TextEncoder().encode('{"v":{"$bytes":[0,99]}}\nab')
    expect(() => new FramesReceiver(bad.length).push(bad)).toThrow(/does not hold/)
  })
})

describe('FramesReceiver written in place', () => {
  const count = 50_000
  const rows = new TextEncoder().encode(
    `[${Array.from({ length: count }, (_, i) => `{"i":"${i}"}`).join(',')}]`,
  )
  const value = { ok: true, value: { rowCount: count, rowsJson: rows, list: [new Uint8Array([7, 8])] } }
  const whole = new Uint8Array(body(value))

  /** A byte stream of the answer in pieces, read as a browser's BYOB reader reads it: into the room given. */
  async function receiveInPlace(piece: number, readers = {}): Promise<unknown> {
    let at = 0
    const stream = new ReadableStream({
      type: 'bytes',
      pull(controller) {
        if (at >= whole.length) return controller.close()
        controller.enqueue(whole.slice(at, at + piece))
        at += piece
      },
    })
    const reader = stream.getReader({ mode: 'byob' })
    const receiver = new FramesReceiver(whole.length, readers)
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

  it('gives what decodeFrames gives, every part a view of the buffer as it ends up', async () => {
    const expected = digest(decodeFrames(whole.slice().buffer))
    const fed: number[] = []
    let finished: Uint8Array | undefined
    const back = (await receiveInPlace(100_003, {
      rowsJson: (): PartReader => ({
        feed: (received) => {
          expect(received[0]).toBe(91)
          fed.push(received.byteLength)
        },
        finish: (part) => void (finished = part),
      }),
    })) as typeof value
    expect(digest(back)).toBe(expected)
    expect(back.value.rowsJson.byteLength).toBe(rows.length)
    expect([...back.value.list[0]!]).toEqual([7, 8])
    expect(finished).toBe(back.value.rowsJson)
    expect(fed.length).toBeGreaterThan(1)
  })

  it('refuses a piece written anywhere but the room it was given', () => {
    const receiver = new FramesReceiver(whole.length)
    expect(() => receiver.filled(new Uint8Array(whole.length).subarray(5, 10))).toThrow(/somewhere other/)
    expect(() => receiver.filled(new Uint8Array(10))).toThrow(/somewhere other/)
  })
})
