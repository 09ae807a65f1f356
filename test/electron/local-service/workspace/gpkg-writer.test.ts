import { spawnSync } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import sqlite3InitModule from '@sqlite.org/sqlite-wasm'
import type { Geometry } from 'geojson'
import { beforeAll, describe, expect, it } from 'vitest'
import { geometryBBox, type DatasetFeature } from '../../../../electron/local-service/workspace/features'
import { readGeoPackage, writeGeoPackage } from '../../../../electron/local-service/workspace/gpkg'
import { float32Toward, packRtree } from '../../../../electron/local-service/workspace/rtree-pack'
import { useTempDirs } from '../../../support/temp-dir'

type Sqlite3 = Awaited<ReturnType<typeof sqlite3InitModule>>
let sqlite: Sqlite3

/** Open GeoPackage bytes with SQLite's own build (it has the R*Tree module, as GDAL's SQLite does). */
function open(bytes: Uint8Array) {
  const db = new sqlite.oo1.DB()
  const p = sqlite.wasm.allocFromTypedArray(bytes)
  sqlite.capi.sqlite3_deserialize(db, 'main', p, bytes.length, bytes.length, 1 | 2)
  return db
}

const tempDir = useTempDirs()

// Points on a grid, polygons, a feature without geometry and one with an empty geometry.
const features: DatasetFeature[] = [
  ...Array.from({ length: 6000 }, (_, i) => ({
    geometry: {
      type: 'Point',
      coordinates: [70 + (i % 100) * 0.2, 10 + Math.floor(i / 100) * 0.3],
    } as Geometry,
    properties: { name: `p${i}`, n: i, ok: i % 2 === 0 },
  })),
  {
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [80, 20],
          [81.5, 20],
          [81.5, 21.25],
          [80, 20],
        ],
      ],
    },
    properties: { name: 'triangle', n: -1, ok: true },
  },
  { geometry: null, properties: { name: 'nothing', n: 0, ok: false } },
  { geometry: { type: 'Polygon', coordinates: [] }, properties: { name: 'empty', n: 0, ok: false } },
]
const fields = [
  { name: 'name', type: 'string' as const },
  { name: 'n', type: 'number' as const },
  { name: 'ok', type: 'boolean' as const },
]
let bytes: Uint8Array

beforeAll(async () => {
  sqlite = await (sqlite3InitModule as (o?: object) => Promise<Sqlite3>)({
    print: () => undefined,
    printErr: () => undefined,
  })
  bytes = await writeGeoPackage(features, fields, { geometryType: 'GEOMETRY', extent: [70, 10, 89.8, 27.7] })
}, 60_000)

