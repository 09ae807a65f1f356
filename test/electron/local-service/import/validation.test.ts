import { readdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { ImportError } from '../../../../electron/local-service/import/crs'
import { importFile } from '../../../../electron/local-service/import/import-dataset'
import { writeFlatGeobuf } from '../../../../electron/local-service/workspace/fgb'
import { writeGeoPackage } from '../../../../electron/local-service/workspace/gpkg'
import { Workspace } from '../../../../electron/local-service/workspace/workspace'
import { useTempDirs } from '../../../support/temp-dir'
import { runService, square, TOKEN } from '../helpers'
import { pointShapefile } from './fixtures'

const tempDir = useTempDirs()

const point = (x: number, y: number) => ({ type: 'Point', coordinates: [x, y] })
const good = (i: number) => ({ type: 'Feature', properties: { id: i }, geometry: point(70 + i / 10, 20) })
const closed = [
  [70, 20],
  [71, 20],
  [71, 21],
  [70, 20],
]

/** Features RFC 7946 does not allow, each with the reason the import must give. */
const INVALID: Array<{ what: string; feature: unknown; reason: RegExp }> = [
  {
    what: 'an unknown geometry type',
    feature: { type: 'Feature', properties: {}, geometry: { type: 'Circle', coordinates: [70, 20] } },
    reason: /geometry\.type: must be one of Point/,
  },
  {
    what: 'a lower-case geometry type',
    feature: { type: 'Feature', properties: {}, geometry: { type: 'point', coordinates: [70, 20] } },
    reason: /geometry\.type: must be one of/,
  },
  {
    what: 'a lower-case Polygon',
    feature: { type: 'Feature', properties: {}, geometry: { type: 'polygon', coordinates: [closed] } },
    reason: /geometry\.type: must be one of/,
  },
  {
    what: 'a geometry type that is a number',
    feature: { type: 'Feature', properties: {}, geometry: { type: 5, coordinates: [70, 20] } },
    reason: /geometry\.type: must be one of/,
  },
  {
    what: 'a lower-case Feature',
    feature: { type: 'feature', properties: {}, geometry: point(70, 20) },
    reason: /not a GeoJSON Feature.*"feature"/,
  },
  {
    what: 'a Polygon with line coordinates',
    feature: {
      type: 'Feature',
      properties: {},
      geometry: {
        type: 'Polygon',
        coordinates: [
          [70, 20],
          [71, 21],
        ],
      },
    },
    reason: /geometry\.coordinates\.0.*(ring|position)/,
  },
  {
    what: 'a ring of 2 positions',
    feature: {
      type: 'Feature',
      properties: {},
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [70, 20],
            [70, 20],
          ],
        ],
      },
    },
    reason: /at least 4 positions/,
  },
  {
    what: 'a ring that is not closed',
    feature: {
      type: 'Feature',
      properties: {},
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [70, 20],
            [71, 20],
            [71, 21],
            [70, 21],
          ],
        ],
      },
    },
    reason: /closed/,
  },
  {
    what: 'a position of one number',
    feature: { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [70] } },
    reason: /2 or 3 numbers/,
  },
  {
    what: 'a position of four numbers',
    feature: { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [70, 20, 1, 2] } },
    reason: /2 or 3 numbers/,
  },
  {
    what: 'a position of strings',
    feature: { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: ['70', '20'] } },
    reason: /finite numbers/,
  },
  {
    what: 'a position holding null',
    feature: { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [70, null] } },
    reason: /finite numbers/,
  },
  {
    what: 'a LineString of one position',
    feature: { type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: [[70, 20]] } },
    reason: /at least 2 positions/,
  },
  {
    what: 'a MultiPolygon nested like a Polygon',
    feature: { type: 'Feature', properties: {}, geometry: { type: 'MultiPolygon', coordinates: [closed] } },
    reason: /geometry\.coordinates\.0/,
  },
  {
    what: 'a GeometryCollection without geometries',
    feature: { type: 'Feature', properties: {}, geometry: { type: 'GeometryCollection' } },
    reason: /geometries/,
  },
  {
    what: 'a geometry without coordinates',
    feature: { type: 'Feature', properties: {}, geometry: { type: 'Point' } },
    reason: /geometry\.coordinates/,
  },
  {
    what: 'a geometry that is text',
    feature: { type: 'Feature', properties: {}, geometry: 'POINT (70 20)' },
    reason: /geometry object/,
  },
  {
    what: 'a Feature without a geometry member',
    feature: { type: 'Feature', properties: {} },
    reason: /geometry member/,
  },
  {
    what: 'an empty property name',
    feature: { type: 'Feature', properties: { '': 1, name: 'x' }, geometry: point(70, 20) },
    reason: /property name is empty/,
  },
  {
    what: 'properties that are an array',
    feature: { type: 'Feature', properties: [1, 2], geometry: point(70, 20) },
    reason: /properties must be an object or null/,
  },
  {
    what: 'properties that are text',
    feature: { type: 'Feature', properties: 'name=x', geometry: point(70, 20) },
    reason: /properties must be an object or null/,
  },
  {
    what: 'a latitude out of range',
    feature: { type: 'Feature', properties: {}, geometry: point(70, 100) },
    reason: /latitude 100 is outside -90\.\.90/,
  },
  {
    what: 'a Point with empty coordinates',
    feature: { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [] } },
    reason: /geometry\.coordinates: a Point without any position.*"geometry": null/,
  },
  {
    what: 'a Polygon with empty coordinates',
    feature: { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [] } },
    reason: /geometry\.coordinates: a Polygon without any position/,
  },
  {
    what: 'a GeometryCollection without any geometry',
    feature: { type: 'Feature', properties: {}, geometry: { type: 'GeometryCollection', geometries: [] } },
    reason: /geometry\.geometries: a GeometryCollection without any geometry/,
  },
  {
    what: 'collections nested too deep',
    feature: {
      type: 'Feature',
      properties: {},
      geometry: [1, 2, 3, 4, 5].reduce<unknown>(
        (inner) => ({ type: 'GeometryCollection', geometries: [inner] }),
        point(70, 20),
      ),
    },
    reason: /nest at most/,
  },
]

