import { Unzip, UnzipInflate, unzipSync } from 'fflate'
import { GEOMETRY_TYPES } from '../../contract/gis/geojson'
import { FlatGeobufError, readFlatGeobuf } from '../workspace/fgb'
import { readGeoPackage } from '../workspace/gpkg'
import { CsvError, parseCsv } from '../../../shared/csv'
import { epsgFromName, ImportError, reprojectorFor, type Reprojector } from './crs'
import { dbfEncoding } from './dbf-encoding'
import { readKml } from './kml'
import { csvCandidate, csvLayout } from './csv-rows'
import { kindOf } from './geojson-scan'
import type { Candidate } from './validate'

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

/** The longest string V8 makes (2^29 - 24 UTF-16 units); text formats are read whole. */
export const MAX_TEXT_BYTES = 0x1fffffe8

function text(bytes: Uint8Array): string {
  if (bytes.length > MAX_TEXT_BYTES) {
    throw new ImportError(
      `text files are read whole, up to ${Math.floor(MAX_TEXT_BYTES / 2 ** 20)} MiB; this one is ${Math.ceil(bytes.length / 2 ** 20)} MiB: split it, or convert it to FlatGeobuf or GeoPackage`,
    )
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes)
}

export const GEOMETRY_TYPE_NAMES = GEOMETRY_TYPES as readonly string[]

/** A Feature (or, where RFC 7946 allows a bare geometry, a geometry) as a candidate; checks come later. */
export function featureCandidate(value: unknown, where: string, bareGeometry: boolean): Candidate {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { where, problem: `not a GeoJSON Feature but ${kindOf(value)}` }
  }
  const v = value as { type?: unknown; geometry?: unknown; properties?: unknown; id?: unknown }
  if (typeof v.id === 'string' || typeof v.id === 'number')
    where = `${where} (id ${JSON.stringify(v.id).slice(0, 40)})`
  if (v.type === 'Feature') {
    if (!('geometry' in v))
      return { where, problem: 'a Feature needs a geometry member (null when it has none)' }
    return { where, geometry: v.geometry, properties: v.properties }
  }
  if (bareGeometry && GEOMETRY_TYPE_NAMES.includes(v.type as string))
    return { where, geometry: v, properties: null }
  return {
    where,
    problem: `not a GeoJSON Feature: its type is ${JSON.stringify(v.type)?.slice(0, 40) ?? 'missing'} (types are case-sensitive: "Feature")`,
  }
}

export function geojsonCrs(value: unknown): Reprojector {
  const name = (value as { crs?: { properties?: { name?: unknown } } })?.crs?.properties?.name
  if (typeof name !== 'string') return undefined
  return reprojectorFor({ epsg: epsgFromName(name), label: name })
}

