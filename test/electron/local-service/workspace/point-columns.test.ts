import { describe, expect, it } from 'vitest'
import {
  readFlatGeobuf,
  readFlatGeobufTable,
  readFlatGeobufTableFrom,
  writeFlatGeobuf,
} from '../../../../electron/local-service/workspace/fgb'
import type { DatasetFeature, FieldInfo } from '../../../../electron/local-service/workspace/features'
import { estimateTableBytes } from '../../../../electron/local-service/gis/engine/join-service'
import { mulberry32 } from '../../../../bench/join-data'
import { damaged, textPoints } from './text-points'

const random = mulberry32(5)
const point = (x: number, y: number): DatasetFeature['geometry'] => ({ type: 'Point', coordinates: [x, y] })

/** Points with values of every field type, each sometimes missing, null or empty. */
function points(count: number): { features: DatasetFeature[]; fields: FieldInfo[] } {
  const fields: FieldInfo[] = [
    { name: 'id', type: 'number' },
    { name: 'name', type: 'string' },
    { name: 'ok', type: 'boolean' },
    { name: 'extra', type: 'json' },
  ]
  const features = Array.from({ length: count }, (_, i): DatasetFeature => {
    const properties: Record<string, unknown> = {}
    if (i % 7 !== 0) properties.id = i % 5 === 0 ? -i * 1.25 : i
    if (i % 6 !== 1) properties.name = ['', `P${i}`, `"q" ${i} — मुंबई`, null][i % 4]
    if (i % 3 === 0) properties.ok = i % 2 === 0
    if (i % 4 === 2) properties.extra = [{ a: i }, 'text', [1, 2], '{"x"'][i % 8 === 2 ? 0 : 1 + (i % 3)]
    return { geometry: point(60 + random() * 40, -10 + random() * 50), properties }
  })
  return { features, fields }
}

/** What a caller sees of a decoded feature list: its values, and the key order of every properties object. */
const seen = (features: readonly DatasetFeature[]) =>
  features.map((f) => [f.geometry, Object.keys(f.properties), Object.values(f.properties)])

