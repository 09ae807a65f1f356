import { readdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { strToU8, zipSync } from 'fflate'
import * as flatbuffers from 'flatbuffers'
import { Column } from 'flatgeobuf/lib/mjs/flat-geobuf/column.js'
import { Header } from 'flatgeobuf/lib/mjs/flat-geobuf/header.js'
import initSqlJs from 'sql.js'
import { describe, expect, it } from 'vitest'
import { ImportError } from '../../../../electron/local-service/import/crs'
import { importInWorker } from '../../../../electron/local-service/import/import-runner'
import { writeFlatGeobuf } from '../../../../electron/local-service/workspace/fgb'
import { writeGeoPackage } from '../../../../electron/local-service/workspace/gpkg'
import { Workspace } from '../../../../electron/local-service/workspace/workspace'
import { useTempDirs } from '../../../support/temp-dir'
import { pointShapefile } from './fixtures'

/**
 * Fuzz-style regressions, per reader: truncated files, random bytes after the magic, counts and sizes
 * declared far beyond the bytes. Each runs through the import worker with a generous time limit (so a
 * hang fails the test instead of stalling the suite) and must end as a validation error naming the
 * problem — never the time or memory limit, never an engine's raw text.
 */
const tempDir = useTempDirs()
const LIMITS = { timeoutMs: 60_000, maxHeapMb: 1024 }

function random(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n)
  let s = seed
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff
    out[i] = s >> 16
  }
  return out
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

const FGB_MAGIC = new Uint8Array([0x66, 0x67, 0x62, 0x03, 0x66, 0x67, 0x62, 0x00])

/** A FlatGeobuf header whose columns vector declares `columns` entries, and `features` features. */
function fgbHeader(options: { columns?: number; features?: bigint; nodeSize?: number }): Uint8Array {
  const b = new flatbuffers.Builder()
  const name = b.createString('c')
  Column.startColumn(b)
  Column.addName(b, name)
  Column.addType(b, 11)
  const column = Column.endColumn(b)
  const vector = Header.createColumnsVector(b, [column])
  Header.startHeader(b)
  Header.addColumns(b, vector)
  Header.addFeaturesCount(b, options.features ?? 0n)
  Header.addIndexNodeSize(b, options.nodeSize ?? 0)
  b.finishSizePrefixed(Header.endHeader(b))
  const bytes = b.asUint8Array().slice()
  if (options.columns !== undefined)
    new DataView(bytes.buffer).setUint32(bytes.length - vector, options.columns, true)
  return concat(FGB_MAGIC, bytes)
}

const validFgb = () =>
  writeFlatGeobuf(
    Array.from({ length: 40 }, (_, i) => ({
      geometry: { type: 'Point' as const, coordinates: [70 + i / 100, 20] },
      properties: { i },
    })),
    [{ name: 'i', type: 'number' }],
  )

/** A Shapefile header (type 5, polygons) followed by one record declaring `parts` parts and `points` points. */
function polygonShp(parts: number, points: number): Uint8Array {
  const shp = new DataView(new ArrayBuffer(100 + 8 + 44))
  shp.setInt32(0, 9994)
  shp.setInt32(24, (100 + 8 + 44) / 2)
  shp.setInt32(28, 1000, true)
  shp.setInt32(32, 5, true)
  shp.setInt32(100, 1)
  shp.setInt32(104, 22)
  shp.setInt32(108, 5, true)
  shp.setInt32(108 + 36, parts, true)
  shp.setInt32(108 + 40, points, true)
  return new Uint8Array(shp.buffer)
}

async function gpkgWithBlob(blob: Uint8Array): Promise<Uint8Array> {
  const base = await writeGeoPackage(
    [{ geometry: { type: 'Point', coordinates: [70, 20] }, properties: {} }],
    [],
    { geometryType: 'POINT', extent: null },
  )
  const SQL = await initSqlJs()
  const db = new SQL.Database(base)
  // The spatial index's triggers call ST_* functions that GeoPackage readers provide and sql.js lacks.
  for (const [name] of db.exec("SELECT name FROM sqlite_master WHERE type = 'trigger'")[0]?.values ?? [])
    db.run(`DROP TRIGGER "${String(name)}"`)
  db.run('UPDATE features SET geom = ?', [blob])
  const out = db.export()
  db.close()
  return out
}

