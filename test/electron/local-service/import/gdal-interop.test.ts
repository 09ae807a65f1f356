import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Geometry, Position } from 'geojson'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  EXPORT_FORMATS,
  exportDataset,
  type ExportFormat,
} from '../../../../electron/local-service/export/export-dataset'
import { importInWorker } from '../../../../electron/local-service/import/import-runner'
import { WorkerPool } from '../../../../electron/local-service/pool/worker-pool'
import type { DatasetFeature } from '../../../../electron/local-service/workspace/features'
import { Workspace } from '../../../../electron/local-service/workspace/workspace'
import { gdalMissing, gdalRead, ogr2ogr, validateGeoPackage, type GdalRead } from '../../../support/gdal'

/**
 * Interoperability with GDAL (what QGIS and most GIS pipelines read and write with): GDAL writes every
 * format the app imports, in WGS84 and, where the format carries a CRS, in UTM 43N (EPSG:32643) and Web
 * Mercator (EPSG:3857); the app imports each through its import job (`importInWorker`, the worker the
 * service and the CLI run), exports each dataset in every export format, and GDAL reads every export
 * back. Geometry types are compared as GDAL reports them, coordinates within 1e-7° (about 1 cm), and
 * attribute values exactly; every GeoPackage export passes GDAL's GeoPackage validator. GPX is not an
 * import format of the app, so it is not here.
 */
const skip = gdalMissing()
const TOLERANCE = 1e-7

const ring = (x: number, y: number, w: number): Position[] => [
  [x, y],
  [x + w, y],
  [x + w, y + w],
  [x, y + w],
  [x, y],
]
/** A hole wound the other way from its shell, as RFC 7946 and Shapefile both want some way round. */
const hole = (x: number, y: number, w: number): Position[] => ring(x, y, w).reverse()

/** The source features: every geometry type, multi-parts, holes, none; numbers, text, null, Unicode. */
type SourceFeature = { geometry: Geometry | null; properties: Record<string, unknown> }
const FEATURES: SourceFeature[] = [
  {
    geometry: { type: 'Point', coordinates: [73.8567, 18.5204] },
    properties: { num: 1, name: 'Pune', score: 3.25, note: null, lat: 18.5 },
  },
  {
    geometry: {
      type: 'MultiPoint',
      coordinates: [
        [74.1, 18.9],
        [74.35, 19.05],
      ],
    },
    properties: { num: 2, name: 'Zürich – 東京 🌍', score: -0.5, note: 'two stops', lat: null },
  },
  {
    geometry: {
      type: 'LineString',
      coordinates: [
        [73.5, 18.2],
        [73.9, 18.6],
        [74.4, 18.7],
      ],
    },
    properties: { num: 3, name: 'नमस्ते road', score: 1000000.125, note: 'O\'Brien, "quoted"', lat: 0 },
  },
  {
    geometry: {
      type: 'MultiLineString',
      coordinates: [
        [
          [75.0, 19.0],
          [75.2, 19.3],
        ],
        [
          [75.4, 19.1],
          [75.6, 19.4],
          [75.8, 19.2],
        ],
      ],
    },
    properties: { num: 4, name: 'two lines', score: 0, note: null, lat: -12.75 },
  },
  {
    geometry: { type: 'Polygon', coordinates: [ring(76, 18, 0.5), hole(76.1, 18.1, 0.2)] },
    properties: { num: 5, name: 'field with a pond', score: 7, note: 'hole', lat: 18 },
  },
  {
    geometry: {
      type: 'MultiPolygon',
      coordinates: [[ring(76.8, 18.8, 0.4), hole(76.9, 18.9, 0.1)], [ring(77.5, 19.5, 0.3)]],
    },
    properties: { num: 6, name: 'islands', score: 2.5, note: null, lat: 19 },
  },
  { geometry: null, properties: { num: 7, name: 'no geometry', score: null, note: 'none', lat: null } },
]
/** Each with a `__proto__` attribute too (`['__proto__']:` in a literal is an ordinary key, as in a JSON file). */
const SOURCE = FEATURES.map((f): SourceFeature => ({
  ...f,
  properties: { ...f.properties, ['__proto__']: `p${String(f.properties.num)}` },
}))

