import { readdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { strToU8, zipSync } from 'fflate'
import { serialize } from 'flatgeobuf/lib/mjs/geojson.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { importFile } from '../../../../electron/local-service/import/import-dataset'
import { writeGeoPackage } from '../../../../electron/local-service/workspace/gpkg'
import { Workspace } from '../../../../electron/local-service/workspace/workspace'
import { tempDir } from '../helpers'
import { pointShapefile } from './fixtures'

let dir: string
let ws: Workspace
beforeEach(async () => {
  dir = await tempDir('geo-import-')
  ws = new Workspace(path.join(dir, 'ws'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

async function file(name: string, content: string | Uint8Array): Promise<string> {
  const p = path.join(dir, name)
  await writeFile(p, content)
  return p
}

const UTM43N =
  'PROJCS["WGS_1984_UTM_Zone_43N",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",75.0],PARAMETER["Scale_Factor",0.9996],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]'

describe('import of each format', () => {
  it('GeoJSON, reprojected from a declared EPSG:3857', async () => {
    const p = await file(
      'merc.geojson',
      JSON.stringify({
        type: 'FeatureCollection',
        crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::3857' } },
        features: [
          {
            type: 'Feature',
            properties: { n: 1 },
            geometry: { type: 'Point', coordinates: [8571600.0, 2154935.92] },
          },
        ],
      }),
    )
    const m = await importFile(ws, p)
    expect(m.name).toBe('merc')
    const { features } = await ws.read('merc')
    const [lon, lat] = (features[0]!.geometry as GeoJSON.Point).coordinates
    expect(lon).toBeCloseTo(77.0, 2)
    expect(lat).toBeCloseTo(19.0, 2)
  })

  it('newline-delimited GeoJSON', async () => {
    const lines = [1, 2, 3].map((i) =>
      JSON.stringify({
        type: 'Feature',
        properties: { i },
        geometry: { type: 'Point', coordinates: [i, i] },
      }),
    )
    const m = await importFile(ws, await file('pts.ndjson', lines.join('\n') + '\n'))
    expect(m).toMatchObject({
      featureCount: 3,
      geometryType: 'POINT',
      fields: [{ name: 'i', type: 'number' }],
    })
  })

  it('CSV with longitude/latitude columns and CSV with a WKT column (quoted commas)', async () => {
    const ll = await importFile(
      ws,
      await file('cities.csv', 'name,lat,lon,pop\r\n"Pune, MH",18.52,73.85,3124458\r\nGoa,15.5,73.8,\r\n'),
    )
    expect(ll).toMatchObject({ featureCount: 2, extent: [73.8, 15.5, 73.85, 18.52] })
    const wkt = await importFile(
      ws,
      await file('shapes.csv', 'id,wkt\n1,"POLYGON ((0 0, 1 0, 1 1, 0 0))"\n2,"LINESTRING (0 0, 2 2)"\n'),
    )
    expect(wkt).toMatchObject({ featureCount: 2, geometryType: 'GEOMETRY' })
  })

  it('KML', async () => {
    const kml = `<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>
      <Placemark><name>Gate</name><Point><coordinates>72.8347,18.922,0</coordinates></Point></Placemark>
      <Placemark><name>Road</name><LineString><coordinates>72.8,18.9 72.9,19.0</coordinates></LineString></Placemark>
    </Document></kml>`
    const m = await importFile(ws, await file('places.kml', kml))
    expect(m.featureCount).toBe(2)
    const { features } = await ws.read('places')
    expect(features[0]!.properties.name).toBe('Gate')
  })

  it('zipped Shapefile with a .prj in UTM 43N, reprojected to WGS84', async () => {
    // 500000 E, 2100000 N in UTM 43N is on the central meridian 75°E, near 19°N.
    const zip = zipSync({ ...pointShapefile([[500000, 2100000, 'centre']]), 'pts.prj': strToU8(UTM43N) })
    const m = await importFile(ws, await file('pts.zip', zip))
    expect(m.featureCount).toBe(1)
    const { features } = await ws.read('pts')
    const [lon, lat] = (features[0]!.geometry as GeoJSON.Point).coordinates
    expect(lon).toBeCloseTo(75, 6)
    expect(lat).toBeCloseTo(18.99, 1)
    expect(features[0]!.properties.name).toBe('centre')
  })

  it('FlatGeobuf written by the flatgeobuf library', async () => {
    const bytes = serialize({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { k: 'v' },
          geometry: {
            type: 'LineString',
            coordinates: [
              [0, 0],
              [1, 1],
            ],
          },
        },
      ],
    })
    const m = await importFile(ws, await file('line.fgb', bytes))
    expect(m).toMatchObject({ featureCount: 1, geometryType: 'LINESTRING' })
  })

  it('GeoPackage', async () => {
    const bytes = await writeGeoPackage(
      [{ geometry: { type: 'Point', coordinates: [77.2, 28.6] }, properties: { name: 'Delhi', pop: 1 } }],
      [
        { name: 'name', type: 'string' },
        { name: 'pop', type: 'number' },
      ],
      { geometryType: 'POINT', extent: [77.2, 28.6, 77.2, 28.6] },
    )
    const m = await importFile(ws, await file('delhi.gpkg', bytes))
    expect(m).toMatchObject({ featureCount: 1, fields: [{ name: 'name' }, { name: 'pop' }] })
    expect((await ws.read('delhi')).features[0]).toEqual({
      geometry: { type: 'Point', coordinates: [77.2, 28.6] },
      properties: { name: 'Delhi', pop: 1 },
    })
  })
})

describe('every column and every part the file holds is kept', () => {
  it('CSV with a WKT column: columns named lat, latitude, lon, longitude, x and y are attributes', async () => {
    const m = await importFile(
      ws,
      await file(
        'sites.csv',
        'id,wkt,lat,latitude,lon,longitude,x,y\n' +
          '1,"POINT (73.85 18.52)",18.5,north,73.9,east,12.25,-3\n' +
          '2,"LINESTRING (70 20, 71 21)",,,,,0,0\n',
      ),
    )
    expect(m.fields.map((f) => f.name)).toEqual(['id', 'lat', 'latitude', 'lon', 'longitude', 'x', 'y'])
    const { features } = await ws.read('sites')
    expect(features[0]).toEqual({
      geometry: { type: 'Point', coordinates: [73.85, 18.52] },
      properties: { id: 1, lat: 18.5, latitude: 'north', lon: 73.9, longitude: 'east', x: 12.25, y: -3 },
    })
    expect(features[1]!.properties).toMatchObject({ lat: null, x: 0, y: 0 })
  })

  it('CSV whose header repeats a name: the later column is kept under a numbered name', async () => {
    const m = await importFile(ws, await file('twice.csv', 'name,lon,lat,name,name_2\nA,70,20,B,C\n'))
    expect(m.fields.map((f) => f.name)).toEqual(['name', 'name_3', 'name_2'])
    expect((await ws.read('twice')).features[0]!.properties).toEqual({ name: 'A', name_3: 'B', name_2: 'C' })
  })

  it('Shapefile text in the encoding its .cpg names, else its .dbf language driver (GDAL writes 87, ISO-8859-1)', async () => {
    /** A one-point Shapefile whose name field holds `bytes`, with language driver `ldid` and maybe a .cpg. */
    const shapefile = (bytes: number[], ldid: number, cpg?: string) => {
      const files = pointShapefile([[70, 20, 'x'.repeat(bytes.length)]])
      const dbf = files['pts.dbf']!
      dbf[29] = ldid
      dbf.set(bytes, 66)
      return zipSync({ ...files, ...(cpg === undefined ? {} : { 'pts.cpg': strToU8(cpg) }) })
    }
    const latin1 = [...'Zürich'].map((c) => c.charCodeAt(0))
    const utf8 = [...strToU8('Zürich')]
    const cases: Array<[string, Uint8Array]> = [
      ['ldid87', shapefile(latin1, 87)],
      ['cpg1252', shapefile(latin1, 0, '1252')],
      ['cpgansi', shapefile(latin1, 0, 'ANSI 1252\r\n')],
      ['cpgutf8', shapefile(utf8, 87, 'UTF-8')],
      ['ldid0', shapefile(utf8, 0)],
    ]
    for (const [name, zip] of cases) {
      await importFile(ws, await file(`${name}.zip`, zip))
      expect((await ws.read(name)).features[0]!.properties.name, name).toBe('Zürich')
    }
  })

  it('KML MultiGeometry of Polygons, LineStrings or Points only is the Multi type with the same parts', async () => {
    const ring = (x: number) => `${x},20 ${x + 1},20 ${x + 1},21 ${x},20`
    const polygon = (x: number, hole = '') =>
      `<Polygon><outerBoundaryIs><LinearRing><coordinates>${ring(x)}</coordinates></LinearRing></outerBoundaryIs>${hole}</Polygon>`
    const hole =
      '<innerBoundaryIs><LinearRing><coordinates>70.2,20.2 70.4,20.2 70.4,20.4 70.2,20.2</coordinates></LinearRing></innerBoundaryIs>'
    const line = (x: number) => `<LineString><coordinates>${x},20 ${x + 1},21</coordinates></LineString>`
    const point = (x: number) => `<Point><coordinates>${x},20</coordinates></Point>`
    const kml = (...placemarks: string[]) =>
      `<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>${placemarks
        .map((body, i) => `<Placemark><name>p${i}</name><MultiGeometry>${body}</MultiGeometry></Placemark>`)
        .join('')}</Document></kml>`
    const islands = await importFile(
      ws,
      await file('islands.kml', kml(polygon(70, hole) + polygon(72), polygon(74))),
    )
    expect(islands.geometryType).toBe('MULTIPOLYGON')
    const roads = await importFile(ws, await file('roads.kml', kml(line(70) + line(72))))
    expect(roads.geometryType).toBe('MULTILINESTRING')
    const stops = await importFile(ws, await file('stops.kml', kml(point(70) + point(72))))
    expect(stops.geometryType).toBe('MULTIPOINT')
    const mixed = await importFile(ws, await file('mixed.kml', kml(point(70) + line(72))))
    expect(mixed.geometryType).toBe('GEOMETRYCOLLECTION')

    expect((await ws.read('islands')).features.map((f) => f.geometry)).toEqual([
      {
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [70, 20],
              [71, 20],
              [71, 21],
              [70, 20],
            ],
            [
              [70.2, 20.2],
              [70.4, 20.2],
              [70.4, 20.4],
              [70.2, 20.2],
            ],
          ],
          [
            [
              [72, 20],
              [73, 20],
              [73, 21],
              [72, 20],
            ],
          ],
        ],
      },
      {
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [74, 20],
              [75, 20],
              [75, 21],
              [74, 20],
            ],
          ],
        ],
      },
    ])
    expect((await ws.read('roads')).features[0]!.geometry).toEqual({
      type: 'MultiLineString',
      coordinates: [
        [
          [70, 20],
          [71, 21],
        ],
        [
          [72, 20],
          [73, 21],
        ],
      ],
    })
    expect((await ws.read('stops')).features[0]!.geometry).toEqual({
      type: 'MultiPoint',
      coordinates: [
        [70, 20],
        [72, 20],
      ],
    })
    expect((await ws.read('mixed')).features[0]!.geometry).toEqual({
      type: 'GeometryCollection',
      geometries: [
        { type: 'Point', coordinates: [70, 20] },
        {
          type: 'LineString',
          coordinates: [
            [72, 20],
            [73, 21],
          ],
        },
      ],
    })
  })
})

