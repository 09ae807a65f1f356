import { describe, expect, it } from 'vitest'
import { buildFeature } from 'flatgeobuf/lib/mjs/generic/feature.js'
import { parseGC, parseGeometry } from 'flatgeobuf/lib/mjs/geojson/geometry.js'
import {
  readFlatGeobuf,
  readFlatGeobufTable,
  writeFlatGeobuf,
} from '../../../../electron/local-service/workspace/fgb'
import { mulberry32 } from '../../../../bench/join-data'
import type { DatasetFeature } from '../../../../electron/local-service/workspace/features'

const features: DatasetFeature[] = [
  { geometry: { type: 'Point', coordinates: [70, 20] }, properties: { name: 'a' } },
  { geometry: null, properties: { name: 'b' } },
  { geometry: { type: 'Point', coordinates: [72, 22] }, properties: { name: 'c' } },
]
const fields = [{ name: 'name', type: 'string' as const }]

describe('FlatGeobuf storage', () => {
  it('reads back a feature without geometry followed by others (each feature padded to 8 bytes)', () => {
    expect(readFlatGeobuf(writeFlatGeobuf(features, fields)).features).toEqual(features)
  })

  it('reads files whose features were not padded (misaligned doubles are read from a copy)', () => {
    const padded = writeFlatGeobuf(features, fields)
    // Rebuild the same file the way it was written before: features back to back, unpadded.
    const headerEnd = 8 + 4 + new DataView(padded.buffer).getUint32(8, true)
    const header = { columns: [{ name: 'name', type: 11 }] } as never
    const raw = features.map((f) =>
      buildFeature(
        f.geometry
          ? parseGeometry(f.geometry as never)
          : parseGC({ type: 'GeometryCollection', geometries: [] }),
        f.properties as never,
        header,
      ),
    )
    expect(raw.some((r) => r.length % 8 !== 0)).toBe(true)
    const file = new Uint8Array(headerEnd + raw.reduce((n, r) => n + r.length, 0))
    file.set(padded.subarray(0, headerEnd))
    let at = headerEnd
    for (const r of raw) {
      file.set(r, at)
      at += r.length
    }
    expect(readFlatGeobuf(file).features).toEqual(features)
  })
})

describe('FlatGeobuf reading of points', () => {
  it('reads points exactly as the flatgeobuf library does, every field type, missing values and any text', async () => {
    const { deserialize } = await import('flatgeobuf/lib/mjs/geojson.js')
    const texts = [
      'P1',
      '',
      'Pune, महाराष्ट्र',
      '\ufeffBOM first',
      'tab\tand "quotes"',
      'emoji 🌍',
      'x'.repeat(300),
    ]
    const pts: DatasetFeature[] = Array.from({ length: 40 }, (_, i) => ({
      geometry: { type: 'Point', coordinates: [68 + i / 7, 8 + i / 3] },
      properties: {
        s: i % 5 === 4 ? null : texts[i % texts.length]!,
        n: i % 6 === 5 ? null : i * 1.25 - 3,
        b: i % 4 === 3 ? null : i % 2 === 0,
        j: i % 3 === 0 ? { a: [i, 'x'] } : i % 3 === 1 ? null : `"text ${i}"`,
      },
    }))
    pts.push({ geometry: { type: 'Point', coordinates: [70, 20, 5] }, properties: { s: 'with z' } })
    pts.push({ geometry: null, properties: { s: 'no geometry' } })
    const fields = [
      { name: 's', type: 'string' as const },
      { name: 'n', type: 'number' as const },
      { name: 'b', type: 'boolean' as const },
      { name: 'j', type: 'json' as const },
    ]
    const bytes = writeFlatGeobuf(pts, fields)
    const byLibrary: Array<{ geometry: unknown; properties: Record<string, unknown> }> = []
    for await (const f of deserialize(bytes, {} as never)) byLibrary.push(f as never)
    const read = readFlatGeobuf(bytes).features
    expect(read).toHaveLength(pts.length)
    read.forEach((f, i) => {
      const lib = byLibrary[i]!
      // The library's reading, with every field present (null when missing) and JSON text parsed once more.
      const expected: Record<string, unknown> = {}
      for (const { name, type } of fields) {
        let v = lib.properties?.[name] ?? null
        if (type === 'json' && typeof v === 'string') v = JSON.parse(v)
        expected[name] = v
      }
      expect(f.problem).toBeUndefined()
      expect(f.properties, `feature ${i}`).toEqual(expected)
      expect(Object.keys(f.properties)).toEqual(fields.map((x) => x.name))
      const geometry = lib.geometry as { type: string; geometries?: unknown[] }
      expect(f.geometry, `feature ${i}`).toEqual(
        geometry.type === 'GeometryCollection' && geometry.geometries?.length === 0 ? null : geometry,
      )
    })
    expect(read.at(-2)!.geometry).toEqual({ type: 'Point', coordinates: [70, 20, 5] })
    expect(read[2]!.properties.s).toBe('Pune, महाराष्ट्र')
  })
})