const ALL = SOURCE.map((f) => f.properties.num as number)
const POINTS = [1, 2, 7]
const LINES = [3, 4, 7]
const POLYGONS = [5, 6, 7]

interface Source {
  /** Dataset name, and file name before the extension. */
  name: string
  driver: string
  extension: string
  epsg: number
  ids: number[]
  creation?: string[]
  /** How GDAL is to open the file (CSV: which columns are the geometry). */
  open?: string[]
}

const CSV_OPEN = ['KEEP_GEOM_COLUMNS=NO', 'AUTODETECT_TYPE=YES', 'EMPTY_STRING_AS_NULL=YES']
/** Shapefiles in UTF-8 (GDAL's default is ISO-8859-1, which cannot hold every name here). */
const UTF8 = ['-lco', 'ENCODING=UTF-8']
const CRS = [4326, 32643, 3857]
const SOURCES: Source[] = [
  ...CRS.flatMap((epsg): Source[] => [
    { name: `geojson_${epsg}`, driver: 'GeoJSON', extension: 'geojson', epsg, ids: ALL },
    { name: `gpkg_${epsg}`, driver: 'GPKG', extension: 'gpkg', epsg, ids: ALL },
    { name: `fgb_${epsg}`, driver: 'FlatGeobuf', extension: 'fgb', epsg, ids: ALL },
    {
      name: `shp_polygons_${epsg}`,
      driver: 'ESRI Shapefile',
      extension: 'shp.zip',
      epsg,
      ids: POLYGONS,
      creation: UTF8,
    },
  ]),
  {
    name: 'shp_lines',
    driver: 'ESRI Shapefile',
    extension: 'shp.zip',
    epsg: 4326,
    ids: LINES,
    creation: UTF8,
  },
  {
    name: 'shp_points',
    driver: 'ESRI Shapefile',
    extension: 'shp.zip',
    epsg: 4326,
    ids: POINTS,
    creation: [...UTF8, '-nlt', 'MULTIPOINT'],
  },
  {
    // GDAL's default: ISO-8859-1, said only by the .dbf's language driver byte (no .cpg). What it cannot
    // encode GDAL writes as "?"; the rest ("Zürich") must come through.
    name: 'shp_points_latin1',
    driver: 'ESRI Shapefile',
    extension: 'shp.zip',
    epsg: 4326,
    ids: POINTS,
    creation: ['-nlt', 'MULTIPOINT'],
  },
  {
    name: 'csv_wkt',
    driver: 'CSV',
    extension: 'csv',
    epsg: 4326,
    ids: ALL,
    creation: ['-lco', 'GEOMETRY=AS_WKT'],
    open: ['GEOM_POSSIBLE_NAMES=WKT', ...CSV_OPEN],
  },
  {
    name: 'csv_xy',
    driver: 'CSV',
    extension: 'csv',
    epsg: 4326,
    ids: [1, 7],
    creation: ['-lco', 'GEOMETRY=AS_XY'],
    open: ['X_POSSIBLE_NAMES=X', 'Y_POSSIBLE_NAMES=Y', ...CSV_OPEN],
  },
  { name: 'kml', driver: 'KML', extension: 'kml', epsg: 4326, ids: ALL },
]

/** How GDAL opens each export format the app writes (its CSV: the `wkt` column is the geometry). */
const EXPORT_OPEN: Record<ExportFormat, string[]> = {
  geojson: [],
  csv: ['GEOM_POSSIBLE_NAMES=wkt', ...CSV_OPEN],
  fgb: [],
  gpkg: [],
}

/** `ogrinfo`'s name of a dataset's declared geometry type, for the formats that declare one. */
const GDAL_TYPE: Record<string, string> = {
  POINT: 'Point',
  MULTIPOINT: 'Multi Point',
  LINESTRING: 'Line String',
  MULTILINESTRING: 'Multi Line String',
  POLYGON: 'Polygon',
  MULTIPOLYGON: 'Multi Polygon',
  GEOMETRYCOLLECTION: 'Geometry Collection',
  GEOMETRY: 'Unknown (any)',
}

let dir: string
let ws: Workspace
let pool: WorkerPool

