import { createRequire } from 'node:module'
import type { Geometry } from 'geojson'
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js'
import { geosGeomToGeojson } from 'geos-wasm/helpers'
import { loadGeos, toGeos, type Geos } from '../engine/geos'
import { ImportError } from '../import/crs'
import { coerce, type DatasetFeature, type FieldInfo } from './features'

/**
 * GeoPackage through SQLite compiled to WebAssembly (sql.js): no native module to build or download.
 * Reads the first feature table; writes one feature table `features` in EPSG:4326. (sql.js is built without
 * the R*Tree module, so the written file carries no gpkg_rtree_index; readers build their own.)
 */
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
      const properties: Record<string, unknown> = {}
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
        } else if (name !== 'fid') properties[name] = v instanceof Uint8Array ? null : v
      })
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

function geometryBlob(geos: Geos, writer: number, geometry: Geometry): Uint8Array {
  const g = toGeos(geos, geometry)
  const sizePtr = geos.Module._malloc(4)
  try {
    const ptr = geos.GEOSWKBWriter_write(writer, g, sizePtr)
    const size = geos.Module.getValue(sizePtr, 'i32') as number
    const wkb = geos.Module.HEAPU8.slice(ptr, ptr + size)
    geos.GEOSFree(ptr)
    const out = new Uint8Array(8 + wkb.length)
    out.set([0x47, 0x50, 0, 0b0000_0001])
    new DataView(out.buffer).setInt32(4, 4326, true)
    out.set(wkb, 8)
    return out
  } finally {
    geos.Module._free(sizePtr)
    geos.GEOSGeom_destroy(g)
  }
}

const SQL_TYPE: Record<FieldInfo['type'], string> = {
  string: 'TEXT',
  number: 'DOUBLE',
  boolean: 'BOOLEAN',
  json: 'TEXT',
}

export async function writeGeoPackage(
  features: readonly DatasetFeature[],
  fields: readonly FieldInfo[],
  options: { table?: string; geometryType: string; extent: [number, number, number, number] | null },
): Promise<Uint8Array> {
  const SQL = await sqlJs()
  const geos = await loadGeos()
  const table = options.table ?? 'features'
  const db = new SQL.Database()
  const writer = geos.GEOSWKBWriter_create()
  try {
    db.run('PRAGMA application_id = 1196444487; PRAGMA user_version = 10400;')
    db.run(`CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL,
      organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT)`)
    db.run(`INSERT INTO gpkg_spatial_ref_sys VALUES
      ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', NULL),
      ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', NULL),
      ('WGS 84 geodetic', 4326, 'EPSG', 4326, 'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AUTHORITY["EPSG","4326"]]', NULL)`)
    db.run(`CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
      description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
      min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER)`)
    db.run(`CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL,
      srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL, PRIMARY KEY (table_name, column_name))`)
    const e = options.extent
    db.run(
      'INSERT INTO gpkg_contents (table_name, data_type, identifier, min_x, min_y, max_x, max_y, srs_id) VALUES (?, ?, ?, ?, ?, ?, ?, 4326)',
      [table, 'features', table, e?.[0] ?? null, e?.[1] ?? null, e?.[2] ?? null, e?.[3] ?? null],
    )
    db.run("INSERT INTO gpkg_geometry_columns VALUES (?, 'geom', ?, 4326, 0, 0)", [
      table,
      options.geometryType,
    ])
    const columns = fields.filter((f) => f.name.toLowerCase() !== 'fid' && f.name.toLowerCase() !== 'geom')
    db.run(
      `CREATE TABLE ${quote(table)} (fid INTEGER PRIMARY KEY AUTOINCREMENT, geom BLOB${columns.map((f) => `, ${quote(f.name)} ${SQL_TYPE[f.type]}`).join('')})`,
    )
    const insert = db.prepare(
      `INSERT INTO ${quote(table)} (geom${columns.map((f) => `, ${quote(f.name)}`).join('')}) VALUES (?${', ?'.repeat(columns.length)})`,
    )
    db.run('BEGIN')
    for (const f of features) {
      const values = columns.map((c) => {
        const v = coerce(f.properties[c.name], c.type)
        if (v === null) return null
        if (c.type === 'json') return JSON.stringify(v)
        if (c.type === 'boolean') return v ? 1 : 0
        return v as string | number
      })
      insert.run([f.geometry ? geometryBlob(geos, writer, f.geometry) : null, ...values])
    }
    db.run('COMMIT')
    insert.free()
    return db.export()
  } finally {
    geos.GEOSWKBWriter_destroy(writer)
    db.close()
  }
}