describe('FlatGeobuf writing', () => {
  it('writes what the flatgeobuf library itself reads back, every field type and geometry type included', async () => {
    const { deserialize } = await import('flatgeobuf/lib/mjs/geojson.js')
    const mixed: DatasetFeature[] = [
      {
        geometry: { type: 'Point', coordinates: [70, 20] },
        properties: { s: 'Pune, महाराष्ट्र', n: 1.5, b: true, j: { a: [1, 'x'] } },
      },
      {
        geometry: {
          type: 'MultiPolygon',
          coordinates: [
            [
              [
                [70, 20],
                [71, 20],
                [71, 21],
                [70, 20],
              ],
            ],
          ],
        },
        properties: { s: '', n: -0, b: false, j: null },
      },
      {
        geometry: {
          type: 'GeometryCollection',
          geometries: [
            {
              type: 'LineString',
              coordinates: [
                [70, 20],
                [71, 21],
              ],
            },
          ],
        },
        properties: { s: null, n: null, b: null, j: [1] },
      },
    ]
    const mixedFields = [
      { name: 's', type: 'string' as const },
      { name: 'n', type: 'number' as const },
      { name: 'b', type: 'boolean' as const },
      { name: 'j', type: 'json' as const },
    ]
    const bytes = writeFlatGeobuf(mixed, mixedFields)
    const byLibrary: Array<{ geometry: unknown; properties: Record<string, unknown> }> = []
    for await (const f of deserialize(bytes, {} as never)) byLibrary.push(f as never)
    expect(byLibrary.map((f) => f.geometry)).toEqual(mixed.map((f) => f.geometry))
    expect(byLibrary[0]!.properties).toEqual({ s: 'Pune, महाराष्ट्र', n: 1.5, b: true, j: { a: [1, 'x'] } })
    expect(readFlatGeobuf(bytes).features.map((f) => f.properties)).toEqual(mixed.map((f) => f.properties))
  })
})

/** What a read gives a caller: the error's name and message, or each feature and whether points came column-wise. */
function outcome(read: () => { points?: { features(): unknown[] }; features?: unknown[] }): unknown {
  try {
    const r = read()
    return { columnar: !!r.points, features: r.points ? r.points.features() : r.features }
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` }
  }
}

describe('the direct reading of points', () => {
  const texts = ['P1', '', 'Pune, महाराष्ट्र', 'x'.repeat(40)]
  const pts: DatasetFeature[] = Array.from({ length: 24 }, (_, i) => ({
    geometry: { type: 'Point', coordinates: [68 + i / 7, 8 + i / 3] },
    properties: {
      s: i % 5 === 4 ? null : texts[i % texts.length]!,
      n: i % 6 === 5 ? null : i * 1.25 - 3,
      b: i % 4 === 3 ? null : i % 2 === 0,
      j: i % 3 === 0 ? { a: [i, 'x'] } : null,
    },
  }))
  const ptsFields = [
    { name: 's', type: 'string' as const },
    { name: 'n', type: 'number' as const },
    { name: 'b', type: 'boolean' as const },
    { name: 'j', type: 'json' as const },
  ]

  it('gives what the general check and path give for any damage to the features, answer or error', () => {
    const good = writeFlatGeobuf(pts, ptsFields)
    const first = 8 + 4 + new DataView(good.buffer).getUint32(8, true)
    const expected = JSON.stringify(outcome(() => readFlatGeobufTable(good)))
    let differed = 0
    const compare = (bytes: Uint8Array, what: string) => {
      const general = outcome(() => readFlatGeobufTable(bytes, true, false))
      expect(
        outcome(() => readFlatGeobufTable(bytes, true, true)),
        what,
      ).toEqual(general)
      expect(
        outcome(() => readFlatGeobuf(bytes, true)),
        what,
      ).toEqual(outcome(() => readFlatGeobuf(bytes, false)))
      if (JSON.stringify(general) !== expected) differed++
    }
    // Every byte of the first three features set to values offsets and lengths often take, and next to its own.
    const special = [0, 1, 2, 3, 4, 7, 8, 0x7f, 0x80, 0xfe, 0xff]
    let end = first
    for (let k = 0; k < 3; k++) end += 4 + new DataView(good.buffer).getUint32(end, true)
    for (let at = first; at < end; at++) {
      for (const value of [...special, good[at]! + 1, good[at]! - 1, good[at]! ^ 0x80]) {
        if ((value & 0xff) === good[at]) continue
        const bytes = good.slice()
        bytes[at] = value & 0xff
        compare(bytes, `byte ${at} set to ${value & 0xff}`)
      }
    }
    // And one to three bytes anywhere in the features, any value.
    const random = mulberry32(11)
    for (let trial = 0; trial < 1500; trial++) {
      const bytes = good.slice()
      for (let k = 1 + Math.floor(random() * 3); k > 0; k--)
        bytes[first + Math.floor(random() * (bytes.length - first))] = Math.floor(random() * 256)
      compare(bytes, `trial ${trial}`)
    }
    // The damage reached the answer (errors, problems, other values) in many trials, not only in padding.
    expect(differed).toBeGreaterThan(1000)
  })
})