async function write(dir: string, name: string, content: string | Uint8Array): Promise<string> {
  const file = path.join(dir, name)
  await writeFile(file, content)
  return file
}

async function refusal(work: Promise<unknown>): Promise<ImportError> {
  try {
    await work
  } catch (error) {
    if (error instanceof ImportError) return error
    throw error
  }
  throw new Error('the import was expected to be refused')
}

async function datasetFolders(ws: Workspace): Promise<string[]> {
  return readdir(path.join(ws.dir, 'datasets')).catch(() => [])
}

describe('GeoJSON is checked per RFC 7946 at import', () => {
  it.each(INVALID)('refuses $what, naming the feature and the reason', async ({ feature, reason }) => {
    const dir = tempDir()
    const ws = new Workspace(path.join(dir, 'ws'))
    const file = await write(
      dir,
      'bad.geojson',
      JSON.stringify({ type: 'FeatureCollection', features: [good(0), feature, good(2)] }),
    )
    const error = await refusal(importFile(ws, file))
    expect(error.message).toMatch(/^1 of 3 features is invalid/)
    expect(error.message).toMatch(/feature 1: /)
    expect(error.message).toMatch(reason)
    expect(error.message).toMatch(/skip invalid features/)
    expect(await datasetFolders(ws)).toEqual([])
  })

  it('lists the first 10 invalid features, tells how many there are, and imports nothing', async () => {
    const dir = tempDir()
    const ws = new Workspace(path.join(dir, 'ws'))
    const features = [...INVALID.map((c) => c.feature), good(100), good(101)]
    const file = await write(dir, 'many.geojson', JSON.stringify({ type: 'FeatureCollection', features }))
    const error = await refusal(importFile(ws, file))
    expect(error.message).toMatch(
      new RegExp(`^${INVALID.length} of ${INVALID.length + 2} features are invalid`),
    )
    for (let i = 0; i < 10; i++) expect(error.message).toContain(`feature ${i}: `)
    expect(error.message).not.toContain('feature 10: ')
    expect(error.message).toMatch(new RegExp(`and ${INVALID.length - 10} more`))
    expect(error.message).toMatch(/import the 2 valid features/)
    expect(await datasetFolders(ws)).toEqual([])
  })

  it('with "skip invalid features", imports the valid ones and reports how many were skipped', async () => {
    const dir = tempDir()
    const ws = new Workspace(path.join(dir, 'ws'))
    const features = [good(0), ...INVALID.map((c) => c.feature), good(1)]
    const file = await write(dir, 'mixed.geojson', JSON.stringify({ type: 'FeatureCollection', features }))
    const manifest = await importFile(ws, file, { skipInvalid: true })
    expect(manifest).toMatchObject({ name: 'mixed', featureCount: 2, skippedInvalid: INVALID.length })
    const { features: stored } = await ws.read('mixed')
    expect(stored.map((f) => f.properties.id)).toEqual([0, 1])
  })

  it('refuses, even with skipping on, a file none of whose features is valid', async () => {
    const dir = tempDir()
    const ws = new Workspace(path.join(dir, 'ws'))
    const file = await write(
      dir,
      'none.geojson',
      JSON.stringify({ type: 'FeatureCollection', features: INVALID.slice(0, 3).map((c) => c.feature) }),
    )
    const error = await refusal(importFile(ws, file, { skipInvalid: true }))
    expect(error.message).toMatch(/none of its 3 features is valid/)
    expect(await datasetFolders(ws)).toEqual([])
  })

  it('names an invalid feature by its id as well as its position', async () => {
    const dir = tempDir()
    const ws = new Workspace(path.join(dir, 'ws'))
    const features = [
      { ...good(0), id: 'well-7' },
      { type: 'Feature', id: 'well-8', properties: {}, geometry: { type: 'Point', coordinates: [] } },
      { type: 'Feature', id: 9, properties: {}, geometry: point(70, 95) },
    ]
    const file = await write(dir, 'ids.geojson', JSON.stringify({ type: 'FeatureCollection', features }))
    const error = await refusal(importFile(ws, file))
    expect(error.message).toContain(
      'feature 1 (id "well-8"): geometry.coordinates: a Point without any position',
    )
    expect(error.message).toContain('feature 2 (id 9): geometry.coordinates: latitude 95 is outside')
  })

  it('refuses a document whose own type is misspelt, naming it (no feature to skip)', async () => {
    const dir = tempDir()
    const ws = new Workspace(path.join(dir, 'ws'))
    const file = await write(
      dir,
      'lower.geojson',
      JSON.stringify({ type: 'featurecollection', features: [good(0)] }),
    )
    const error = await refusal(importFile(ws, file, { skipInvalid: true }))
    expect(error.message).toMatch(/"featurecollection" is not a GeoJSON type.*case/)
  })

  it('a dataset imported with skipping is joinable: no 500 over any formerly poisoning input', async () => {
    const running = await runService({})
    try {
      const dir = tempDir()
      for (const [i, c] of INVALID.entries()) {
        const file = await write(
          dir,
          `poison_${i}.geojson`,
          JSON.stringify({ type: 'FeatureCollection', features: [good(0), c.feature] }),
        )
        await importFile(running.workspace, file, { skipInvalid: true })
        const joins: Array<Record<string, string | boolean>> = [
          { queryType: 'spatialOperation', operator: 'Intersects', userGeom: true },
          { queryType: 'basic', operator: '=', datasetRef: `poison_${i}`, refProperty: 'id' },
        ]
        for (const params of joins) {
          const { status, json } = await running.join(
            {
              datasetSource: `poison_${i}`,
              sourceProperty: params.queryType === 'basic' ? 'id' : 'geom',
              ...params,
            },
            params.userGeom
              ? {
                  type: 'FeatureCollection',
                  features: [{ type: 'Feature', properties: {}, geometry: square(60, 10, 80, 30) }],
                }
              : undefined,
          )
          expect(status, `${c.what}: ${JSON.stringify(json).slice(0, 200)}`).toBe(200)
        }
      }
    } finally {
      await running.stop()
    }
  })
})

