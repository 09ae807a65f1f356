import type { DatasetFeature, FieldInfo } from '../../../../electron/local-service/workspace/features'
import { mulberry32 } from '../../../../bench/join-data'

/** Marks a text the test damages after writing (`damaged`): nine bytes, replaced by nine that are not UTF-8. */
const DAMAGE = 'DAMAGE_ME'
const NOT_UTF8 = [0xc3, 0x28, 0xed, 0xa0, 0x80, 0xff, 0xe0, 0x80, 0xf0]

/**
 * Points with a text field of plain ASCII and one of text of every kind: non-ASCII, quotes, backslashes,
 * control characters, a BOM first (which decoding drops) or later, empty, null, missing, long (past a
 * 4 KB chunk), and marked to be damaged.
 */
export function textPoints(
  count: number,
  random = mulberry32(7),
): { features: DatasetFeature[]; fields: FieldInfo[] } {
  const fields: FieldInfo[] = [
    { name: 'id', type: 'number' },
    { name: 'plain', type: 'string' },
    { name: 'text', type: 'string' },
  ]
  const kinds = [
    (i: number) => `P${i}`,
    () => '',
    () => null,
    () => undefined,
    (i: number) => `Mumbai — मुंबई ${i}`,
    (i: number) => `emoji 🌍 ${i}`,
    (i: number) => `quote " and \\ backslash ${i}`,
    (i: number) => `tab\tnewline\n control \u0001\u001f del \u007f ${i}`,
    () => '\ufeffBOM first',
    (i: number) => `a \ufeff BOM later ${i}`,
    (i: number) => `line sep \u2028 ${i}`,
    (i: number) => `long ${i} é`.repeat(700),
    (i: number) => `x${DAMAGE}${i}`,
    () => DAMAGE,
  ]
  const features = Array.from({ length: count }, (_, i): DatasetFeature => {
    const properties: Record<string, unknown> = { id: i, plain: i % 9 === 0 ? null : `P${i}` }
    const text = kinds[i % kinds.length]!(i)
    if (text !== undefined) properties.text = text
    return { geometry: { type: 'Point', coordinates: [60 + random() * 40, -10 + random() * 50] }, properties }
  })
  return { features, fields }
}

/** The file with every `DAMAGE` text's bytes replaced by bytes that are not UTF-8. */
export function damaged(bytes: Uint8Array): Uint8Array {
  const out = bytes.slice()
  const mark = new TextEncoder().encode(DAMAGE)
  for (let at = Buffer.from(out).indexOf(mark); at >= 0; at = Buffer.from(out).indexOf(mark, at + 1))
    out.set(NOT_UTF8, at)
  return out
}
