import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ImportError } from '../../../../electron/local-service/import/crs'
import { GeoJsonScanner } from '../../../../electron/local-service/import/geojson-scan'
import { readImportFile } from '../../../../electron/local-service/import/import-dataset'
import { importInWorker } from '../../../../electron/local-service/import/import-runner'
import { stageJsonStreamed, type JsonFormat } from '../../../../electron/local-service/import/json-import'
import { NdjsonLineSplitter } from '../../../../electron/local-service/import/ndjson-scan'
import { Workspace } from '../../../../electron/local-service/workspace/workspace'

const dir = mkdtempSync(path.join(os.tmpdir(), 'json-stream-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let n = 0
const file = (text: string | Uint8Array, ext: string) => {
  const f = path.join(dir, `f${n++}.${ext}`)
  writeFileSync(f, text)
  return f
}

/** Bytes fed to a scanner in pieces of `size` (then the final empty piece). */
function feed(bytes: Uint8Array, size: number, push: (piece: Uint8Array, final: boolean) => void) {
  for (let at = 0; at < bytes.length; at += size) push(bytes.slice(at, at + size), false)
  push(new Uint8Array(0), true)
}

/** What the scanner finds in a text fed `size` bytes at a time: members, features, or the refusal. */
function scan(text: string | Uint8Array, size: number) {
  const members: Array<[string, unknown]> = []
  const features: unknown[] = []
  const scanner = new GeoJsonScanner({
    member: (key, value) => void members.push([key, value]),
    featuresStart: () => true,
    feature: (value, index) => {
      expect(index).toBe(features.length)
      features.push(value)
    },
  })
  try {
    feed(typeof text === 'string' ? Buffer.from(text) : text, size, (p, final) => scanner.push(p, final))
  } catch (error) {
    expect(error).toBeInstanceOf(ImportError)
    return (error as Error).message
  }
  return { members, features }
}

const point = (x: number, y: number, properties: unknown = {}) => ({
  type: 'Feature',
  properties,
  geometry: { type: 'Point', coordinates: [x, y] },
})

describe('the GeoJSON scanner', () => {
  const tricky = {
    type: 'FeatureCollection',
    name: 'with "features": [ in its name } ]',
    features: [
      point(1, 2, { s: 'a } ] { [ " \\" \\\\', t: '\\', u: 'é ü 漢字 😀', v: [{ w: '}' }] }),
      point(3, 4, { '"quoted" key': '"', '\\': '\\\\"' }),
      null,
      7,
      'text',
      [],
      { type: 'Feature', geometry: null, properties: null, features: [1, 2] },
    ],
    bbox: [1, 2, 3, 4],
    extra: { features: [{ nested: '{' }] },
  }
  const text = JSON.stringify(tricky, null, 1)

  it('finds every feature and member, whatever the chunk boundaries, strings with braces and escapes included', () => {
    const expected = {
      members: [
        ['type', tricky.type],
        ['name', tricky.name],
        ['bbox', tricky.bbox],
        ['extra', tricky.extra],
      ],
      features: tricky.features,
    }
    for (const size of [1, 2, 3, 5, 7, 13, 64, 1 << 20]) {
      expect(scan(text, size), `chunks of ${size}`).toEqual(expected)
      expect(scan(JSON.stringify(tricky), size), `compact, chunks of ${size}`).toEqual(expected)
    }
  })

  it('drops one or two byte-order marks at the start, split over chunks too', () => {
    for (const size of [1, 2, 4]) {
      expect(scan(`\uFEFF${text}`, size)).toEqual(scan(text, 1 << 20))
      expect(scan(`\uFEFF\uFEFF${text}`, size)).toEqual(scan(text, 1 << 20))
      expect(scan(`\uFEFF\uFEFF\uFEFF${text}`, size)).toMatch(/^malformed JSON in the document \(at byte 6\)/)
      expect(scan(` \uFEFF${text}`, size)).toMatch(/^malformed JSON in the document \(at byte 1\)/)
    }
  })

  it('names the byte where a truncated or malformed file goes wrong', () => {
    const cut = '{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Po'
    const cases: Array<[string, RegExp]> = [
      [
        cut,
        /^malformed JSON: the file ends at byte 80 inside feature 0, which starts at byte 40 \(truncated file\?\)$/,
      ],
      [
        '{"type":"FeatureCollection","features":[{"a":1},',
        /the file ends at byte 48 inside the features array, after 1 features/,
      ],
      [
        '{"type":"FeatureCollection","features":[]',
        /the file ends at byte 41 before the GeoJSON object is closed/,
      ],
      [
        '{"type":"FeatureCollection","features":[{"a":1} {"b":2}]}',
        /^malformed JSON at byte 48: "\{" where "," or "\]" was expected after feature 0$/,
      ],
      [
        '{"type":"FeatureCollection","features":[{"a":1},]}',
        /^malformed JSON at byte 48: "\]" where a feature was expected$/,
      ],
      ['{"type" "FeatureCollection"}', /^malformed JSON at byte 8: """ where ":" was expected/],
      ['{"type":"FeatureCollection",}', /^malformed JSON at byte 28: "\}" where a member name/],
      [
        '{"type":"FeatureCollection"} x',
        /^malformed JSON at byte 29: "x" after the end of the GeoJSON object$/,
      ],
      ['{"features":[{"a":tru}]}', /^malformed JSON in feature 0 \(bytes 13–22\): /],
      [
        '{"type":"Feature","properties":{"a":1,}}',
        /^malformed JSON in the member "properties" \(at byte 31\)/,
      ],
      ['{"type":"Featu', /the file ends at byte 14 inside a value that starts at byte 8/],
      ['', /^malformed JSON: the file is empty$/],
      ['  \n', /^malformed JSON: no JSON value in the file$/],
      ['[1, 2]', /^the document is an array, not a GeoJSON object$/],
      ['42', /^the document is number, not a GeoJSON object$/],
      ['nul', /^malformed JSON in the document \(at byte 0\)/],
    ]
    for (const [input, message] of cases) {
      for (const size of [1, 3, 1 << 20]) expect(scan(input, size), `${input} in ${size}`).toMatch(message)
    }
  })
})

describe('the NDJSON splitter', () => {
  function lines(text: string, size: number) {
    const out: Array<[string, number]> = []
    const splitter = new NdjsonLineSplitter((t, line) => void out.push([t, line]))
    feed(Buffer.from(text), size, (p, final) => splitter.push(p, final))
    return out
  }

  it('hands on each line with its number, however the chunks fall', () => {
    const text = '\uFEFF{"a":1}\r\n\n  \n{"b":"x\\ny é"}\n{"c":3}'
    for (const size of [1, 2, 3, 64]) {
      expect(lines(text, size)).toEqual([
        ['{"a":1}\r', 1],
        ['', 2],
        ['  ', 3],
        ['{"b":"x\\ny é"}', 4],
        ['{"c":3}', 5],
      ])
    }
  })

  it('splits a file that starts with a record separator on record separators (RFC 8142), numbering lines', () => {
    const text = '\u001e{"a":1}\n\u001e{\n "b": 2\n}\n\u001e{"c":3}\n'
    for (const size of [1, 2, 64]) {
      expect(lines(text, size)).toEqual([
        ['', 1],
        ['{"a":1}\n', 1],
        ['{\n "b": 2\n}\n', 2],
        ['{"c":3}\n', 5],
      ])
    }
  })
})

/** A dataset's files: data.fgb and index.flatbush, the manifest (but its date and name), what reading gives. */
async function filesOf(workspace: Workspace, name: string) {
  const d = path.join(workspace.dir, 'datasets', name)
  const manifest = JSON.parse(await fs.readFile(path.join(d, 'manifest.json'), 'utf8')) as Record<
    string,
    unknown
  >
  delete manifest.created
  delete manifest.name
  const read = workspace.readSync(name)
  return {
    data: await fs.readFile(path.join(d, 'data.fgb')),
    index: await fs.readFile(path.join(d, 'index.flatbush')),
    columns: await fs.readFile(path.join(d, 'columns.bin')).then(
      () => true,
      () => false,
    ),
    manifest,
    readFrom: read.readFrom,
    features: JSON.parse(JSON.stringify(read.features)) as unknown,
  }
}

/** The file imported read whole and streamed in chunks of `chunkBytes`: both datasets' files, or the refusals. */
async function both(f: string, format: JsonFormat, skipInvalid: boolean, chunkBytes: number, reference = f) {
  const ws = new Workspace(path.join(dir, `ws${n++}`))
  const source = `${f} (${format})`
  const whole = await readImportFile(reference, { skipInvalid }).then(
    async ({ features, skippedInvalid }) => {
      await ws.commit(await ws.stage('whole', features, { source, skippedInvalid }))
      return filesOf(ws, 'whole')
    },
    (error: Error) => error.message,
  )
  const streamed = await stageJsonStreamed(
    ws,
    f,
    format,
    'streamed',
    { source, skipInvalid },
    undefined,
    () => {},
    chunkBytes,
  ).then(
    async (staged) => {
      await ws.commit(staged)
      return filesOf(ws, 'streamed')
    },
    (error: Error) => error.message,
  )
  return { whole, streamed }
}

const fc = (features: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'FeatureCollection', ...extra, features })

const GEOJSON: Record<string, string> = {
  'points with numbers, texts, nulls, a mixed field, strings with braces and quotes': fc([
    point(10.5, 20.25, { id: 1, name: 'a { [ "b" ] }', pop: 100, code: '007' }),
    point(-70.1, -33.4, { id: 2, name: 'é 漢字 😀 \\', pop: null, code: 12 }),
    point(0, 0, { id: 3, name: null, pop: 3.5, code: true }),
  ]),
  'polygons, lines and a feature without geometry': fc([
    {
      type: 'Feature',
      properties: { k: 'sq' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
            [0, 0],
          ],
        ],
      },
    },
    {
      type: 'Feature',
      properties: { k: 'ln' },
      geometry: {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [2, 2],
        ],
      },
    },
    { type: 'Feature', properties: null, geometry: null },
  ]),
  'foreign members before and after the features, the type last': JSON.stringify({
    name: 'places',
    bbox: [0, 0, 5, 5],
    features: [point(1, 1, { a: 1 }), point(5, 5, { a: '}' })],
    extra: { features: [point(9, 9)] },
    type: 'FeatureCollection',
  }),
  'a crs after the features (EPSG:3857)': JSON.stringify({
    type: 'FeatureCollection',
    features: [point(1113194.9, 2273030.9, { a: 1 }), point(-8237642.3, 4970241.3, { a: 2 })],
    crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::3857' } },
  }),
  'two features members: the last one counts': `{"type":"FeatureCollection","features":[${JSON.stringify(point(1, 1))}],"features":[${JSON.stringify(point(2, 2, { b: 1 }))}]}`,
  'a property named as the geometry column, and its _2 taken': fc([
    point(1, 1, { geom: 'x', a: 1 }),
    point(2, 2, { a: 2, geom_2: 'taken', GEOMETRY: 3 }),
  ]),
  'a bare Feature (with a foreign member named features)': JSON.stringify({
    type: 'Feature',
    features: [point(7, 7)],
    geometry: { type: 'Point', coordinates: [3, 4] },
    properties: { only: true },
    id: 'f1',
  }),
  'a bare geometry': '\uFEFF{"coordinates":[[0,0],[1,1]],"type":"LineString"}',
  'an empty collection': fc([]),
  'with a byte-order mark and pretty-printed': `\uFEFF${JSON.stringify(JSON.parse(fc([point(1, 2, { a: [1, { b: 2 }] })])), null, 2)}`,
}

const INVALID_GEOJSON = fc(
  Array.from({ length: 30 }, (_, i) =>
    i % 3 === 0 ? point(200, i, { i }) : i === 4 ? { type: 'feature', geometry: null } : point(i, -i, { i }),
  ),
)

describe('a GeoJSON file imported as it streams', () => {
  for (const [label, text] of Object.entries(GEOJSON)) {
    it(`writes the dataset the whole read writes: ${label}`, async () => {
      const f = file(text, 'geojson')
      for (const chunk of [1, 7, 1 << 20]) {
        const { whole, streamed } = await both(f, 'geojson', false, chunk)
        expect(typeof whole, String(whole)).toBe('object')
        if (typeof whole !== 'object' || typeof streamed !== 'object') throw new Error(String(streamed))
        expect(streamed.manifest).toEqual(whole.manifest)
        expect(streamed.data.equals(whole.data)).toBe(true)
        expect(streamed.index.equals(whole.index)).toBe(true)
        expect(streamed.columns).toBe(whole.columns)
        expect(streamed.readFrom).toBe(whole.readFrom)
        expect(streamed.features).toEqual(whole.features)
      }
    })
  }

  it('refuses invalid features with the words of the whole read, and skips and counts them alike', async () => {
    const f = file(INVALID_GEOJSON, 'geojson')
    const refused = await both(f, 'geojson', false, 5)
    expect(refused.streamed).toBe(refused.whole)
    expect(refused.streamed).toMatch(/^11 of 30 features are invalid: feature 0: /)
    const skipped = await both(f, 'geojson', true, 5)
    if (typeof skipped.whole !== 'object' || typeof skipped.streamed !== 'object') throw new Error('refused')
    expect(skipped.streamed.manifest.skippedInvalid).toBe(11)
    expect(skipped.streamed.manifest).toEqual(skipped.whole.manifest)
    expect(skipped.streamed.data.equals(skipped.whole.data)).toBe(true)
    expect(skipped.streamed.index.equals(skipped.whole.index)).toBe(true)
  })

  it('refuses what the whole read refuses; a truncated file by the byte where it ends', async () => {
    for (const text of [
      '{"type":"Collection","features":[]}',
      '{"type":"FeatureCollection","features":{}}',
      '{"type":"FeatureCollection"}',
      '[]',
      `{"type":"FeatureCollection","features":[${JSON.stringify(point(1, 1))}],"crs":{"type":"name","properties":{"name":"EPSG:99999"}}}`,
    ]) {
      const { whole, streamed } = await both(file(text, 'geojson'), 'geojson', true, 3)
      expect(typeof whole, text).toBe('string')
      expect(streamed, text).toBe(whole)
    }
    const cut = '{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Po'
    const { whole, streamed } = await both(file(cut, 'geojson'), 'geojson', true, 3)
    expect(whole).toMatch(/^malformed JSON/)
    expect(streamed).toBe(
      'malformed JSON: the file ends at byte 80 inside feature 0, which starts at byte 40 (truncated file?)',
    )
  })
})

const NDJSON: Record<string, string> = {
  'lines with CRLF, blank lines, a byte-order mark and bare geometries': [
    `\uFEFF${JSON.stringify(point(1, 2, { a: 'x } {' }))}\r`,
    '',
    '   ',
    JSON.stringify({ type: 'Point', coordinates: [3, 4] }),
    JSON.stringify(point(5, 6, { a: 2, geom: 'g' })),
  ].join('\n'),
}

describe('an NDJSON file imported as it streams', () => {
  for (const [label, text] of Object.entries(NDJSON)) {
    it(`writes the dataset the whole read writes: ${label}`, async () => {
      const f = file(text, 'ndjson')
      for (const chunk of [1, 5, 1 << 20]) {
        const { whole, streamed } = await both(f, 'ndjson', false, chunk)
        if (typeof whole !== 'object' || typeof streamed !== 'object') throw new Error(String(streamed))
        expect(streamed.manifest).toEqual(whole.manifest)
        expect(streamed.data.equals(whole.data)).toBe(true)
        expect(streamed.index.equals(whole.index)).toBe(true)
        expect(streamed.features).toEqual(whole.features)
      }
    })
  }

  it('reads a GeoJSON text sequence (RS before each text, RFC 8142; texts over several lines) as the same lines without RS', async () => {
    const features = [point(1, 2, { a: 1 }), { type: 'Point', coordinates: [3, 4] }, point(5, 6, { a: 'x' })]
    const sequence = file(features.map((f) => `\u001e${JSON.stringify(f, null, 1)}\n`).join(''), 'geojsons')
    const lines = file(features.map((f) => JSON.stringify(f)).join('\n'), 'ndjson')
    for (const chunk of [1, 5, 1 << 20]) {
      const { whole, streamed } = await both(sequence, 'ndjson', false, chunk, lines)
      if (typeof whole !== 'object' || typeof streamed !== 'object') throw new Error(String(streamed))
      expect(streamed.manifest.featureCount).toBe(3)
      expect(streamed.data.equals(whole.data)).toBe(true)
      expect(streamed.index.equals(whole.index)).toBe(true)
      expect(streamed.features).toEqual(whole.features)
    }
    // An invalid text is named by the line it starts on (the first text takes 11 lines).
    const bad = file(`\u001e${JSON.stringify(point(1, 1), null, 1)}\n\u001e{"type":\n"Feature"\n`, 'geojsons')
    const { streamed } = await both(bad, 'ndjson', false, 3)
    expect(streamed).toMatch(/^1 of 2 features is invalid: line 12: malformed JSON/)
  })

  it('names the line of a malformed one, as the whole read does', async () => {
    const f = file(
      `${JSON.stringify(point(1, 1))}\n{"type":"Feature",\n${JSON.stringify(point(2, 2))}\n`,
      'ndjson',
    )
    const { whole, streamed } = await both(f, 'ndjson', false, 4)
    expect(streamed).toBe(whole)
    expect(streamed).toMatch(/^1 of 3 features is invalid: line 2: malformed JSON/)
  })
})

describe('memory', () => {
  const features = (count: number) =>
    Array.from({ length: count }, (_, i) =>
      JSON.stringify(point(68 + (i % 2900) / 100, 8 + i / 1e5, { id: i, name: `place ${i}`, pop: i % 977 })),
    )

  for (const format of ['geojson', 'ndjson'] as const) {
    it(`imports 150,000 ${format} features in a worker whose heap is capped at 64 MiB`, async () => {
      const all = features(150_000)
      const text =
        format === 'geojson'
          ? `{"type":"FeatureCollection","features":[\n${all.join(',\n')}\n]}`
          : all.join('\n')
      const f = file(text, format)
      const ws = new Workspace(path.join(dir, `ws${n++}`))
      const manifest = await importInWorker(ws, f, { name: 'capped', limits: { maxHeapMb: 64 } })
      expect(manifest.featureCount).toBe(150_000)
      expect(manifest.fields).toEqual([
        { name: 'id', type: 'number' },
        { name: 'name', type: 'string' },
        { name: 'pop', type: 'number' },
      ])
      expect(ws.readSync('capped').readFrom).toBe('columns')
    }, 120_000)
  }
})
