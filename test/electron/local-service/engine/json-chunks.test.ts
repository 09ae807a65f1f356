import { describe, expect, it } from 'vitest'
import { JsonChunkWriter } from '../../../../electron/local-service/engine/json-chunks'

/** Everything written, decoded, plus the chunk sizes seen. */
function collect(chunkSize: number, write: (out: JsonChunkWriter) => void) {
  const chunks: Uint8Array[] = []
  const out = new JsonChunkWriter((bytes) => chunks.push(bytes.slice()), chunkSize)
  write(out)
  out.flush()
  const all = Buffer.concat(chunks.map((c) => Buffer.from(c)))
  return { text: all.toString('utf8'), chunks }
}

const strings = [
  '',
  'plain ascii',
  'quote " and backslash \\',
  'tab\tnewline\ncontrol \u0001 \u001f',
  'Mumbai — मुंबई',
  'emoji 🌍 pair',
  'lone surrogate \ud800 here',
  'line sep \u2028 para \u2029',
  'del \u007f',
  'x'.repeat(5000),
]
const numbers = [
  0,
  -0,
  7,
  -42,
  123456789,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  2 ** 60,
  1.5,
  -0.001,
  1e21,
  5e-7,
  NaN,
  Infinity,
]

describe('JsonChunkWriter', () => {
  it('writes string literals exactly as JSON.stringify, split across chunks of any size', () => {
    for (const size of [4, 16, 1 << 18]) {
      const { text, chunks } = collect(size, (out) => {
        out.raw('[')
        strings.forEach((s, i) => {
          if (i > 0) out.raw(',')
          out.string(s)
        })
        out.raw(']')
      })
      expect(text).toBe(JSON.stringify(strings))
      expect(JSON.parse(text)).toEqual(strings)
      if (size === 16) expect(chunks.length).toBeGreaterThan(5)
    }
  })

  it('writes a number as the JSON string of String(n), integers digit by digit', () => {
    const { text } = collect(8, (out) => {
      out.raw('[')
      numbers.forEach((n, i) => {
        if (i > 0) out.raw(',')
        out.numberText(n)
      })
      out.raw(']')
    })
    expect(JSON.parse(text)).toEqual(numbers.map((n) => String(n)))
  })

  it('hands each chunk over with a buffer of its own (so it can be transferred)', () => {
    const buffers = new Set<ArrayBufferLike>()
    const out = new JsonChunkWriter((bytes) => buffers.add(bytes.buffer), 32)
    for (let i = 0; i < 100; i++) out.string(`row ${i}`)
    out.flush()
    expect(buffers.size).toBeGreaterThan(10)
  })
})