describe('GeoPackage export with the R-tree spatial index', () => {
  it('declares the gpkg_rtree_index extension on the layer, with the index and its triggers', () => {
    const db = open(bytes)
    try {
      expect(db.selectValue('PRAGMA application_id')).toBe(1196444487)
      expect(db.selectValue('PRAGMA user_version')).toBe(10200)
      expect(
        db.selectArray('SELECT table_name, column_name, extension_name, scope FROM gpkg_extensions'),
      ).toEqual(['features', 'geom', 'gpkg_rtree_index', 'write-only'])
      expect(db.selectValue("SELECT sql FROM sqlite_master WHERE name = 'rtree_features_geom'")).toBe(
        'CREATE VIRTUAL TABLE "rtree_features_geom" USING rtree(id, minx, maxx, miny, maxy)',
      )
      expect(db.selectValues("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")).toEqual(
        ['delete', 'insert', 'update1', 'update2', 'update3', 'update4'].map(
          (s) => `rtree_features_geom_${s}`,
        ),
      )
      // The geometry column is typed by its geometry type (GeoPackage requirement 25).
      expect(db.selectValue("SELECT type FROM pragma_table_info('features') WHERE name = 'geom'")).toBe(
        'GEOMETRY',
      )
    } finally {
      db.close()
    }
  })

  it('holds a valid R*Tree of every feature with a geometry, which finds what a scan of the boxes finds', () => {
    const db = open(bytes)
    try {
      expect(db.selectValue("SELECT rtreecheck('rtree_features_geom')")).toBe('ok')
      expect(db.selectValue('PRAGMA integrity_check')).toBe('ok')
      expect(db.selectValue('SELECT count(*) FROM rtree_features_geom')).toBe(6001)
      // Several levels: 6,001 entries, at most 51 per node.
      expect(db.selectValue('SELECT count(*) FROM rtree_features_geom_parent')).toBeGreaterThan(100)
      for (const [x0, y0, x1, y1] of [
        [75, 12, 76.1, 13.3],
        [80.5, 20.2, 80.6, 20.3],
        [0, 0, 1, 1],
        [60, 0, 100, 40],
      ] as const) {
        const indexed = db
          .selectValues(
            `SELECT id FROM rtree_features_geom WHERE maxx >= ${x0} AND minx <= ${x1} AND maxy >= ${y0} AND miny <= ${y1} ORDER BY id`,
          )
          .map(Number)
        const scanned = features.flatMap((f, i) => {
          const b = geometryBBox(f.geometry)
          return b && b[2] >= x0 && b[0] <= x1 && b[3] >= y0 && b[1] <= y1 ? [i + 1] : []
        })
        expect(indexed).toEqual(scanned)
      }
    } finally {
      db.close()
    }
  })

  it('reads back with the same features and properties', async () => {
    const back = await readGeoPackage(bytes)
    expect(back.features).toHaveLength(features.length)
    expect(back.features[6000]!.geometry).toEqual(features[6000]!.geometry)
    // Booleans are stored as 1 and 0 (SQLite has no boolean).
    expect(back.features[6000]!.properties).toEqual({ name: 'triangle', n: -1, ok: 1 })
    expect(back.features[42]!.properties).toEqual({ name: 'p42', n: 42, ok: 1 })
    expect(back.features[6001]!.geometry).toBeNull()
  })

  it('GDAL (what QGIS reads GeoPackages with) finds the spatial index and a valid GeoPackage, where installed', (ctx) => {
    const validator = '/usr/lib/python3/dist-packages/osgeo_utils/samples/validate_gpkg.py'
    if (!existsSync('/usr/bin/ogrinfo') || !existsSync(validator)) {
      ctx.skip('GDAL is not installed (apt-get install gdal-bin python3-gdal)')
      return
    }
    const file = path.join(tempDir(), 'layer.gpkg')
    writeFileSync(file, bytes)
    const info = spawnSync('ogrinfo', [file, '-sql', "SELECT HasSpatialIndex('features', 'geom')"], {
      encoding: 'utf8',
    })
    expect(info.stdout).toMatch(/HasSpatialIndex \(Integer\) = 1/)
    const valid = spawnSync('python3', [validator, file], { encoding: 'utf8' })
    expect(valid.stderr + valid.stdout).toBe('')
    expect(valid.status).toBe(0)
  })
})

describe('packRtree', () => {
  it('rounds coordinates outward to single precision', () => {
    for (const x of [0.1, -0.1, 77.123456789, -179.99999999, 1e-50, -1e-50, 0, 3]) {
      expect(float32Toward(x, -1)).toBeLessThanOrEqual(x)
      expect(float32Toward(x, 1)).toBeGreaterThanOrEqual(x)
      expect(Math.fround(float32Toward(x, 1))).toBe(float32Toward(x, 1))
      expect(float32Toward(x, 1) - float32Toward(x, -1)).toBeLessThan(Math.max(Math.abs(x) * 2.5e-7, 3e-45))
    }
  })

  it('makes one root holding the entries when they fit, and refuses a node too small for two cells', () => {
    const packed = packRtree(
      [
        { id: 7, box: [1, 2, 3, 4] },
        { id: 9, box: [5, 6, 7, 8] },
      ],
      1228,
    )
    expect(packed.nodes.map((n) => n.nodeno)).toEqual([1])
    expect(packed.rowids).toEqual([
      [7, 1],
      [9, 1],
    ])
    expect(packed.parents).toEqual([])
    expect(() => packRtree([], 40)).toThrow(/fewer than two cells/)
  })
})