function readGeoJson(bytes: Uint8Array): { candidates: Candidate[]; reproject: Reprojector } {
  let value: unknown
  try {
    value = JSON.parse(text(bytes).replace(/^\uFEFF/, ''))
  } catch (error) {
    if (error instanceof ImportError) throw error
    throw new ImportError(`malformed JSON: ${(error as Error).message}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ImportError(`the document is ${kindOf(value)}, not a GeoJSON object`)
  }
  const v = value as { type?: unknown; features?: unknown }
  if (v.type === 'FeatureCollection') {
    if (!Array.isArray(v.features)) throw new ImportError('a FeatureCollection needs a features array')
    return {
      candidates: v.features.map((f, i) => featureCandidate(f, `feature ${i}`, false)),
      reproject: geojsonCrs(value),
    }
  }
  if (v.type === 'Feature' || GEOMETRY_TYPE_NAMES.includes(v.type as string)) {
    return { candidates: [featureCandidate(value, 'feature 0', true)], reproject: geojsonCrs(value) }
  }
  throw notGeoJsonType(v.type)
}

/** The refusal of a document whose `type` is none of GeoJSON's. */
export function notGeoJsonType(type: unknown): ImportError {
  return new ImportError(
    `the document's type ${JSON.stringify(type)?.slice(0, 40) ?? '(missing)'} is not a GeoJSON type (types are case-sensitive: FeatureCollection, Feature, ${GEOMETRY_TYPE_NAMES.join(', ')})`,
  )
}

function readNdjson(bytes: Uint8Array): Candidate[] {
  const out: Candidate[] = []
  text(bytes)
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((line, i) => {
      if (line.trim() === '') return
      const where = `line ${i + 1}`
      let value: unknown
      try {
        value = JSON.parse(line)
      } catch (error) {
        out.push({ where, problem: `malformed JSON (${(error as Error).message.slice(0, 80)})` })
        return
      }
      out.push(featureCandidate(value, where, true))
    })
  return out
}

/** RFC 4180 CSV (the shared reader), its failure as an import error. */
function readCsvRows(input: string): string[][] {
  try {
    return parseCsv(input)
  } catch (error) {
    if (error instanceof CsvError) throw new ImportError(error.message)
    throw error
  }
}

async function readCsv(bytes: Uint8Array): Promise<Candidate[]> {
  const rows = readCsvRows(text(bytes))
  const header = rows.shift()
  if (!header) throw new ImportError('the CSV is empty')
  const layout = await csvLayout(header)
  return rows.map((row, i) => csvCandidate(layout, row, i))
}

function unsafeEntryName(name: string): boolean {
  return (
    name.startsWith('/') ||
    name.startsWith('\\') ||
    /^[A-Za-z]:/.test(name) ||
    name.split(/[\\/]/).includes('..')
  )
}

const SHAPE_TYPES = new Set([0, 1, 3, 5, 8, 11, 13, 15, 18, 21, 23, 25, 28])
const DBF_TYPES = 'BCDFLMN'

/** The .shp header says what the reader will trust: file code, shape type. */
function checkShp(shp: Uint8Array, name: string): void {
  if (shp.length < 100) throw new ImportError(`${name} is shorter than a Shapefile header (100 bytes)`)
  const view = new DataView(shp.buffer, shp.byteOffset, shp.byteLength)
  if (view.getInt32(0, false) !== 9994)
    throw new ImportError(`${name} is not a Shapefile (file code is not 9994)`)
  const type = view.getInt32(32, true)
  if (!SHAPE_TYPES.has(type))
    throw new ImportError(`${name} has shape type ${type}, which is not supported (MultiPatch or corrupt)`)
}

/** The .dbf header: its lengths fit the file and every field has a dBASE type. */
function checkDbf(dbf: Uint8Array, name: string): void {
  if (dbf.length < 33) throw new ImportError(`${name} is shorter than a dBASE header`)
  const view = new DataView(dbf.buffer, dbf.byteOffset, dbf.byteLength)
  const headerLength = view.getUint16(8, true)
  const recordLength = view.getUint16(10, true)
  if (headerLength < 33 || headerLength > dbf.length) {
    throw new ImportError(
      `${name} declares a header of ${headerLength} bytes in a file of ${dbf.length} (corrupt)`,
    )
  }
  let fieldsLength = 0
  let at = 32
  for (; at < headerLength - 1 && dbf[at] !== 0x0d; at += 32) {
    if (at + 32 > headerLength)
      throw new ImportError(`${name}: a field descriptor runs past the header (corrupt)`)
    const type = String.fromCharCode(dbf[at + 11]!)
    if (!DBF_TYPES.includes(type)) {
      throw new ImportError(
        `${name}: field ${(at - 32) / 32 + 1} has type "${type}", which dBASE does not define (corrupt)`,
      )
    }
    fieldsLength += dbf[at + 16]!
  }
  if (dbf[at] !== 0x0d) throw new ImportError(`${name}: the field list has no terminator (corrupt)`)
  if (recordLength < 1 || fieldsLength + 1 > recordLength) {
    throw new ImportError(
      `${name}: records of ${recordLength} bytes cannot hold fields of ${fieldsLength} (corrupt)`,
    )
  }
}

const bomb = () => new ImportError('the zip expands far beyond its size (zip bomb?); refused')

/**
 * The .shp, .dbf, .prj and .cpg entries of a zip, expanded within limits. The central directory is
 * checked first (entry count, names, declared sizes); then each wanted entry is inflated as a stream and
 * stopped as soon as it produces more than its declared size, since the declared size may lie.
 */
function unzipBounded(bytes: Uint8Array): Record<string, Uint8Array> {
  let total = 0
  let count = 0
  const declared = new Map<string, number>()
  try {
    unzipSync(bytes, {
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
          throw bomb()
        }
        if (/\.(shp|dbf|prj|cpg)$/i.test(file.name)) declared.set(file.name, file.originalSize)
        return false
      },
    })
  } catch (error) {
    if (error instanceof ImportError) throw error
    throw new ImportError(`not a readable zip archive: ${(error as Error).message}`)
  }
  const entries: Record<string, Uint8Array> = {}
  let failure: ImportError | undefined
  const unzip = new Unzip((file) => {
    const limit = declared.get(file.name)
    if (limit === undefined || failure) return
    const chunks: Uint8Array[] = []
    let length = 0
    file.ondata = (error, chunk, final) => {
      if (failure) return
      if (error) {
        failure = new ImportError(`the zip entry ${file.name} is corrupt (${error.message})`)
        return
      }
      length += chunk.length
      if (length > limit) {
        failure = bomb()
        file.terminate()
        return
      }
      chunks.push(chunk)
      if (final) entries[file.name] = Buffer.concat(chunks, length)
    }
    file.start()
  })
  unzip.register(UnzipInflate)
  try {
    // In slices, so one step expands at most ~16 MiB (deflate's ratio is about 1:1032) and a bomb stops early.
    const SLICE = 16 * 1024
    for (let at = 0; at < bytes.length && !failure; at += SLICE) {
      unzip.push(bytes.subarray(at, at + SLICE), at + SLICE >= bytes.length)
    }
  } catch (error) {
    if (!failure) throw new ImportError(`not a readable zip archive: ${(error as Error).message}`)
  }
  if (failure) throw failure
  return entries
}

