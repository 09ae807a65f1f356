import type { Feature, Geometry } from 'geojson'
import { DOMParser } from '@xmldom/xmldom'
import { kml } from '@tmcw/togeojson'
import { unzipSync } from 'fflate'
import * as shapefile from 'shapefile'
import { geosGeomToGeojson } from 'geos-wasm/helpers'
import { loadGeos, type Geos } from '../engine/geos'
import type { DatasetFeature } from '../workspace/features'
import { readFlatGeobuf } from '../workspace/fgb'
import { readGeoPackage } from '../workspace/gpkg'
import { epsgFromName, ImportError, reprojectGeometry, reprojectorFor, type Reprojector } from './crs'

/** Limits that keep a hostile archive from exhausting memory. */
export const ZIP_LIMITS = { maxEntries: 200, maxTotalBytes: 1024 * 1024 * 1024, maxRatio: 200 }

export type Format = 'geojson' | 'ndjson' | 'csv' | 'kml' | 'shapefile-zip' | 'fgb' | 'gpkg'

export function detectFormat(file: string, bytes: Uint8Array): Format {
  const lower = file.toLowerCase()
  if (bytes[0] === 0x66 && bytes[1] === 0x67 && bytes[2] === 0x62) return 'fgb'
  if (new TextDecoder().decode(bytes.subarray(0, 16)).startsWith('SQLite format 3')) return 'gpkg'
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return 'shapefile-zip'
  if (/\.(ndjson|geojsonl|geojsons|jsonl)$/.test(lower)) return 'ndjson'
  if (/\.(geojson|json)$/.test(lower)) return 'geojson'
  if (/\.csv$/.test(lower)) return 'csv'
  if (/\.kml$/.test(lower)) return 'kml'
  if (/\.fgb$/.test(lower)) return 'fgb'
  if (/\.gpkg$/.test(lower)) return 'gpkg'
  if (/\.zip$/.test(lower)) return 'shapefile-zip'
  throw new ImportError(
    `cannot tell the format of ${file}: use .geojson, .ndjson, .csv, .kml, .zip (Shapefile), .fgb or .gpkg`,
  )
}

const text = (bytes: Uint8Array) => new TextDecoder('utf-8', { fatal: false }).decode(bytes)

function asFeature(value: unknown, where: string): DatasetFeature {
  const v = value as { type?: string; geometry?: unknown; properties?: unknown; coordinates?: unknown }
  if (v && v.type === 'Feature') {
    return {
      geometry: (v.geometry ?? null) as Geometry | null,
      properties: (v.properties && typeof v.properties === 'object' ? v.properties : {}) as Record<
        string,
        unknown
      >,
    }
  }
  if (v && typeof v.type === 'string' && (v.coordinates !== undefined || v.type === 'GeometryCollection')) {
    return { geometry: v as unknown as Geometry, properties: {} }
  }
  throw new ImportError(`${where} is not a GeoJSON Feature or geometry`)
}

function geojsonCrs(value: unknown): Reprojector {
  const name = (value as { crs?: { properties?: { name?: unknown } } })?.crs?.properties?.name
  if (typeof name !== 'string') return undefined
  return reprojectorFor({ epsg: epsgFromName(name), label: name })
}

function readGeoJson(bytes: Uint8Array): { features: DatasetFeature[]; reproject: Reprojector } {
  let value: unknown
  try {
    value = JSON.parse(text(bytes))
  } catch (error) {
    throw new ImportError(`malformed JSON: ${(error as Error).message}`)
  }
  const v = value as { type?: string; features?: unknown }
  if (v?.type === 'FeatureCollection') {
    if (!Array.isArray(v.features)) throw new ImportError('a FeatureCollection needs a features array')
    return { features: v.features.map((f, i) => asFeature(f, `feature ${i}`)), reproject: geojsonCrs(value) }
  }
  return { features: [asFeature(value, 'the document')], reproject: geojsonCrs(value) }
}

function readNdjson(bytes: Uint8Array): DatasetFeature[] {
  const out: DatasetFeature[] = []
  text(bytes)
    .split(/\r?\n/)
    .forEach((line, i) => {
      if (line.trim() === '') return
      let value: unknown
      try {
        value = JSON.parse(line)
      } catch (error) {
        throw new ImportError(`line ${i + 1}: malformed JSON (${(error as Error).message})`)
      }
      out.push(asFeature(value, `line ${i + 1}`))
    })
  return out
}

