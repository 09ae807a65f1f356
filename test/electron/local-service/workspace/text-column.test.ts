import { describe, expect, it } from 'vitest'
import { TextColumnBuilder } from '../../../../electron/local-service/workspace/text-column'
import { mulberry32 } from '../../../../bench/join-data'

const decoder = new TextDecoder()

/** Byte strings from a palette of the bytes that matter to UTF-8 (every lead and continuation bound, a BOM). */
function byteStrings(count: number, seed: number, palette: number[]): Uint8Array[] {
  const random = mulberry32(seed)
  return Array.from({ length: count }, () =>
    Uint8Array.from(
      { length: Math.floor(random() * 10) },
      () => palette[Math.floor(random() * palette.length)]!,
    ),
  )
}
const UTF8_PALETTE = [
  0x00, 0x22, 0x41, 0x5c, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbb, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1,
  0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff,
]
const plain = (b: Uint8Array) => b.every((c) => c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c)

describe('text columns', () => {
  it('give back each text as a TextDecoder decodes its bytes, its length, and null where there is none', () => {
    const texts = byteStrings(20_000, 3, UTF8_PALETTE)
    texts.push(
      ...['🌍 x', '\ufeffBOM first', 'a\ufeff', 'é'.repeat(40), ''].map((s) => new TextEncoder().encode(s)),
    )
    // From one buffer holding them all (as a file does), a null after every seventh.
    const all = Buffer.concat(texts)
    const builder = new TextColumnBuilder(0, 0)
    const expected: Array<string | null> = []
    let at = 0
    texts.forEach((t, i) => {
      builder.add(all, at, at + t.length)
      at += t.length
      expected.push(decoder.decode(t))
      if (i % 7 === 0) {
        builder.addNull()
        expected.push(null)
      }
    })
    const column = builder.finish()
    expect(column.length).toBe(expected.length)
    expected.forEach((text, i) => {
      expect(column.get(i)).toBe(text)
      expect(column.textLength(i)).toBe(text === null ? -1 : text.length)
    })
    expect(column.plain).toBe(false)
    expect(column.ascii).toBe(false)
  })

  it('know when every text is printable ASCII without quote or backslash, or at least ASCII', () => {
    const printable = Array.from({ length: 95 }, (_, i) => 0x20 + i).filter((c) => c !== 0x22 && c !== 0x5c)
    const cases: Array<[number[], boolean, boolean]> = [
      [printable, true, true],
      [[...printable, 0x22], false, true],
      [[...printable, 0x5c], false, true],
      [[...printable, 0x0a], false, true],
      [[...printable, 0x7f], false, true],
      [[...printable, 0xc3, 0xa9], false, false],
    ]
    for (const [palette, isPlain, isAscii] of cases) {
      // Short and long texts (the builder copies them two ways); the odd byte in a short one or a long one.
      const texts = byteStrings(300, 9, printable).map((t, i) =>
        i % 50 === 0 ? Buffer.from('x'.repeat(40)) : t,
      )
      const odd = palette.slice(printable.length)
      const short = Uint8Array.from([0x41, ...odd])
      const long = Buffer.from('y'.repeat(60) + Buffer.from(odd).toString('latin1'))
      for (const order of [
        [...texts, short],
        [short, ...texts],
        [...texts, long],
        [long, ...texts],
      ]) {
        const builder = new TextColumnBuilder(order.length, 16)
        for (const t of order) builder.add(t, 0, t.length)
        builder.addNull()
        const column = builder.finish()
        expect(column.plain, JSON.stringify(odd)).toBe(isPlain && order.every(plain))
        expect(column.ascii, JSON.stringify(odd)).toBe(isAscii)
        order.forEach((t, i) => expect(column.get(i)).toBe(decoder.decode(t)))
        expect(column.get(order.length)).toBeNull()
      }
    }
  })
})