async function readShapefileZip(
  bytes: Uint8Array,
): Promise<{ candidates: Candidate[]; reproject: Reprojector }> {
  const entries = unzipBounded(bytes)
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
  checkShp(entries[shp[0]!]!, shp[0]!)
  if (dbfName) checkDbf(entries[dbfName]!, dbfName)
  const cpgName = find('.cpg')
  const encoding = dbfEncoding(
    cpgName ? text(entries[cpgName]!) : undefined,
    dbfName ? entries[dbfName] : undefined,
  )
  const dbf = dbfName ? protoFieldRenamed(entries[dbfName]!) : undefined
  let fc
  try {
    // Loaded on the first Shapefile read, not with the importer.
    const shapefile = await import('shapefile')
    fc = await shapefile.read(entries[shp[0]!]!, dbf, { encoding })
  } catch (error) {
    throw new ImportError(`the Shapefile is corrupt or truncated (${(error as Error).message.slice(0, 120)})`)
  }
  return {
    candidates: fc.features.map((f, i) => ({
      where: `feature ${i}`,
      geometry: f.geometry,
      properties: protoFieldRestored(f.properties),
      emptyIsNone: true,
    })),
    reproject,
  }
}

/** What a dBASE field named `__proto__` is called while the Shapefile reader's plain objects hold it. */
const PROTO_STAND_IN = '\u0001_proto__'
const PROTO_BYTES = new TextEncoder().encode('__proto__\0')

/**
 * The .dbf with a field named `__proto__` renamed to a stand-in (a copy; the bytes as they are when no
 * field has that name): the reader builds each record as `record[name] = value`, which for `__proto__`
 * drops the value.
 */
function protoFieldRenamed(dbf: Uint8Array): Uint8Array {
  for (let at = 32; at + 32 <= dbf.length && dbf[at] !== 0x0d; at += 32) {
    if (PROTO_BYTES.every((b, j) => dbf[at + j] === b)) {
      const copy = dbf.slice()
      copy.set(new TextEncoder().encode(PROTO_STAND_IN), at)
      return copy
    }
  }
  return dbf
}

/** A record's properties with the stand-in named `__proto__` again, as an own key in its place. */
function protoFieldRestored(properties: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!properties || !Object.hasOwn(properties, PROTO_STAND_IN)) return properties
  const own = Object.create(null) as Record<string, unknown>
  for (const [k, v] of Object.entries(properties)) own[k === PROTO_STAND_IN ? '__proto__' : k] = v
  return { ...own }
}

/**
 * Read any supported file into candidate features, with the converter to WGS84 its CRS asks for. Whatever
 * the bytes, this finishes in time linear in their size or throws ImportError naming what is wrong.
 */
export async function readFeatures(
  file: string,
  bytes: Uint8Array,
): Promise<{ format: Format; candidates: Candidate[]; reproject: Reprojector }> {
  const format = detectFormat(file, bytes)
  switch (format) {
    case 'geojson':
      return { format, ...readGeoJson(bytes) }
    case 'ndjson':
      return { format, candidates: readNdjson(bytes), reproject: undefined }
    case 'csv':
      return { format, candidates: await readCsv(bytes), reproject: undefined }
    case 'kml':
      return { format, candidates: await readKml(text(bytes)), reproject: undefined }
    case 'shapefile-zip':
      return { format, ...(await readShapefileZip(bytes)) }
    case 'fgb': {
      let read: ReturnType<typeof readFlatGeobuf>
      try {
        read = readFlatGeobuf(bytes)
      } catch (error) {
        if (error instanceof FlatGeobufError)
          throw new ImportError(`the FlatGeobuf file is not readable: ${error.message}`)
        throw error
      }
      return {
        format,
        candidates: read.features.map((f, i) => ({ where: `feature ${i}`, ...f, emptyIsNone: true })),
        reproject: read.crs ? reprojectorFor({ epsg: read.crs, label: `EPSG:${read.crs}` }) : undefined,
      }
    }
    case 'gpkg': {
      const read = await readGeoPackage(bytes)
      return {
        format,
        candidates: read.features.map((f, i) => ({ where: `row ${i + 1}`, ...f, emptyIsNone: true })),
        reproject: read.srs ? reprojectorFor(read.srs) : undefined,
      }
    }
  }
}