/** RFC 4180 CSV: quoted fields with doubled quotes, comma separator, CRLF or LF rows. */
export function parseCsv(input: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < input.length; i++) {
    const c = input[i]
    if (quoted) {
      if (c === '"') {
        if (input[i + 1] === '"') {
          field += '"'
          i++
        } else quoted = false
      } else field += c
    } else if (c === '"' && field === '') quoted = true
    else if (c === ',') {
      row.push(field)
      field = ''
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && input[i + 1] === '\n') i++
      row.push(field)
      rows.push(row)
      row = []
      field = ''
    } else field += c
  }
  if (quoted) throw new ImportError('the CSV ends inside a quoted field (truncated file?)')
  if (field !== '' || row.length > 0) {
    row.push(field)
    rows.push(row)
  }
  return rows.filter((r) => !(r.length === 1 && r[0] === ''))
}

const LON_NAMES = ['lon', 'lng', 'long', 'longitude', 'x']
const LAT_NAMES = ['lat', 'latitude', 'y']
const WKT_NAMES = ['wkt', 'geom', 'geometry', 'the_geom', 'shape']

function wktToGeometry(geos: Geos, wkt: string, where: string): Geometry {
  const reader = geos.GEOSWKTReader_create()
  const size = Buffer.byteLength(wkt) + 1
  const ptr = geos.Module._malloc(size)
  try {
    geos.Module.stringToUTF8(wkt, ptr, size)
    const g = geos.GEOSWKTReader_read(reader, ptr)
    if (!g) throw new ImportError(`${where}: not a WKT geometry: ${wkt.slice(0, 60)}`)
    try {
      return geosGeomToGeojson(g, geos as never) as Geometry
    } finally {
      geos.GEOSGeom_destroy(g)
    }
  } finally {
    geos.Module._free(ptr)
    geos.GEOSWKTReader_destroy(reader)
  }
}

function typed(value: string): unknown {
  if (value === '') return null
  if (/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value) && !/^-?0\d/.test(value)) return Number(value)
  return value
}

async function readCsv(bytes: Uint8Array): Promise<DatasetFeature[]> {
  const rows = parseCsv(text(bytes).replace(/^\uFEFF/, ''))
  const header = rows.shift()
  if (!header) throw new ImportError('the CSV is empty')
  const lower = header.map((h) => h.trim().toLowerCase())
  const lonAt = lower.findIndex((h) => LON_NAMES.includes(h))
  const latAt = lower.findIndex((h) => LAT_NAMES.includes(h))
  const wktAt = lower.findIndex((h) => WKT_NAMES.includes(h))
  if (wktAt < 0 && (lonAt < 0 || latAt < 0)) {
    throw new ImportError(
      `the CSV needs longitude/latitude columns (${LON_NAMES.join('|')} and ${LAT_NAMES.join('|')}) or a WKT column (${WKT_NAMES.join('|')}); found: ${header.join(', ')}`,
    )
  }
  const geos = wktAt >= 0 ? await loadGeos() : undefined
  return rows.map((row, i) => {
    const line = i + 2
    if (row.length !== header.length) {
      throw new ImportError(`line ${line}: ${row.length} fields where the header has ${header.length}`)
    }
    const properties: Record<string, unknown> = {}
    header.forEach((name, j) => {
      if (j !== lonAt && j !== latAt && j !== wktAt) properties[name] = typed(row[j]!)
    })
    let geometry: Geometry | null = null
    if (wktAt >= 0) {
      const wkt = row[wktAt]!.trim()
      geometry = wkt ? wktToGeometry(geos!, wkt, `line ${line}`) : null
    } else {
      const lon = row[lonAt]!.trim()
      const lat = row[latAt]!.trim()
      if (lon !== '' || lat !== '') {
        const x = Number(lon)
        const y = Number(lat)
        if (!Number.isFinite(x) || !Number.isFinite(y) || lon === '' || lat === '') {
          throw new ImportError(`line ${line}: longitude "${lon}" / latitude "${lat}" are not numbers`)
        }
        geometry = { type: 'Point', coordinates: [x, y] }
      }
    }
    return { geometry, properties }
  })
}

function readKml(bytes: Uint8Array): DatasetFeature[] {
  const errors: string[] = []
  const doc = new DOMParser({
    onError: (level: string, message: string) => {
      if (level !== 'warning') errors.push(message)
    },
  }).parseFromString(text(bytes), 'text/xml')
  if (errors.length > 0) throw new ImportError(`malformed KML: ${errors[0]!.split('\n')[0]}`)
  const fc = kml(doc as never)
  return fc.features.map((f: Feature<Geometry | null>) => ({
    geometry: f.geometry,
    properties: (f.properties ?? {}) as Record<string, unknown>,
  }))
}

