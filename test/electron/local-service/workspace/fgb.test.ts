import { describe, expect, it } from 'vitest'
import { buildFeature } from 'flatgeobuf/lib/mjs/generic/feature.js'
import { buildHeader } from 'flatgeobuf/lib/mjs/generic/featurecollection.js'
import { parseGC, parseGeometry } from 'flatgeobuf/lib/mjs/geojson/geometry.js'
import {
  readFlatGeobuf,
  readFlatGeobufTable,
  readFlatGeobufTableFrom,
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
      // ASCII of every length up to 14, each character another.
      ...Array.from({ length: 14 }, (_, n) =>
        Array.from({ length: n + 1 }, (_, k) => String.fromCharCode(1 + ((n * 17 + k * 29) % 127))).join(''),
      ),
    ]
    const pts: DatasetFeature[] = Array.from({ length: 80 }, (_, i) => ({
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

/** A file in memory read piecewise, at most `most` bytes a call; `asked` records each call's length. */
function memorySource(bytes: Uint8Array, most = Infinity) {
  const asked: number[] = []
  const spans: Array<[number, number]> = []
  return {
    asked,
    spans,
    size: bytes.length,
    read(into: Uint8Array, at: number, length: number, position: number): number {
      asked.push(length)
      spans.push([position, position + length])
      const n = Math.max(0, Math.min(length, most, bytes.length - position))
      into.set(bytes.subarray(position, position + n), at)
      return n
    },
  }
}

describe('reading a file piecewise', () => {
  const texts = ['', 'Pune, महाराष्ट्र', 'emoji 🌍', 'x'.repeat(300), '"q"']
  const many = (count: number): DatasetFeature[] =>
    Array.from({ length: count }, (_, i) => ({
      geometry: { type: 'Point', coordinates: [68 + i / 1000, 8 + i / 3000] },
      properties: { id: i, name: i % 9 === 0 ? null : `${texts[i % texts.length]}${i}` },
    }))
  const manyFields = [
    { name: 'id', type: 'number' as const },
    { name: 'name', type: 'string' as const },
  ]
  const whole = (bytes: Uint8Array) => outcome(() => readFlatGeobufTable(bytes))

  it('reads points a chunk at a time, features straddling chunks, as reading the file whole does', () => {
    const bytes = writeFlatGeobuf(many(2_000), manyFields)
    const expected = whole(bytes)
    expect(expected).toMatchObject({ columnar: true })
    for (const [chunk, most] of [
      [512, Infinity],
      [1000, Infinity],
      [4096, 97],
    ] as const) {
      const source = memorySource(bytes, most)
      expect(
        outcome(() => readFlatGeobufTableFrom(source, chunk)),
        `chunks of ${chunk}`,
      ).toEqual(expected)
      // Never the whole file at once: every feature came from a chunk.
      expect(Math.max(...source.asked)).toBeLessThanOrEqual(chunk)
      expect(source.asked.length).toBeGreaterThan(bytes.length / chunk)
    }
  })

  it('does not read the bytes of a spatial index, which no point read needs', () => {
    const count = 2_000
    const plain = writeFlatGeobuf(many(count), manyFields)
    const featuresAt = 8 + 4 + new DataView(plain.buffer).getUint32(8, true)
    const built = buildHeader(
      {
        geometryType: 1,
        columns: manyFields.map((f) => ({
          name: f.name,
          type: f.type === 'number' ? 10 : 11,
          title: null,
          description: null,
          width: -1,
          precision: -1,
          scale: -1,
          nullable: true,
          unique: false,
          primary_key: false,
        })),
        envelope: null,
        featuresCount: count,
        indexNodeSize: 0,
        crs: { code: 4326, org: 'EPSG', name: null, description: null, wkt: null, code_string: null },
        title: null,
        description: null,
        metadata: null,
      } as never,
      4326,
    )
    // The header grown to a multiple of 8 (its size prefix to match), so the features stay 8-aligned, and
    // its index node size (field 9, which the library writes as 0) set to 16.
    const header = new Uint8Array(Math.ceil(built.length / 8) * 8)
    header.set(built)
    const h = new DataView(header.buffer)
    h.setUint32(0, header.length - 4, true)
    const table = 4 + h.getUint32(4, true)
    const vtable = table - h.getInt32(table, true)
    h.setUint16(table + h.getUint16(vtable + 4 + 9 * 2, true), 16, true)
    let nodes = count
    for (let n = count; n > 1; nodes += n) n = Math.ceil(n / 16)
    const index = new Uint8Array(nodes * 40).fill(0xab)
    const file = new Uint8Array(8 + header.length + index.length + plain.length - featuresAt)
    file.set(plain.subarray(0, 8))
    file.set(header, 8)
    file.set(plain.subarray(featuresAt), 8 + header.length + index.length)
    const expected = whole(file)
    expect(expected).toEqual({ ...(whole(plain) as object) })
    const source = memorySource(file)
    expect(outcome(() => readFlatGeobufTableFrom(source, 4096))).toEqual(expected)
    const indexAt = 8 + header.length
    expect(index.length).toBeGreaterThan(4096)
    // The first chunk may hold the index's start; nothing is read from after that up to its end.
    for (const [from, to] of source.spans.slice(1))
      expect(to <= indexAt + 4096 || from >= indexAt + index.length).toBe(true)
    expect(Math.max(...source.asked)).toBeLessThanOrEqual(4096)
  })

  it('reads the whole file when a feature after the first chunk is not a point, or is larger than a chunk', () => {
    const polygon: DatasetFeature = {
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [70, 20],
            [71, 20],
            [71, 21],
            [70, 20],
          ],
        ],
      },
      properties: { id: -1, name: 'area' },
    }
    const cases: Array<[string, DatasetFeature]> = [
      ['a polygon', polygon],
      ['no geometry', { geometry: null, properties: { id: -2, name: 'none' } }],
      [
        'a point with z',
        { geometry: { type: 'Point', coordinates: [70, 20, 5] }, properties: { id: -3, name: 'z' } },
      ],
      [
        'a long text',
        {
          geometry: { type: 'Point', coordinates: [70, 20] },
          properties: { id: -4, name: 'y'.repeat(3000) },
        },
      ],
    ]
    for (const [what, odd] of cases) {
      const features = many(600)
      features.splice(500, 0, odd)
      const bytes = writeFlatGeobuf(features, manyFields)
      const source = memorySource(bytes)
      const read = outcome(() => readFlatGeobufTableFrom(source, 1024))
      expect(read, what).toEqual(whole(bytes))
      expect(source.asked, what).toContain(bytes.length)
      const found = read as { features: DatasetFeature[] }
      expect(found.features[500], what).toEqual(odd)
      expect(found.features).toHaveLength(601)
    }
  })

  it('gives the whole read’s error for a truncated file, a missing feature and damage in a later chunk', () => {
    const bytes = writeFlatGeobuf(many(600), manyFields)
    const starts = featureStarts(bytes)
    const damaged = bytes.slice()
    new DataView(damaged.buffer).setUint32(starts[400]! + 4, 0x7ffffff0, true)
    const cases: Array<[string, Uint8Array, RegExp]> = [
      [
        'cut in the last feature',
        bytes.slice(0, bytes.length - 5),
        /^feature 599 declares \d+ bytes but only/,
      ],
      [
        'cut before the last feature',
        bytes.slice(0, starts[599]),
        /the header declares 600 features but the file holds 599/,
      ],
      ['damaged', damaged, /^feature 400: the root offset points outside the data/],
    ]
    for (const [what, file, message] of cases) {
      const read = outcome(() => readFlatGeobufTableFrom(memorySource(file), 1024))
      expect(read, what).toEqual(whole(file))
      expect((read as { error: string }).error, what).toMatch(
        new RegExp(`^FlatGeobufError: ${message.source.replace(/^\^/, '')}`),
      )
    }
  })

  it('reads files whose features were not padded through the whole file, as before', () => {
    const features = many(300)
    const padded = writeFlatGeobuf(features, manyFields)
    const headerEnd = 8 + 4 + new DataView(padded.buffer).getUint32(8, true)
    const header = { columns: manyFields.map((f) => ({ name: f.name, type: f.type === 'number' ? 10 : 11 })) }
    const raw = features.map((f) =>
      buildFeature(parseGeometry(f.geometry as never), f.properties as never, header as never),
    )
    const file = new Uint8Array(headerEnd + raw.reduce((n, r) => n + r.length, 0))
    file.set(padded.subarray(0, headerEnd))
    let at = headerEnd
    for (const r of raw) {
      file.set(r, at)
      at += r.length
    }
    const source = memorySource(file)
    const read = outcome(() => readFlatGeobufTableFrom(source, 1024))
    expect(read).toEqual(whole(file))
    expect(read).toMatchObject({ columnar: true })
    expect((read as { features: unknown[] }).features).toHaveLength(300)
  })
})

/** Where each feature of a file without an index starts (its size prefix). */
function featureStarts(bytes: Uint8Array): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const starts: number[] = []
  let at = 8 + 4 + view.getUint32(8, true)
  while (at < bytes.length) {
    starts.push(at)
    at += 4 + view.getUint32(at, true)
  }
  return starts
}