/** Placemarks KML does not allow, each with the reason the import must give. */
const BAD_PLACEMARKS: Array<{ name: string; geometry: string; reason: RegExp }> = [
  {
    name: 'nan',
    geometry: '<Point><coordinates>NaN,NaN</coordinates></Point>',
    reason: /a Point: the position "NaN,NaN" is not longitude,latitude/,
  },
  {
    name: 'nan-in-line',
    geometry: '<LineString><coordinates>70,20 nan,21</coordinates></LineString>',
    reason: /a LineString: the position "nan,21" is not/,
  },
  {
    name: 'words',
    geometry: '<Point><coordinates>abc,def</coordinates></Point>',
    reason: /the position "abc,def" is not/,
  },
  {
    name: 'one-number',
    geometry: '<Point><coordinates>70</coordinates></Point>',
    reason: /the position "70" is not/,
  },
  {
    name: 'no-coordinates',
    geometry: '<Point><coordinates> </coordinates></Point>',
    reason: /a Point has no coordinates/,
  },
  {
    name: 'short-ring',
    geometry:
      '<Polygon><outerBoundaryIs><LinearRing><coordinates>70,20 71,20 70,20</coordinates></LinearRing></outerBoundaryIs></Polygon>',
    reason: /ring needs at least 4 positions/,
  },
  {
    name: 'open-ring',
    geometry:
      '<Polygon><outerBoundaryIs><LinearRing><coordinates>70,20 71,20 71,21 70,21</coordinates></LinearRing></outerBoundaryIs></Polygon>',
    reason: /ring must be closed/,
  },
  {
    name: 'no-outer-ring',
    geometry:
      '<Polygon><innerBoundaryIs><LinearRing><coordinates>70,20 71,20 71,21 70,20</coordinates></LinearRing></innerBoundaryIs></Polygon>',
    reason: /a Polygon needs one outerBoundaryIs LinearRing, not 0/,
  },
  {
    name: 'far',
    geometry: '<Point><coordinates>200,20</coordinates></Point>',
    reason: /longitude 200 is outside -180\.\.180/,
  },
  {
    name: 'empty-multi',
    geometry: '<MultiGeometry></MultiGeometry>',
    reason: /a MultiGeometry holds no geometry/,
  },
]