function unsafeEntryName(name: string): boolean {
  return (
    name.startsWith('/') ||
    name.startsWith('\\') ||
    /^[A-Za-z]:/.test(name) ||
    name.split(/[\\/]/).includes('..')
  )
}

async function readShapefileZip(
  bytes: Uint8Array,
): Promise<{ features: DatasetFeature[]; reproject: Reprojector }> {
  let total = 0
  let count = 0
  let entries: Record<string, Uint8Array>
  try {
    entries = unzipSync(bytes, {
      filter: (file) => {
        count++
        if (count > ZIP_LIMITS.maxEntries)
          throw new ImportError(`the zip holds more than ${ZIP_LIMITS.maxEntries} entries`)
        if (unsafeEntryName(file.name)) {
          throw new ImportError(
            `the zip entry name "${file.name}" points outside the archive (path traversal); refused`,
          )
        }
        total += file.originalSize
        if (
          total > ZIP_LIMITS.maxTotalBytes ||
          file.originalSize > Math.max(1 << 20, file.size * ZIP_LIMITS.maxRatio)
        ) {
          throw new ImportError('the zip expands far beyond its size (zip bomb?); refused')
        }
        return /\.(shp|dbf|prj|cpg)$/i.test(file.name)
      },
    })
  } catch (error) {
    if (error instanceof ImportError) throw error
    throw new ImportError(`not a readable zip archive: ${(error as Error).message}`)
  }
  const names = Object.keys(entries)
  const shp = names.filter((n) => /\.shp$/i.test(n))
  if (shp.length === 0) throw new ImportError('the zip holds no .shp file (a zipped Shapefile is expected)')
  if (shp.length > 1) throw new ImportError(`the zip holds ${shp.length} Shapefiles; import one at a time`)
  const base = shp[0]!.slice(0, -4)
  const find = (ext: string) => names.find((n) => n.toLowerCase() === (base + ext).toLowerCase())
  const dbfName = find('.dbf')
  const prjName = find('.prj')
  const prj = prjName ? text(entries[prjName]!).trim() : undefined
  const reproject = prj ? reprojectorFor({ wkt: prj, label: `of ${prjName}` }) : undefined
  let fc
  try {
    fc = await shapefile.read(entries[shp[0]!]!, dbfName ? entries[dbfName] : undefined, {
      encoding: find('.cpg') ? text(entries[find('.cpg')!]!).trim() : 'utf-8',
    })
  } catch (error) {
    throw new ImportError(`the Shapefile could not be read (truncated?): ${(error as Error).message}`)
  }
  return {
    features: fc.features.map((f) => ({
      geometry: (f.geometry ?? null) as Geometry | null,
      properties: (f.properties ?? {}) as Record<string, unknown>,
    })),
    reproject,
  }
}

/** Read any supported file into WGS84 features. */
export async function readFeatures(
  file: string,
  bytes: Uint8Array,
): Promise<{ format: Format; features: DatasetFeature[] }> {
  const format = detectFormat(file, bytes)
  let features: DatasetFeature[]
  let reproject: Reprojector = undefined
  switch (format) {
    case 'geojson':
      ;({ features, reproject } = readGeoJson(bytes))
      break
    case 'ndjson':
      features = readNdjson(bytes)
      break
    case 'csv':
      features = await readCsv(bytes)
      break
    case 'kml':
      features = readKml(bytes)
      break
    case 'shapefile-zip':
      ;({ features, reproject } = await readShapefileZip(bytes))
      break
    case 'fgb': {
      try {
        const read = await readFlatGeobuf(bytes)
        features = read.features
        reproject = read.crs ? reprojectorFor({ epsg: read.crs, label: `EPSG:${read.crs}` }) : undefined
      } catch (error) {
        if (error instanceof ImportError) throw error
        throw new ImportError(
          `the FlatGeobuf file could not be read (truncated?): ${(error as Error).message}`,
        )
      }
      break
    }
    case 'gpkg': {
      const read = await readGeoPackage(bytes)
      features = read.features
      reproject = read.srs ? reprojectorFor(read.srs) : undefined
      break
    }
  }
  return {
    format,
    features: features.map((f) => ({ ...f, geometry: reprojectGeometry(f.geometry, reproject) })),
  }
}