beforeAll(async () => {
  if (skip) return
  dir = await mkdtemp(path.join(os.tmpdir(), 'geo-gdal-'))
  ws = new Workspace(path.join(dir, 'ws'))
  // One worker for every import job, as the service's pool would run them (no start per import).
  pool = new WorkerPool({ workers: 1 })
  await writeFile(
    path.join(dir, 'source.geojson'),
    JSON.stringify({
      type: 'FeatureCollection',
      features: SOURCE.map((f) => ({ type: 'Feature', properties: f.properties, geometry: f.geometry })),
    }),
  )
})
afterAll(async () => {
  if (skip) return
  await pool.close()
  await rm(dir, { recursive: true, force: true })
})

/** GDAL writes the source features of `source.ids` in its format and CRS. */
async function write(source: Source): Promise<string> {
  const file = path.join(dir, `${source.name}.${source.extension}`)
  await ogr2ogr([
    '-f',
    source.driver,
    '-t_srs',
    `EPSG:${source.epsg}`,
    '-where',
    `num IN (${source.ids.join(',')})`,
    ...(source.creation ?? []),
    file,
    path.join(dir, 'source.geojson'),
  ])
  return file
}

/** Rings counter-clockwise (a hole's too: orientation is a writer's choice, the shape is not). */
function normalised(geometry: Geometry | null): unknown {
  if (!geometry) return null
  const area = (r: Position[]) =>
    r.reduce((s, p, i) => s + (p[0]! * r[(i + 1) % r.length]![1]! - r[(i + 1) % r.length]![0]! * p[1]!), 0)
  const ringOf = (r: Position[]) => (area(r) < 0 ? [...r].reverse() : r).map((p) => p.slice(0, 2))
  switch (geometry.type) {
    case 'Polygon':
      return { type: 'Polygon', coordinates: geometry.coordinates.map(ringOf) }
    case 'MultiPolygon':
      return { type: 'MultiPolygon', coordinates: geometry.coordinates.map((p) => p.map(ringOf)) }
    case 'GeometryCollection':
      return { type: 'GeometryCollection', geometries: geometry.geometries.map(normalised) }
    default:
      return geometry
  }
}

/** Whether two geometries have the same type and structure, every coordinate within the tolerance. */
function sameGeometry(actual: Geometry | null, expected: Geometry | null): string | undefined {
  const a = normalised(actual)
  const e = normalised(expected)
  const walk = (x: unknown, y: unknown, at: string): string | undefined => {
    if (typeof x === 'number' && typeof y === 'number')
      return Math.abs(x - y) <= TOLERANCE ? undefined : `${at}: ${x} vs ${y}`
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) return `${at}: ${x.length} items vs ${y.length}`
      for (let i = 0; i < x.length; i++) {
        const d = walk(x[i], y[i], `${at}.${i}`)
        if (d) return d
      }
      return undefined
    }
    if (x && y && typeof x === 'object' && typeof y === 'object') {
      const rx = x as Record<string, unknown>
      const ry = y as Record<string, unknown>
      if (rx.type !== ry.type) return `${at}: ${String(rx.type)} vs ${String(ry.type)}`
      return walk(rx.coordinates ?? rx.geometries, ry.coordinates ?? ry.geometries, at)
    }
    return x === y ? undefined : `${at}: ${JSON.stringify(x)} vs ${JSON.stringify(y)}`
  }
  return walk(a, e, 'geometry')
}

/**
 * Each attribute of the source as GDAL reads it from the file GDAL wrote (so what the format could not hold,
 * GDAL's "?" for a character ISO-8859-1 lacks, is expected as GDAL reads it), and as written where GDAL's
 * reading names it otherwise (KML's `name` is GDAL's `Name`) or leaves it out (a null in KML).
 */
function expectedAttributes(read: GdalRead): Map<number, Record<string, unknown>> {
  return new Map(
    read.features.map((f) => {
      const num = Number(f.properties.num)
      const written = SOURCE.find((s) => s.properties.num === num)!.properties
      const expected = Object.fromEntries(
        Object.keys(written).map((k) => [k, Object.hasOwn(f.properties, k) ? f.properties[k] : written[k]]),
      )
      return [num, expected] as const
    }),
  )
}

/**
 * Every expected attribute, with its value. `absentIsNull`: a format without a null of its own (CSV's
 * empty cell, a FlatGeobuf feature without the value) is read by GDAL as "unset", which its GeoJSON leaves
 * out: there no key means null.
 */