describe('corrupt and hostile files: a clear error and the workspace unchanged', () => {
  async function refused(name: string, content: string | Uint8Array, message: RegExp) {
    await expect(importFile(ws, await file(name, content))).rejects.toThrow(message)
    expect(await ws.list()).toEqual([])
    const datasets = await readdir(path.join(ws.dir, 'datasets')).catch(() => [])
    expect(datasets).toEqual([])
  }

  it('a zip bomb', async () => {
    await refused('bomb.zip', zipSync({ 'a.shp': new Uint8Array(20 * 1024 * 1024) }), /zip bomb/)
  })

  it('a zip entry that climbs out of the archive', async () => {
    await refused('evil.zip', zipSync({ '../../evil.shp': new Uint8Array(10) }), /path traversal/)
  })

  it('huge coordinates', async () => {
    const fc = {
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [1e308, 5] } }],
    }
    await refused('huge.geojson', JSON.stringify(fc), /feature 0: .*longitude 1e\+308 is outside -180\.\.180/)
  })

  it('truncated GeoJSON, FlatGeobuf, GeoPackage and CSV', async () => {
    await refused('cut.geojson', '{"type":"FeatureCollection","features":[{"type":"Feat', /malformed JSON/)
    const fgb = serialize({
      type: 'FeatureCollection',
      features: Array.from({ length: 50 }, (_, i) => ({
        type: 'Feature' as const,
        properties: { i },
        geometry: { type: 'Point' as const, coordinates: [i, i] },
      })),
    })
    await refused('cut.fgb', fgb.subarray(0, Math.floor(fgb.length / 2)), /FlatGeobuf/)
    const gpkg = await writeGeoPackage(
      [{ geometry: { type: 'Point', coordinates: [1, 1] }, properties: {} }],
      [],
      { geometryType: 'POINT', extent: null },
    )
    await refused('cut.gpkg', gpkg.subarray(0, 1024), /GeoPackage/)
    await refused('cut.csv', 'name,lon,lat\n"unterminated,1,2\n', /truncated/)
  })

  it('a name with path tricks, and a duplicate name', async () => {
    const good = await file('ok.geojson', JSON.stringify({ type: 'Point', coordinates: [1, 1] }))
    await expect(importFile(ws, good, { name: '../escape' })).rejects.toThrow(/letters, digits/)
    await importFile(ws, good)
    await expect(importFile(ws, good)).rejects.toThrow(/already exists/)
    expect((await ws.list()).map((m) => m.name)).toEqual(['ok'])
  })
})
