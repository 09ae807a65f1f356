import { describe, expect, it } from 'vitest'
import { decodeFrames, encodeFrames } from '../../../electron/contract/frames'

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
