import { createRequire } from 'node:module'
import type { Geometry } from 'geojson'
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js'
import { geosGeomToGeojson } from 'geos-wasm/helpers'
import { loadGeos, type Geos } from '../engine/geos'
import { ImportError } from '../import/crs'
import type { DatasetFeature } from './features'

/**
 * GeoPackage through SQLite compiled to WebAssembly (sql.js): no native module to build or download.
 * Reads the first feature table. Writing (with the R-tree spatial index, which needs an SQLite with the
 * R*Tree module) is `gpkg-writer.ts`.
 */
export { writeGeoPackage } from './gpkg-writer'
let sql: Promise<SqlJsStatic> | undefined
// Find the .wasm through module resolution, so it is found from a bundle as well as from the sources.
const sqlJs = () =>
  (sql ??= initSqlJs({
    locateFile: (file: string) => createRequire(import.meta.url).resolve(`sql.js/dist/${file}`),
  }))

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`
const ENVELOPE_BYTES = [0, 32, 48, 48, 64]

function wkbToGeometry(geos: Geos, wkb: Uint8Array): Geometry | null {
  const reader = geos.GEOSWKBReader_create()
  const ptr = geos.Module._malloc(wkb.length)
  try {
    geos.Module.HEAPU8.set(wkb, ptr)
    const g = geos.GEOSWKBReader_read(reader, ptr, wkb.length)
    if (!g) return null
    try {
      return geosGeomToGeojson(g, geos as never) as Geometry | null
    } finally {
      geos.GEOSGeom_destroy(g)
    }
  } finally {
    geos.Module._free(ptr)
    geos.GEOSWKBReader_destroy(reader)
  }
}

/** A GeoPackage geometry blob (header `GP`, flags, srs id, envelope, then WKB) as GeoJSON. */
export function gpkgBlobToGeometry(geos: Geos, blob: Uint8Array): Geometry | null {
  if (blob.length < 8 || blob[0] !== 0x47 || blob[1] !== 0x50)
    throw new ImportError('not a GeoPackage geometry (no "GP" header)')
  const flags = blob[3]!
  if ((flags >> 4) & 1) return null
  const envelope = ENVELOPE_BYTES[(flags >> 1) & 7]
  if (envelope === undefined) throw new ImportError('unknown envelope code in the geometry header')
  if (blob.length < 8 + envelope) throw new ImportError('the geometry header is cut short')
  let geometry: Geometry | null
  try {
    geometry = wkbToGeometry(geos, blob.subarray(8 + envelope))
  } catch (error) {
    throw new ImportError(`the WKB geometry could not be read (${(error as Error).message.slice(0, 120)})`)
  }
  if (!geometry) throw new ImportError('the WKB geometry could not be read')
  return geometry
}

/** A row of the feature table: its geometry and properties, or why its geometry could not be read. */
export interface GpkgRow extends DatasetFeature {
  problem?: string
}

export async function readGeoPackage(
  bytes: Uint8Array,
): Promise<{ features: GpkgRow[]; srs?: { epsg?: number; wkt?: string; label: string } }> {
  const SQL = await sqlJs()
  const geos = await loadGeos()
  let db: Database | undefined
  try {
    db = new SQL.Database(bytes)
    const tables = db.exec(
      "SELECT c.table_name, g.column_name, g.srs_id FROM gpkg_contents c JOIN gpkg_geometry_columns g ON g.table_name = c.table_name WHERE c.data_type = 'features' ORDER BY c.table_name",
    )
    const first = tables[0]?.values[0]
    if (!first) throw new ImportError('the GeoPackage has no feature table')
    const [table, geomColumn, srsId] = first as [string, string, number]
    let srs: { epsg?: number; wkt?: string; label: string } | undefined
    const srsRows = db.exec(
      'SELECT organization, organization_coordsys_id, definition FROM gpkg_spatial_ref_sys WHERE srs_id = ?',
      [srsId],
    )
    const row = srsRows[0]?.values[0]
    if (row) {
      const [org, code, definition] = row as [string, number, string]
      srs = {
        epsg: String(org).toUpperCase() === 'EPSG' ? Number(code) : srsId === 4326 ? 4326 : undefined,
        wkt: definition && definition !== 'undefined' ? definition : undefined,
        label: `${org}:${code}`,
      }
    }
    const result = db.exec(`SELECT * FROM ${quote(table)}`)[0]
    const columns = result?.columns ?? []
    const features: GpkgRow[] = (result?.values ?? []).map((values) => {
      // Own keys of a prototype-less object, copied: a column named `__proto__` is an ordinary attribute.
      const own = Object.create(null) as Record<string, unknown>
      let geometry: Geometry | null = null
      let problem: string | undefined
      columns.forEach((name, j) => {
        const v = values[j]
        if (name === geomColumn) {
          try {
            geometry = v instanceof Uint8Array ? gpkgBlobToGeometry(geos, v) : null
          } catch (error) {
            problem = (error as Error).message
          }
        } else if (name !== 'fid') own[name] = v instanceof Uint8Array ? null : v
      })
      const properties = { ...own }
      return problem ? { geometry: null, properties, problem } : { geometry, properties }
    })
    return { features, srs }
  } catch (error) {
    if (error instanceof ImportError) throw error
    throw new ImportError(
      `the GeoPackage could not be read (corrupt or truncated?): ${(error as Error).message}`,
    )
  } finally {
    db?.close()
  }
}
