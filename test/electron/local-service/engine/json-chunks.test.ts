import { describe, expect, it } from 'vitest'
import { destroy, loadGeos, toGeos, toWkt } from '../../../../electron/local-service/engine/geos'
import { JsonChunkWriter } from '../../../../electron/local-service/engine/json-chunks'
import { mulberry32 } from '../../../../bench/join-data'

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
    const random = mulberry32(3)
    const all = [
      ...numbers,
      2 ** 31 - 1,
      2 ** 31,
      -(2 ** 31),
      2 ** 32,
      1e9,
      1e10 - 1,
      1e10,
      1e15,
      2 ** 53 - 1,
    ]
    // Integers of every length, 1 to 16 digits, either sign, and powers of ten and their neighbours.
    for (let i = 0; i < 5_000; i++) {
      const digits = 1 + (i % 16)
      const v = Math.floor(random() * 10 ** digits)
      all.push(i % 2 ? -v : v)
    }
    for (let d = 0; d <= 15; d++) all.push(10 ** d - 1, 10 ** d, 10 ** d + 1)
    const { text } = collect(8, (out) => {
      out.raw('[')
      all.forEach((n, i) => {
        if (i > 0) out.raw(',')
        out.numberText(n)
      })
      out.raw(']')
    })
    expect(JSON.parse(text)).toEqual(all.map((n) => String(n)))
  })

  it('hands each chunk over with a buffer of its own (so it can be transferred)', () => {
    const buffers = new Set<ArrayBufferLike>()
    const out = new JsonChunkWriter((bytes) => buffers.add(bytes.buffer), 32)
    for (let i = 0; i < 100; i++) out.string(`row ${i}`)
    out.flush()
    expect(buffers.size).toBeGreaterThan(10)
  })

  it('hands an answer that fits in one chunk over as one part, and a longer one in full chunks', () => {
    // About 60 bytes a row once escaped: a thousand rows fit in a 64 KiB chunk, five thousand need five.
    const row = (i: number) => `{"prop1":"${i}","prop2":"feature number ${i}"},`
    for (const [rows, parts] of [
      [10, 1],
      [1_000, 1],
      [2_000, 2],
      [5_000, 5],
    ] as const) {
      const sizes: number[] = []
      let text = ''
      const out = new JsonChunkWriter((bytes) => {
        sizes.push(bytes.length)
        text += Buffer.from(bytes).toString('utf8')
      }, 1 << 16)
      let expected = ''
      for (let i = 0; i < rows; i++) {
        out.string(row(i))
        expected += JSON.stringify(row(i))
      }
      out.flush()
      expect(text).toBe(expected)
      expect(sizes.length).toBe(parts)
      // Every part but the last fills its chunk (to within the room a value that did not fit asked for).
      for (const size of sizes.slice(0, -1)) expect(size).toBeGreaterThan((1 << 16) - 256)
    }
  })

  it('hands over buffers holding nothing but what was written (zeros past it), even when reused memory was not', () => {
    // Garbage in freed memory first, which the next chunks' buffers may be made from.
    for (let i = 0; i < 50; i++) Buffer.allocUnsafeSlow(1 << 16).fill(0xee)
    const handed: Uint8Array[] = []
    const out = new JsonChunkWriter((bytes) => handed.push(bytes), 1 << 16)
    for (let i = 0; i < 20_000; i++) out.string(`row ${i}`)
    out.flush()
    for (const bytes of handed) {
      const whole = new Uint8Array(bytes.buffer)
      expect(whole.subarray(0, bytes.byteOffset).every((b) => b === 0)).toBe(true)
      expect(whole.subarray(bytes.byteOffset + bytes.byteLength).every((b) => b === 0)).toBe(true)
      expect(bytes.includes(0xee)).toBe(false)
    }
  })

  it('copies encoded bytes of any length, across chunk boundaries', () => {
    const parts = [1, 2, 31, 32, 33, 100, 5000].map((n) =>
      Uint8Array.from({ length: n }, (_, i) => 0x61 + (i % 26)),
    )
    for (const size of [8, 64, 1 << 18]) {
      const { text } = collect(size, (out) => {
        for (const p of parts) out.bytes(p)
        out.byte(0x2c)
      })
      expect(text).toBe(parts.map((p) => Buffer.from(p).toString('latin1')).join('') + ',')
    }
  })

  it('writes the string literal of UTF-8 bytes as JSON.stringify writes their text, or nothing when it cannot', () => {
    const decoder = new TextDecoder()
    const encoder = new TextEncoder()
    // Texts of every kind as a writer encodes them, then byte strings from a palette of the bytes that
    // matter (controls, quote, backslash, DEL, every lead and continuation bound, a BOM, bytes never valid).
    const cases = strings.map((s) => encoder.encode(s))
    cases.push(encoder.encode('\ufeffBOM first'), encoder.encode('a \ufeff BOM later'))
    const palette = [
      0x00, 0x01, 0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x1f, 0x20, 0x22, 0x2f, 0x41, 0x5c, 0x7e, 0x7f, 0x80, 0x8f,
      0x90, 0x9f, 0xa0, 0xbb, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff,
    ]
    const random = mulberry32(12)
    for (let i = 0; i < 40_000; i++)
      cases.push(
        Uint8Array.from(
          { length: Math.floor(random() * 10) },
          () => palette[Math.floor(random() * palette.length)]!,
        ),
      )
    let written = 0
    let refused = 0
    for (const size of [4, 1 << 18]) {
      for (const bytes of cases) {
        const text = decoder.decode(bytes)
        // Placed mid-array, with a byte before and after: what is written is exactly the literal.
        const padded = Uint8Array.of(0x78, ...bytes, 0x79)
        const chunks: Uint8Array[] = []
        const out = new JsonChunkWriter((b) => chunks.push(b.slice()), size)
        out.byte(0x5b)
        const ok = out.utf8String(padded, 1, 1 + bytes.length)
        out.byte(0x5d)
        out.flush()
        const got = Buffer.concat(chunks)
        if (ok) {
          written++
          expect(
            got.equals(Buffer.from(`[${JSON.stringify(text)}]`)),
            `${Buffer.from(bytes).toString('hex')}`,
          ).toBe(true)
        } else {
          refused++
          expect(got.toString()).toBe('[]')
        }
        // Bytes that are the text's own encoding (well-formed, no BOM dropped) are always written.
        if (Buffer.from(encoder.encode(text)).equals(bytes))
          expect(ok, Buffer.from(bytes).toString('hex')).toBe(true)
      }
    }
    expect(written).toBeGreaterThan(10_000)
    expect(refused).toBeGreaterThan(10_000)
  })

  it('writes plain ASCII bytes quoted, of any length, across chunk boundaries', () => {
    const parts = [0, 1, 31, 32, 33, 5000].map((n) =>
      Uint8Array.from({ length: n }, (_, i) => 0x20 + (i % 95)),
    )
    const plain = parts.map((p) => Uint8Array.from(p, (c) => (c === 0x22 || c === 0x5c ? 0x41 : c)))
    for (const size of [8, 1 << 18]) {
      const { text } = collect(size, (out) => {
        out.byte(0x5b)
        plain.forEach((p, i) => {
          if (i > 0) out.byte(0x2c)
          out.plainString(Uint8Array.of(0x22, ...p, 0x22), 1, 1 + p.length)
        })
        out.byte(0x5d)
      })
      expect(text).toBe(JSON.stringify(plain.map((p) => Buffer.from(p).toString('latin1'))))
    }
  })

  it("writes a point's WKT exactly as the GEOS WKT writer does, or leaves it to GEOS", async () => {
    const geos = await loadGeos()
    const geosText = (x: number, y: number) => {
      const ptr = toGeos(geos, { type: 'Point', coordinates: [x, y] })
      try {
        return toWkt(geos, ptr)
      } finally {
        destroy(geos, ptr)
      }
    }
    const random = mulberry32(11)
    const values: number[] = [
      0,
      -0,
      1,
      -1,
      180,
      -180,
      90,
      -90,
      0.1 + 0.2,
      1e-4,
      9.999e-5,
      1e-5,
      1e-7,
      1e15,
      1e16,
      1e17,
      1e21,
      123456789012345.6,
      1.0000000000000002,
      100.00000000000001,
      0.14565753411608284,
      2 ** 53,
      NaN,
      Infinity,
      -Infinity,
      Number.MIN_VALUE,
      Number.MAX_VALUE,
      // At most 7 decimals: written digit by digit.
      0.00012,
      0.0000999,
      999999.9999999,
      1e6,
      123456.1,
      -0.5,
      68.0000001,
      -97.1000001,
      8.00001,
      179.9999999,
      0.1234567,
    ]
    for (let i = 0; i < 20_000; i++) {
      // Every magnitude from 1e-9 to 1e17, with 0 to 17 decimals kept.
      let v = (random() * 2 - 1) * 10 ** (Math.floor(random() * 27) - 9)
      if (random() < 0.6)
        v = Math.round(v * 10 ** Math.floor(random() * 18)) / 10 ** Math.floor(random() * 18)
      values.push(v)
    }
    let written = 0
    for (let i = 0; i < values.length; i++) {
      const x = values[i]!
      const y = values[(i * 7 + 3) % values.length]!
      const { text } = collect(64, (out) => {
        if (out.pointWkt(x, y)) written++
      })
      // Either exactly what GEOS writes, or nothing (the caller then asks GEOS).
      if (text !== '') expect(JSON.parse(text), `${x} ${y}`).toBe(geosText(x, y))
    }
    // Longitudes and latitudes as datasets hold them always take the direct path.
    for (let i = 0; i < 2_000; i++) {
      const x = Math.round((random() * 360 - 180) * 1e7) / 1e7
      const y = Math.round((random() * 180 - 90) * 1e9) / 1e9
      const { text } = collect(64, (out) => expect(out.pointWkt(x, y)).toBe(true))
      expect(JSON.parse(text)).toBe(geosText(x, y))
    }
    expect(written).toBeGreaterThan(values.length / 4)
  })
})