function expectAttributes(
  actual: Record<string, unknown>,
  expected: Record<string, unknown>,
  where: string,
  absentIsNull = false,
) {
  for (const key of Object.keys(expected)) {
    const has = Object.hasOwn(actual, key)
    if (!(absentIsNull && !has && expected[key] === null))
      expect(has, `${where}: no attribute ${key}`).toBe(true)
    expect(has ? actual[key] : null, `${where}, ${key}`).toEqual(expected[key])
  }
}

/** The single-part type promoted to the dataset's Multi type, as GeoPackage and FlatGeobuf exports store it. */
function promoted(geometry: Geometry | null, declared: string): Geometry | null {
  if (!geometry || !declared.startsWith('MULTI') || geometry.type.toUpperCase() !== declared.slice(5))
    return geometry
  const coordinates = (geometry as { coordinates: unknown }).coordinates
  return { type: `Multi${geometry.type}`, coordinates: [coordinates] } as Geometry
}

const byId = (read: GdalRead) =>
  new Map(read.features.map((f) => [Number(f.properties.num), f.geometry] as const))

describe.skipIf(skip)(
  `GDAL writes, the app imports and exports, GDAL reads back${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    it.each(SOURCES.map((s) => [s.name, s] as const))(
      '%s',
      async (_name, source) => {
        const file = await write(source)
        // What GDAL reads from the file, in WGS84: the geometries and values the app must find.
        const truth = await gdalRead(file, { toWgs84: source.epsg !== 4326, open: source.open })
        const ids = truth.features.map((f) => Number(f.properties.num))
        // GDAL's FlatGeobuf writer leaves out a feature without geometry; every other writer keeps all.
        const written = source.driver === 'FlatGeobuf' ? source.ids.filter((id) => id !== 7) : source.ids
        expect([...ids].sort()).toEqual([...written].sort())
        const geometries = byId(truth)
        const attributes = expectedAttributes(truth)

        const manifest = await importInWorker(ws, file, { name: source.name, pool })
        expect(manifest.featureCount).toBe(ids.length)
        const { features } = await ws.read(source.name)
        const imported = new Map(features.map((f: DatasetFeature) => [Number(f.properties.num), f] as const))
        for (const id of ids) {
          const f = imported.get(id)
          expect(f, `${source.name}: feature ${id} imported`).toBeDefined()
          expect(
            sameGeometry(f!.geometry, geometries.get(id)!),
            `${source.name} import, feature ${id}`,
          ).toBeUndefined()
          expectAttributes(f!.properties, attributes.get(id)!, `${source.name} import, feature ${id}`)
        }

        // Written one after another (the app's work), read back by GDAL side by side (its processes).
        const outs = new Map<ExportFormat, string>()
        for (const format of EXPORT_FORMATS) {
          const out = path.join(dir, `${source.name}.export.${format}`)
          expect(await exportDataset(ws, source.name, format, out)).toBe(ids.length)
          outs.set(format, out)
        }
        const validation = await validateGeoPackage(outs.get('gpkg')!)
        expect(validation.output, `${source.name}: GeoPackage validator`).toBe('')
        expect(validation.ok).toBe(true)
        const reads = await Promise.all(
          EXPORT_FORMATS.map((format) => gdalRead(outs.get(format)!, { open: EXPORT_OPEN[format] })),
        )
        for (const [k, format] of EXPORT_FORMATS.entries()) {
          const back = reads[k]!
          const declared = format === 'gpkg' || format === 'fgb' ? manifest.geometryType : ''
          if (declared) {
            expect(back.layerGeometry, `${source.name}.${format}: declared type`).toBe(GDAL_TYPE[declared])
            expect(back.epsg, `${source.name}.${format}: CRS`).toBe(4326)
          }
          expect(back.features.map((f) => Number(f.properties.num))).toEqual(
            features.map((f) => Number(f.properties.num)),
          )
          for (const f of back.features) {
            const id = Number(f.properties.num)
            const want = promoted(geometries.get(id)!, declared)
            expect(
              sameGeometry(f.geometry, want),
              `${source.name} → ${format}, feature ${id}`,
            ).toBeUndefined()
            expectAttributes(
              f.properties,
              attributes.get(id)!,
              `${source.name} → ${format}, feature ${id}`,
              format === 'csv' || format === 'fgb',
            )
          }
        }
      },
      60_000,
    )
  },
)