describe('points read column-wise', () => {
  it('give the same features as the feature reader: values of every type, missing, null and empty', () => {
    const { features, fields } = points(3_000)
    const bytes = writeFlatGeobuf(features, fields)
    const table = readFlatGeobufTable(bytes)
    const expected = readFlatGeobuf(bytes).features
    expect(table.points).toBeDefined()
    expect(table.fields).toEqual(fields)
    const made = table.points!.features()
    expect(seen(made)).toEqual(seen(expected))
    expect(made).toEqual(expected)
    // Made once: the same objects when asked again.
    expect(table.points!.features()).toBe(made)
  })

  it('read one feature’s geometry and property as its object holds them, any name', () => {
    const { features, fields } = points(500)
    const bytes = writeFlatGeobuf(features, fields)
    const columns = readFlatGeobufTable(bytes).points!
    const expected = readFlatGeobuf(bytes).features
    expect(columns.count).toBe(500)
    for (let i = 0; i < 500; i++) {
      expect(columns.geometry(i)).toEqual(expected[i]!.geometry)
      for (const name of ['id', 'name', 'ok', 'extra', 'missing', 'constructor', 'toString'])
        expect(columns.property(i, name)).toEqual(expected[i]!.properties[name])
    }
    expect(columns.column('name')).toEqual(expected.map((f) => f.properties.name))
    expect(columns.column('missing')).toBeUndefined()
  })

  it('give the same features for points without fields, with fields but no values, and none at all', () => {
    const bare = Array.from({ length: 40 }, (_, i) => ({ geometry: point(i, -i), properties: {} }))
    for (const [features, fields] of [
      [bare, []],
      [bare, [{ name: 'id', type: 'number' }]],
      [[], [{ name: 'id', type: 'number' }]],
    ] as Array<[DatasetFeature[], FieldInfo[]]>) {
      const bytes = writeFlatGeobuf(features, fields)
      const table = readFlatGeobufTable(bytes)
      expect(table.points!.count).toBe(features.length)
      expect(seen(table.points!.features())).toEqual(seen(readFlatGeobuf(bytes).features))
    }
  })

  it('are counted by the dataset cache as the same features made', () => {
    const { features, fields } = points(2_000)
    const columns = readFlatGeobufTable(writeFlatGeobuf(features, fields)).points!
    expect(estimateTableBytes(columns)).toBe(estimateTableBytes(columns.features()))
  })

  it('are not used for other datasets: polygons, mixed, points after a feature without geometry', () => {
    const { features, fields } = points(200)
    const polygon: DatasetFeature = {
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      },
      properties: { id: 1, name: 'poly' },
    }
    const line: DatasetFeature = {
      geometry: {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      },
      properties: { name: 'line' },
    }
    const cases: DatasetFeature[][] = [
      [polygon, polygon],
      [...features, polygon, ...features],
      [...features.slice(0, 10), line],
      [{ geometry: null, properties: { id: 3 } }, ...features],
      [...features, { geometry: null, properties: {} }],
      [{ geometry: { type: 'MultiPoint', coordinates: [[1, 2]] }, properties: {} }, ...features],
    ]
    for (const c of cases) {
      const bytes = writeFlatGeobuf(c, fields)
      const table = readFlatGeobufTable(bytes)
      expect(table.points).toBeUndefined()
      expect(seen(table.features!)).toEqual(seen(readFlatGeobuf(bytes).features))
      expect(table.features).toEqual(readFlatGeobuf(bytes).features)
    }
  })

  it('are not used when fields repeat a name or one is named __proto__', () => {
    const features = [{ geometry: point(1, 2), properties: { a: 1, zzproto__: 'x' } }]
    const repeated = writeFlatGeobuf(features, [
      { name: 'a', type: 'number' },
      { name: 'a', type: 'string' },
    ])
    // A column named __proto__ (the writer cannot name one so): the name's bytes replaced in the header.
    const proto = writeFlatGeobuf(features, [{ name: 'zzproto__', type: 'string' }])
    const name = proto.indexOf(0x7a)
    proto.set(new TextEncoder().encode('__'), name)
    for (const bytes of [repeated, proto]) {
      const table = readFlatGeobufTable(bytes)
      expect(table.points).toBeUndefined()
      expect(table.features).toEqual(readFlatGeobuf(bytes).features)
    }
    expect(readFlatGeobufTable(proto).fields).toEqual([{ name: '__proto__', type: 'string' }])
  })

  it('read text of every kind as the feature reader does: non-ASCII, escapes, empty, null, long, damaged bytes', () => {
    const { features, fields } = textPoints(2_000)
    const bytes = damaged(writeFlatGeobuf(features, fields))
    const expected = readFlatGeobuf(bytes, false).features
    // The damage is there: replacement characters where the bytes are not UTF-8, and no BOM.
    const texts = expected.map((f) => f.properties.text)
    expect(texts.filter((t) => typeof t === 'string' && t.includes('\ufffd')).length).toBeGreaterThan(10)
    expect(texts).toContain('BOM first')
    const source = {
      size: bytes.length,
      read: (into: Uint8Array, at: number, length: number, position: number) => {
        const n = Math.max(0, Math.min(length, bytes.length - position))
        into.set(bytes.subarray(position, position + n), at)
        return n
      },
    }
    // Whole, and a chunk at a time (texts straddling chunks).
    for (const table of [readFlatGeobufTable(bytes), readFlatGeobufTableFrom(source, 4096)]) {
      const columns = table.points!
      expect(seen(columns.features())).toEqual(seen(expected))
      for (const name of ['plain', 'text'])
        expect(columns.column(name), name).toEqual(expected.map((f) => f.properties[name]))
      for (let i = 0; i < 2_000; i += 7)
        expect(columns.property(i, 'text')).toBe(expected[i]!.properties.text)
      const read = columns.reader('text')
      for (let i = 0; i < 2_000; i += 5) expect(read(i)).toBe(expected[i]!.properties.text)
      expect(estimateTableBytes(columns)).toBe(estimateTableBytes(columns.features()))
    }
  })
})
