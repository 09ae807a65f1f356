import type { Geometry } from 'geojson'
import { geosGeomToGeojson } from 'geos-wasm/helpers'
import { loadGeos, type Geos } from '../engine/geos'
import { ImportError } from './crs'
import type { Candidate } from './validate'

/**
 * A CSV's rows as candidate features, whether the file was read whole (`readers.ts`) or streamed
 * (`csv-stream.ts`): the header picks the geometry columns, each row becomes one candidate.
 */

const LON_NAMES = ['lon', 'lng', 'long', 'longitude', 'x']
const LAT_NAMES = ['lat', 'latitude', 'y']
const WKT_NAMES = ['wkt', 'geom', 'geometry', 'the_geom', 'shape']

/** The geometry of a WKT text, or why it is not one (GEOS's reason, e.g. a ring that is not closed). */
function wktToGeometry(geos: Geos, wkt: string): Geometry | string {
  const reader = geos.GEOSWKTReader_create()
  const size = Buffer.byteLength(wkt) + 1
  const ptr = geos.Module._malloc(size)
  try {
    geos.Module.stringToUTF8(wkt, ptr, size)
    let g: number
    try {
      g = geos.GEOSWKTReader_read(reader, ptr)
    } catch (error) {
      return `not a valid WKT geometry: ${(error as Error).message.slice(0, 120)}`
    }
    if (!g) return `not a WKT geometry: ${wkt.slice(0, 60)}`
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

/** A plain number: digits without a leading zero (but a lone 0), a fraction, an exponent. */
const NUMBER = /^-?(?:(?:0|[1-9]\d*)(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/

/** A cell's value: null when empty, a number when it is written as a plain one, else the text. */
export function typed(value: string): unknown {
  if (value === '') return null
  // A plain number starts with a digit, a minus sign or a point: any other text is tested no further.
  const c = value.charCodeAt(0)
  if ((c < 0x30 || c > 0x39) && c !== 0x2d && c !== 0x2e) return value
  return NUMBER.test(value) ? Number(value) : value
}

/**
 * The header's names made unique: a name an earlier column has gets `_2`, `_3`, … (one no other column
 * has), so a repeated column is kept rather than overwritten.
 */
function uniqueNames(header: readonly string[]): string[] {
  const all = new Set(header)
  const used = new Set<string>()
  return header.map((name) => {
    let unique = name
    for (let n = 2; used.has(unique) || (unique !== name && all.has(unique)); n++) unique = `${name}_${n}`
    used.add(unique)
    return unique
  })
}

/** What the header says: which columns hold the geometry, the attributes' names. */
export interface CsvLayout {
  width: number
  lonAt: number
  latAt: number
  wktAt: number
  geos: Geos | undefined
  /** Each column's attribute name, undefined for a geometry column. */
  names: Array<string | undefined>
  /** Whether an attribute is named `__proto__` (its rows' properties are then made the slow way). */
  protoNamed: boolean
}

export async function csvLayout(header: readonly string[]): Promise<CsvLayout> {
  const lower = header.map((h) => h.trim().toLowerCase())
  const lonAt = lower.findIndex((h) => LON_NAMES.includes(h))
  const latAt = lower.findIndex((h) => LAT_NAMES.includes(h))
  const wktAt = lower.findIndex((h) => WKT_NAMES.includes(h))
  if (wktAt < 0 && (lonAt < 0 || latAt < 0)) {
    throw new ImportError(
      `the CSV needs longitude/latitude columns (${LON_NAMES.join('|')} and ${LAT_NAMES.join('|')}) or a WKT column (${WKT_NAMES.join('|')}); found: ${header.join(', ').slice(0, 200)}`,
    )
  }
  const geos = wktAt >= 0 ? await loadGeos() : undefined
  // With a WKT column, that column is the geometry and every other column an attribute (lon/lat named
  // ones included); without one, the longitude and latitude columns are the geometry.
  const geometryColumns = wktAt >= 0 ? [wktAt] : [lonAt, latAt]
  const names = uniqueNames(header).map((name, j) => (geometryColumns.includes(j) ? undefined : name))
  return { width: header.length, lonAt, latAt, wktAt, geos, names, protoNamed: names.includes('__proto__') }
}

/** Row `i` (0 = the first after the header, blank lines not counted) as a candidate feature. */
export function csvCandidate(layout: CsvLayout, row: readonly string[], i: number): Candidate {
  const where = `line ${i + 2}`
  if (row.length !== layout.width) {
    return { where, problem: `${row.length} fields where the header has ${layout.width}` }
  }
  const { names } = layout
  let properties: Record<string, unknown>
  if (layout.protoNamed) {
    // Own keys of a prototype-less object, so a column named `__proto__` is an attribute like any other.
    const values = Object.create(null) as Record<string, unknown>
    for (let j = 0; j < names.length; j++) {
      const name = names[j]
      if (name !== undefined) values[name] = typed(row[j]!)
    }
    properties = { ...values }
  } else {
    // The same object made directly (assigning creates own keys for every name but `__proto__`).
    properties = {}
    for (let j = 0; j < names.length; j++) {
      const name = names[j]
      if (name !== undefined) properties[name] = typed(row[j]!)
    }
  }
  if (layout.wktAt >= 0) {
    const wkt = row[layout.wktAt]!.trim()
    const geometry = wkt ? wktToGeometry(layout.geos!, wkt) : null
    return typeof geometry === 'string'
      ? { where, problem: geometry }
      : { where, geometry, properties, emptyIsNone: true }
  }
  const lon = row[layout.lonAt]!.trim()
  const lat = row[layout.latAt]!.trim()
  if (lon === '' && lat === '') return { where, geometry: null, properties }
  const x = Number(lon)
  const y = Number(lat)
  if (!Number.isFinite(x) || !Number.isFinite(y) || lon === '' || lat === '') {
    return {
      where,
      problem: `longitude "${lon.slice(0, 40)}" / latitude "${lat.slice(0, 40)}" are not numbers`,
    }
  }
  return { where, geometry: { type: 'Point', coordinates: [x, y] }, properties }
}