const kmlOf = (placemarks: Array<{ name: string; geometry: string }>) =>
  `<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>${placemarks
    .map((p) => `<Placemark><name>${p.name}</name>${p.geometry}</Placemark>`)
    .join('\n')}</Document></kml>`

describe('KML is read strictly: a Placemark whose geometry cannot be read is named, never imported without it', () => {
  const fine = [
    { name: 'ok', geometry: '<Point><coordinates>70, 20</coordinates></Point>' },
    { name: 'no-geometry', geometry: '' },
  ]

  it.each(BAD_PLACEMARKS)('refuses $name, naming the Placemark and the reason', async (bad) => {
    const dir = tempDir()
    const ws = new Workspace(path.join(dir, 'ws'))
    const file = await write(dir, 'bad.kml', kmlOf([fine[0]!, bad, fine[1]!]))
    const error = await refusal(importFile(ws, file))
    expect(error.message).toMatch(/^1 of 3 features is invalid/)
    expect(error.message).toContain(`feature 1 ("${bad.name}"): `)
    expect(error.message).toMatch(bad.reason)
    expect(await datasetFolders(ws)).toEqual([])
  })

  it('with "skip invalid features" through the service, imports the rest and says how many were left out', async () => {
    const running = await runService({})
    try {
      const dir = tempDir()
      const file = await write(dir, 'pins.kml', kmlOf([fine[0]!, ...BAD_PLACEMARKS, fine[1]!]))
      const post = (body: unknown) =>
        fetch(`http://127.0.0.1:${running.service.port}/local/datasets/import`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      const refused = await post({ path: file })
      expect(refused.status).toBe(400)
      const text = await refused.text()
      expect(text).toContain(`${BAD_PLACEMARKS.length} of ${BAD_PLACEMARKS.length + 2} features are invalid`)
      expect(text).toContain('invalid-features')
      const imported = await post({ path: file, skipInvalid: true })
      expect(imported.status).toBe(201)
      expect(await imported.json()).toMatchObject({
        layername: 'pins',
        featureCount: 2,
        skippedInvalid: BAD_PLACEMARKS.length,
      })
      const { features } = await running.workspace.read('pins')
      expect(features).toEqual([
        { geometry: { type: 'Point', coordinates: [70, 20] }, properties: { name: 'ok' } },
        { geometry: null, properties: { name: 'no-geometry' } },
      ])
    } finally {
      await running.stop()
    }
  })

  it('WKT EMPTY in a CSV stays a feature without geometry, as that format writes none', async () => {
    const dir = tempDir()
    const ws = new Workspace(path.join(dir, 'ws'))
    const csv = await write(dir, 'empty.csv', 'id,wkt\n1,POINT (70 20)\n2,POINT EMPTY\n3,POLYGON EMPTY\n')
    expect(await importFile(ws, csv)).toMatchObject({ featureCount: 3, geometryType: 'POINT' })
    expect((await ws.read('empty')).features.map((f) => f.geometry)).toEqual([
      { type: 'Point', coordinates: [70, 20] },
      null,
      null,
    ])
  })
})

describe('the same geometry checks for every reader', () => {
  it('CSV: an unreadable WKT, an open ring, a longitude out of range, text for a latitude, a short row', async () => {
    const dir = tempDir()
    const ws = new Workspace(path.join(dir, 'ws'))
    const wkt = await write(
      dir,
      'shapes.csv',
      'id,wkt\n1,"POINT (70 20)"\n2,"POLYGON ((0 0, 1 1, 0 1))"\n3,"CIRCLE (1 2)"\n4,"POINT (500 20)"\n',
    )
    const error = await refusal(importFile(ws, wkt))
    expect(error.message).toMatch(/^3 of 4 features are invalid/)
    expect(error.message).toMatch(/line 3: .*(closed|ring)/i)
    expect(error.message).toMatch(/line 4: not a valid WKT geometry: .*CIRCLE/)
    expect(error.message).toMatch(/line 5: .*longitude 500 is outside/)
    expect((await importFile(ws, wkt, { skipInvalid: true })).skippedInvalid).toBe(3)

    const ll = await write(dir, 'wells.csv', 'name,lon,lat\nA,70,20\nB,70,north\nC,70\nD,71,21\n')
    const error2 = await refusal(importFile(ws, ll))
    expect(error2.message).toMatch(/line 3: longitude "70" \/ latitude "north" are not numbers/)
    expect(error2.message).toMatch(/line 4: 2 fields where the header has 3/)
    expect(await importFile(ws, ll, { skipInvalid: true })).toMatchObject({
      featureCount: 2,
      skippedInvalid: 2,
    })
  })

  it('KML, Shapefile, GeoPackage and FlatGeobuf: coordinates out of range and broken rings', async () => {
    const dir = tempDir()
    const ws = new Workspace(path.join(dir, 'ws'))
    const kml = await write(
      dir,
      'pins.kml',
      `<kml xmlns="http://www.opengis.net/kml/2.2"><Document>
        <Placemark><name>ok</name><Point><coordinates>70,20</coordinates></Point></Placemark>
        <Placemark><name>far</name><Point><coordinates>500,20</coordinates></Point></Placemark>
      </Document></kml>`,
    )
    expect((await refusal(importFile(ws, kml))).message).toMatch(/feature 1 \("far"\): .*longitude 500/)

    const shp = await write(
      dir,
      'pts.zip',
      zipSync(
        pointShapefile([
          [70, 20, 'a'],
          [500, 20, 'b'],
        ]),
      ),
    )
    expect((await refusal(importFile(ws, shp))).message).toMatch(/feature 1: .*longitude 500/)

    const gpkg = await write(
      dir,
      'far.gpkg',
      await writeGeoPackage(
        [
          { geometry: point(70, 20) as GeoJSON.Point, properties: {} },
          { geometry: point(70, -95) as GeoJSON.Point, properties: {} },
        ],
        [],
        { geometryType: 'POINT', extent: null },
      ),
    )
    expect((await refusal(importFile(ws, gpkg))).message).toMatch(/row 2: .*latitude -95/)

    const open: GeoJSON.Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [70, 20],
          [71, 20],
          [70, 20],
        ],
      ],
    }
    const fgb = await write(
      dir,
      'rings.fgb',
      writeFlatGeobuf(
        [
          { geometry: point(70, 20) as GeoJSON.Point, properties: {} },
          { geometry: open, properties: {} },
        ],
        [],
      ),
    )
    expect((await refusal(importFile(ws, fgb))).message).toMatch(/feature 1: .*at least 4 positions/)
    for (const file of [kml, shp, gpkg, fgb]) {
      expect((await importFile(ws, file, { skipInvalid: true })).skippedInvalid).toBe(1)
    }
    expect((await ws.list()).map((m) => m.featureCount)).toEqual([1, 1, 1, 1])
  })
})