/** A GeoPackage geometry blob: header, then WKB of a polygon declaring 2^31-1 rings. */
function hugeWkbBlob(): Uint8Array {
  const blob = new Uint8Array(8 + 13)
  const view = new DataView(blob.buffer)
  blob.set([0x47, 0x50, 0, 1])
  view.setInt32(4, 4326, true)
  view.setUint8(8, 1)
  view.setUint32(9, 3, true)
  view.setUint32(13, 0x7fffffff, true)
  return blob
}

const CASES: Record<
  string,
  Array<{ what: string; file: string; bytes: () => Uint8Array | Promise<Uint8Array>; reason: RegExp }>
> = {
  FlatGeobuf: [
    {
      what: 'the 2 KB file of the report: magic, then 0xff bytes',
      file: 'ff.fgb',
      bytes: () => concat(FGB_MAGIC, new Uint8Array(2040).fill(0xff)),
      reason: /FlatGeobuf file is not readable: the header declares 4294967295 bytes/,
    },
    ...[1, 2, 3].map((seed) => ({
      what: `random bytes after the magic (seed ${seed})`,
      file: `random${seed}.fgb`,
      bytes: () => concat(FGB_MAGIC, random(4096, seed)),
      reason: /FlatGeobuf file is not readable/,
    })),
    {
      what: 'a truncated file',
      file: 'cut.fgb',
      bytes: () => validFgb().slice(0, 700),
      reason: /FlatGeobuf file is not readable: .*(truncated|cut short)/,
    },
    {
      what: 'a header whose columns vector declares 2^32-1 columns',
      file: 'columns.fgb',
      bytes: () => fgbHeader({ columns: 0xffffffff }),
      reason: /FlatGeobuf file is not readable: .*declares 4294967295 items/,
    },
    {
      what: 'a header declaring 2^40 features',
      file: 'count.fgb',
      bytes: () => concat(fgbHeader({ features: 2n ** 40n }), new Uint8Array(64)),
      reason: /declares 1099511627776 features, more than/,
    },
    {
      what: 'an index larger than the file',
      file: 'index.fgb',
      bytes: () => concat(fgbHeader({ features: 5n, nodeSize: 16 }), new Uint8Array(64)),
      reason: /spatial index of 5 features needs \d+ bytes but 64 remain/,
    },
  ],
  GeoJSON: [
    {
      what: 'a truncated file',
      file: 'cut.geojson',
      bytes: () =>
        strToU8('{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Po'),
      reason: /malformed JSON/,
    },
    { what: 'random bytes', file: 'random.geojson', bytes: () => random(4096, 4), reason: /malformed JSON/ },
    {
      what: 'coordinates nested 100,000 deep',
      file: 'deep.geojson',
      bytes: () => strToU8(`{"type":"Point","coordinates":${'['.repeat(100_000)}${']'.repeat(100_000)}}`),
      reason: /none of its 1 feature is valid: feature 0: geometry\.coordinates: a position/,
    },
    {
      what: 'properties nested 100,000 deep',
      file: 'deepprops.geojson',
      bytes: () =>
        strToU8(
          `{"type":"Feature","geometry":null,"properties":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`,
        ),
      reason: /property "a" nests deeper than 64 levels/,
    },
  ],
  NDJSON: [
    {
      what: 'random bytes',
      file: 'random.ndjson',
      bytes: () => random(4096, 5),
      reason: /none of its \d+ features? is valid: line 1: malformed JSON/,
    },
  ],
  CSV: [
    {
      what: 'a truncated file (inside a quoted field)',
      file: 'cut.csv',
      bytes: () => strToU8('name,lon,lat\n"Pune, MH",73.8,18.5\n"Goa'),
      reason: /ends inside a quoted field/,
    },
    {
      what: 'random bytes',
      file: 'random.csv',
      bytes: () => random(4096, 6),
      reason: /CSV needs longitude\/latitude columns/,
    },
  ],
  KML: [
    {
      what: 'a truncated file',
      file: 'cut.kml',
      bytes: () =>
        strToU8('<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><Point><coord'),
      reason: /malformed KML/,
    },
    {
      what: 'random bytes after the root element',
      file: 'random.kml',
      bytes: () => concat(strToU8('<?xml version="1.0"?><kml>'), random(4096, 7)),
      reason: /malformed KML/,
    },
    {
      what: 'nested entities (billion laughs)',
      file: 'laughs.kml',
      bytes: () =>
        strToU8(
          `<?xml version="1.0"?><!DOCTYPE kml [<!ENTITY a "aaaaaaaaaa">${Array.from({ length: 9 }, (_, i) => `<!ENTITY ${String.fromCharCode(98 + i)} "${`&${String.fromCharCode(97 + i)};`.repeat(10)}">`).join('')}]><kml><Placemark><name>&j;</name></Placemark></kml>`,
        ),
      reason: /malformed KML/,
    },
  ],
  Shapefile: [
    {
      what: 'a truncated zip',
      file: 'cut.zip',
      bytes: () => zipSync(pointShapefile([[70, 20, 'a']])).slice(0, 150),
      reason: /(not a readable zip archive|corrupt)/,
    },
    {
      what: 'random bytes after the zip magic',
      file: 'random.zip',
      bytes: () => concat(new Uint8Array([0x50, 0x4b, 3, 4]), random(4096, 8)),
      reason: /not a readable zip archive/,
    },
    {
      what: 'a polygon record declaring 2^31-1 parts',
      file: 'parts.zip',
      bytes: () => zipSync({ 'a.shp': polygonShp(0x7fffffff, 0x7fffffff) }),
      reason: /Shapefile is corrupt or truncated/,
    },
    {
      what: 'a .dbf header longer than the file',
      file: 'dbf.zip',
      bytes: () => {
        const parts = pointShapefile([[70, 20, 'a']])
        new DataView(parts['pts.dbf']!.buffer).setUint16(8, 60_000, true)
        return zipSync(parts)
      },
      reason: /declares a header of 60000 bytes/,
    },
    {
      what: 'an entry declaring 1 KiB that expands to 50 MiB',
      file: 'liar.zip',
      bytes: () => {
        const zip = zipSync({ 'a.shp': new Uint8Array(50 * 2 ** 20) }, { level: 9 })
        const view = new DataView(zip.buffer)
        view.setUint32(22, 1024, true)
        for (let i = zip.length - 22; i >= 0; i--) {
          if (view.getUint32(i, true) === 0x06054b50) {
            view.setUint32(view.getUint32(i + 16, true) + 24, 1024, true)
            break
          }
        }
        return zip
      },
      reason: /zip bomb/,
    },
  ],
  GeoPackage: [
    {
      what: 'a truncated file',
      file: 'cut.gpkg',
      bytes: async () => (await gpkgWithBlob(hugeWkbBlob())).slice(0, 2048),
      reason: /GeoPackage could not be read/,
    },
    {
      what: 'random bytes after the SQLite magic',
      file: 'random.gpkg',
      bytes: () => concat(strToU8('SQLite format 3\0'), random(8192, 9)),
      reason: /GeoPackage could not be read/,
    },
    {
      what: 'a WKB polygon declaring 2^31-1 rings',
      file: 'rings.gpkg',
      bytes: () => gpkgWithBlob(hugeWkbBlob()),
      reason: /row 1: the WKB geometry could not be read/,
    },
  ],
}

describe.each(Object.entries(CASES))(
  'hostile %s files end as validation errors, in bounded time',
  (_, cases) => {
    it.each(cases)('$what', async ({ file, bytes, reason }) => {
      const dir = tempDir()
      const ws = new Workspace(path.join(dir, 'ws'))
      const input = path.join(dir, file)
      await writeFile(input, await bytes())
      const error = await importInWorker(ws, input, { limits: LIMITS }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ImportError)
      const message = (error as Error).message
      expect(message).not.toMatch(/limit/)
      expect(message).not.toMatch(/is not a function|of undefined|of null|toUpperCase/)
      expect(message).toMatch(reason)
      expect(await readdir(path.join(ws.dir, 'datasets')).catch(() => [])).toEqual([])
    })
  },
)
