import { readFile, rm } from 'node:fs/promises'
import type { Geometry } from 'geojson'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXPORT_FORMATS, exportDataset } from '../../../../electron/local-service/export/export-dataset'
import { importFile } from '../../../../electron/local-service/import/import-dataset'
import { Workspace } from '../../../../electron/local-service/workspace/workspace'
import { gdalMissing, gdalRead, validateGeoPackage } from '../../../support/gdal'
import { feature, square, tempDir } from '../helpers'
import { rfc7946Problems, ringSignedArea } from '../../../../shared/geojson'

let dir: string
let ws: Workspace
const original = [
  feature(square(0, 0, 1, 1), { name: 'one, "quoted"', count: 3, ok: true }),
  feature(
    {
      type: 'LineString',
      coordinates: [
        [0, 0],
        [2, 1],
      ],
    },
    { name: 'two', count: null, ok: false },
  ),
]
beforeAll(async () => {
  dir = await tempDir('geo-export-')
  ws = new Workspace(path.join(dir, 'ws'))
  await ws.create('mixed', original, { source: 'test' })
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('export round trip', () => {
  for (const format of EXPORT_FORMATS) {
    it(`${format}: exported, imported back, same geometries and properties`, async () => {
      const out = path.join(dir, `mixed.${format}`)
      expect(await exportDataset(ws, 'mixed', format, out)).toBe(2)
      await importFile(ws, out, { name: `back_${format}` })
      const back = (await ws.read(`back_${format}`)).features
      expect(back.map((f) => f.geometry)).toEqual(original.map((f) => f.geometry))
      expect(back.map((f) => f.properties.name)).toEqual(['one, "quoted"', 'two'])
      expect(back[0]!.properties.count).toBe(3)
    })
  }

  it('CSV carries the geometry as WKT in the first column', async () => {
    const out = path.join(dir, 'plain.csv')
    await exportDataset(ws, 'mixed', 'csv', out)
    const text = await readFile(out, 'utf8')
    expect(text.split('\r\n')[0]).toBe('wkt,name,count,ok')
    expect(text).toContain('"POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))","one, ""quoted""",3,true')
  })

  it('CSV writes formula-like text so that spreadsheets do not run it, numbers as they are', async () => {
    const cells = [
      '=HYPERLINK("http://x")',
      '+1+2',
      '-2+3',
      '@SUM(A1)',
      '\tTAB',
      '\rCR',
      '-12.5',
      '+3',
      'a=b',
    ]
    await ws.create(
      'formulas',
      cells.map((text, i) => feature({ type: 'Point', coordinates: [i, 0] }, { text, n: -i })),
      { source: 'test' },
    )
    const out = path.join(dir, 'formulas.csv')
    await exportDataset(ws, 'formulas', 'csv', out)
    const lines = (await readFile(out, 'utf8')).split('\r\n')
    expect(lines[0]).toBe('wkt,text,n')
    expect(lines.slice(1, 10)).toEqual([
      'POINT (0 0),"\'=HYPERLINK(""http://x"")",0',
      "POINT (1 0),'+1+2,-1",
      "POINT (2 0),'-2+3,-2",
      "POINT (3 0),'@SUM(A1),-3",
      "POINT (4 0),'\tTAB,-4",
      'POINT (5 0),"\'\rCR",-5',
      'POINT (6 0),-12.5,-6',
      'POINT (7 0),+3,-7',
      'POINT (8 0),a=b,-8',
    ])
  })
  it('GeoJSON follows RFC 7946: a clockwise ring is written counter-clockwise, its hole clockwise', async () => {
    const clockwise = [
      [0, 0],
      [0, 4],
      [4, 4],
      [4, 0],
      [0, 0],
    ]
    const counterClockwiseHole = [
      [1, 1],
      [2, 1],
      [2, 2],
      [1, 2],
      [1, 1],
    ]
    await ws.create(
      'wound',
      [feature({ type: 'Polygon', coordinates: [clockwise, counterClockwiseHole] }, {})],
      {
        source: 'test',
      },
    )
    const out = path.join(dir, 'wound.geojson')
    await exportDataset(ws, 'wound', 'geojson', out)
    const written = JSON.parse(await readFile(out, 'utf8'))
    const [outer, hole] = written.features[0].geometry.coordinates
    expect(ringSignedArea(outer)).toBeGreaterThan(0)
    expect(ringSignedArea(hole)).toBeLessThan(0)
    expect(rfc7946Problems(written)).toEqual([])
    expect(written.name).toBe('wound')
  })
})

describe('GeoPackage and FlatGeobuf declare the dataset type, and every row is of it', () => {
  const line = (x: number): Geometry => ({
    type: 'LineString',
    coordinates: [
      [x, 0],
      [x + 1, 1],
    ],
  })
  const CASES: Array<{ name: string; declared: string; multi: string; geometries: Array<Geometry | null> }> =
    [
      {
        name: 'areas',
        declared: 'MULTIPOLYGON',
        multi: 'MultiPolygon',
        geometries: [
          square(0, 0, 1, 1),
          { type: 'MultiPolygon', coordinates: [(square(2, 0, 3, 1) as GeoJSON.Polygon).coordinates] },
          null,
        ],
      },
      {
        name: 'routes',
        declared: 'MULTILINESTRING',
        multi: 'MultiLineString',
        geometries: [
          line(0),
          {
            type: 'MultiLineString',
            coordinates: [
              (line(2) as GeoJSON.LineString).coordinates,
              (line(4) as GeoJSON.LineString).coordinates,
            ],
          },
        ],
      },
      {
        name: 'stops',
        declared: 'MULTIPOINT',
        multi: 'MultiPoint',
        geometries: [
          { type: 'Point', coordinates: [1, 2] },
          {
            type: 'MultiPoint',
            coordinates: [
              [3, 4],
              [5, 6],
            ],
          },
        ],
      },
    ]

  /** The case as a dataset of its own (named with `suffix`), checked to be of the declared type. */
  async function dataset(c: (typeof CASES)[number], suffix: string): Promise<string> {
    const name = `${c.name}_${suffix}`
    const manifest = await ws.create(
      name,
      c.geometries.map((g, i) => feature(g, { i })),
      { source: 'test' },
    )
    expect(manifest.geometryType).toBe(c.declared)
    return name
  }

  it.each(CASES)('$declared: single parts are written as one-part $multi', async (c) => {
    const name = await dataset(c, 'app')
    for (const format of ['gpkg', 'fgb'] as const) {
      const out = path.join(dir, `${name}.${format}`)
      await exportDataset(ws, name, format, out)
      const back = await ws.read((await importFile(ws, out, { name: `${name}_${format}` })).name)
      expect(back.manifest.geometryType, format).toBe(c.declared)
      expect(
        back.features.map((f) => f.geometry?.type ?? null),
        format,
      ).toEqual(c.geometries.map((g) => (g ? c.multi : null)))
      // The single part's coordinates are the one part of the Multi geometry.
      const single = c.geometries[0] as { coordinates: unknown }
      expect((back.features[0]!.geometry as { coordinates: unknown[] }).coordinates, format).toEqual([
        single.coordinates,
      ])
    }
  })

  const skip = gdalMissing()
  it.skipIf(skip)(
    `GDAL reads them as the declared type, and the GeoPackages pass its validator${skip ? ` (skipped: ${skip})` : ''}`,
    async () => {
      for (const c of CASES) {
        const name = await dataset(c, 'gdal')
        for (const format of ['gpkg', 'fgb'] as const) {
          const out = path.join(dir, `${name}.${format}`)
          await exportDataset(ws, name, format, out)
          if (format === 'gpkg') expect(await validateGeoPackage(out)).toEqual({ ok: true, output: '' })
          const read = await gdalRead(out)
          expect(read.layerGeometry, `${c.name}.${format}`).toBe(
            c.multi.replace(/^Multi(.*)$/, 'Multi $1').replace('LineString', 'Line String'),
          )
          expect(read.features.map((f) => f.geometry?.type ?? null)).toEqual(
            c.geometries.map((g) => (g ? c.multi : null)),
          )
        }
      }
    },
  )
})
