import { debuglog } from 'node:util'
import type { Geometry } from 'geojson'
import sqlite3InitModule from '@sqlite.org/sqlite-wasm'
import { loadGeos, toGeos, type Geos } from '../engine/geos'
import { coerce, geometryBBox, type DatasetFeature, type FieldInfo } from './features'
import { packRtree, type RtreeEntry } from './rtree-pack'

/**
 * GeoPackage export: one feature table in EPSG:4326 with the GeoPackage R-tree spatial index extension
 * (`gpkg_rtree_index`), written with SQLite's own WebAssembly build (`@sqlite.org/sqlite-wasm`, which has the
 * R*Tree module that sql.js lacks). The file is what GDAL 3.6 writes for the same layer — the index, its
 * triggers and its `gpkg_extensions` row — so QGIS and GDAL use the index for large layers. Why this SQLite:
 * docs/decisions/021-geopackage-rtree-index.md.
 */
type Sqlite3 = Awaited<ReturnType<typeof sqlite3InitModule>>

let sqlite: Promise<Sqlite3> | undefined
const debugLog = debuglog('sqlite')
const sqlite3 = () =>
  (sqlite ??= (sqlite3InitModule as (options?: object) => Promise<Sqlite3>)({
    print: (text: string) => debugLog('%s', text),
    printErr: (text: string) => debugLog('%s', text),
  }))

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

/** GeoPackage 1.2 (GDAL 3.6 writes it; 1.4 readers read it). */
const GPKG_USER_VERSION = 10200
/** 'GPKG' as the SQLite application id. */
const GPKG_APPLICATION_ID = 1196444487

function geometryBlob(geos: Geos, writer: number, geometry: Geometry): Uint8Array {
  const g = toGeos(geos, geometry)
  const sizePtr = geos.Module._malloc(4)
  try {
    const ptr = geos.GEOSWKBWriter_write(writer, g, sizePtr)
    const size = geos.Module.getValue(sizePtr, 'i32') as number
    const wkb = geos.Module.HEAPU8.slice(ptr, ptr + size)
    geos.GEOSFree(ptr)
    // Header: "GP", version 0, flags (little-endian, no envelope), srs id 4326; then the WKB.
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

/** The core tables of a GeoPackage (spec §1.1) and the extensions table, with EPSG:4326 defined. */
const CORE_SCHEMA = `
  CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL,
    organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
  INSERT INTO gpkg_spatial_ref_sys VALUES
    ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', 'undefined cartesian coordinate reference system'),
    ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', 'undefined geographic coordinate reference system'),
    ('WGS 84 geodetic', 4326, 'EPSG', 4326, 'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AUTHORITY["EPSG","4326"]]', 'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid');
  CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
    description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER,
    CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
  CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL,
    srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,
    CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name),
    CONSTRAINT uk_gc_table_name UNIQUE (table_name),
    CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
    CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
  CREATE TABLE gpkg_extensions (table_name TEXT, column_name TEXT, extension_name TEXT NOT NULL,
    definition TEXT NOT NULL, scope TEXT NOT NULL,
    CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name));
`

/**
 * The R-tree extension's triggers (spec F.3, as GDAL writes them): they keep the index in step when a
 * reader edits the layer. They call ST_* functions that GeoPackage readers provide (GDAL, QGIS); this
 * writer fills the index itself and never fires them.
 */
function rtreeTriggers(table: string, column: string): string {
  const t = quote(table)
  const c = column
  const rtree = quote(`rtree_${table}_${column}`)
  const name = (suffix: string) => quote(`rtree_${table}_${column}_${suffix}`)
  const values = `(NEW."fid",ST_MinX(NEW.${quote(c)}), ST_MaxX(NEW.${quote(c)}),ST_MinY(NEW.${quote(c)}), ST_MaxY(NEW.${quote(c)}))`
  const some = (v: string) => `(${v}.${quote(c)} NOTNULL AND NOT ST_IsEmpty(${v}.${quote(c)}))`
  const none = (v: string) => `(${v}.${quote(c)} ISNULL OR ST_IsEmpty(${v}.${quote(c)}))`
  return [
    `CREATE TRIGGER ${name('insert')} AFTER INSERT ON ${t} WHEN (new.${quote(c)} NOT NULL AND NOT ST_IsEmpty(NEW.${quote(c)})) BEGIN INSERT OR REPLACE INTO ${rtree} VALUES ${values}; END`,
    `CREATE TRIGGER ${name('update1')} AFTER UPDATE OF ${quote(c)} ON ${t} WHEN OLD."fid" = NEW."fid" AND ${some('NEW')} BEGIN INSERT OR REPLACE INTO ${rtree} VALUES ${values}; END`,
    `CREATE TRIGGER ${name('update2')} AFTER UPDATE OF ${quote(c)} ON ${t} WHEN OLD."fid" = NEW."fid" AND ${none('NEW')} BEGIN DELETE FROM ${rtree} WHERE id = OLD."fid"; END`,
    `CREATE TRIGGER ${name('update3')} AFTER UPDATE ON ${t} WHEN OLD."fid" != NEW."fid" AND ${some('NEW')} BEGIN DELETE FROM ${rtree} WHERE id = OLD."fid"; INSERT OR REPLACE INTO ${rtree} VALUES ${values}; END`,
    `CREATE TRIGGER ${name('update4')} AFTER UPDATE ON ${t} WHEN OLD."fid" != NEW."fid" AND ${none('NEW')} BEGIN DELETE FROM ${rtree} WHERE id IN (OLD."fid", NEW."fid"); END`,
    `CREATE TRIGGER ${name('delete')} AFTER DELETE ON ${t} WHEN old.${quote(c)} NOT NULL BEGIN DELETE FROM ${rtree} WHERE id = OLD."fid"; END`,
  ].join(';\n')
}

/**
 * Fill an empty SQLite R*Tree (`CREATE VIRTUAL TABLE … USING rtree(id, minx, maxx, miny, maxy)`) with a
 * packed tree of the entries, written straight into its shadow tables: one pass, instead of SQLite's
 * one-by-one insertion (several times slower, decision 021). The node size is the one SQLite chose for the
 * table (the length of its empty root node).
 */
function writeRtree(db: InstanceType<Sqlite3['oo1']['DB']>, name: string, entries: RtreeEntry[]): void {
  if (entries.length === 0) return
  const nodeBytes = Number(
    db.selectValue(`SELECT length(data) FROM ${quote(`${name}_node`)} WHERE nodeno = 1`),
  )
  const packed = packRtree(entries, nodeBytes)
  db.exec(`DELETE FROM ${quote(`${name}_node`)}`)
  insertRows(
    db,
    `${name}_node`,
    ['nodeno', 'data'],
    [false, true],
    packed.nodes.map((n) => [n.nodeno, n.data]),
  )
  insertRows(db, `${name}_rowid`, ['rowid', 'nodeno'], [false, false], packed.rowids)
  insertRows(db, `${name}_parent`, ['nodeno', 'parentnode'], [false, false], packed.parents)
}

/** Rows per statement when inserting through `json_each`. */
const BATCH = 5000

/**
 * Insert rows into `table`, many per statement: each batch is bound as one JSON array and expanded by
 * `json_each` inside SQLite (blobs as hex, `unhex`ed) — about twice as fast as a statement per row through
 * the WebAssembly boundary.
 */
function insertRows(
  db: InstanceType<Sqlite3['oo1']['DB']>,
  table: string,
  columns: readonly string[],
  blob: readonly boolean[],
  rows: Iterable<ReadonlyArray<unknown>>,
): void {
  const picks = columns.map((_, i) => (blob[i] ? `unhex(value->>${i})` : `value->>${i}`)).join(', ')
  const statement = db.prepare(
    `INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) SELECT ${picks} FROM json_each(?)`,
  )
  try {
    let batch: unknown[][] = []
    const flush = () => {
      if (batch.length === 0) return
      statement.bind([JSON.stringify(batch)]).stepReset()
      batch = []
    }
    for (const row of rows) {
      batch.push(row.map((v, i) => (blob[i] && v instanceof Uint8Array ? hex(v) : v)))
      if (batch.length === BATCH) flush()
    }
    flush()
  } finally {
    statement.finalize()
  }
}

const hex = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')

/**
 * A GeoPackage holding the features as table `table` (default `features`), geometry column `geom` typed as
 * `geometryType`, EPSG:4326, with the R-tree spatial index over the features' boxes.
 */
export async function writeGeoPackage(
  features: readonly DatasetFeature[],
  fields: readonly FieldInfo[],
  options: { table?: string; geometryType: string; extent: [number, number, number, number] | null },
): Promise<Uint8Array> {
  const sqlite = await sqlite3()
  const geos = await loadGeos()
  const table = options.table ?? 'features'
  const column = 'geom'
  const db = new sqlite.oo1.DB(':memory:', 'c')
  const writer = geos.GEOSWKBWriter_create()
  try {
    db.exec(`PRAGMA application_id = ${GPKG_APPLICATION_ID}; PRAGMA user_version = ${GPKG_USER_VERSION};`)
    db.exec(CORE_SCHEMA)
    const e = options.extent
    db.exec({
      sql: 'INSERT INTO gpkg_contents (table_name, data_type, identifier, min_x, min_y, max_x, max_y, srs_id) VALUES (?, ?, ?, ?, ?, ?, ?, 4326)',
      bind: [table, 'features', table, e?.[0] ?? null, e?.[1] ?? null, e?.[2] ?? null, e?.[3] ?? null],
    })
    db.exec({
      sql: 'INSERT INTO gpkg_geometry_columns VALUES (?, ?, ?, 4326, 0, 0)',
      bind: [table, column, options.geometryType],
    })
    const columns = fields.filter((f) => f.name.toLowerCase() !== 'fid' && f.name.toLowerCase() !== column)
    db.exec(
      `CREATE TABLE ${quote(table)} (fid INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, ${quote(column)} ${options.geometryType}${columns.map((f) => `, ${quote(f.name)} ${SQL_TYPE[f.type]}`).join('')})`,
    )
    const rtreeName = `rtree_${table}_${column}`
    const rtree = quote(rtreeName)
    db.exec(`CREATE VIRTUAL TABLE ${rtree} USING rtree(id, minx, maxx, miny, maxy)`)
    db.exec('BEGIN')
    const entries: RtreeEntry[] = []
    const names = ['fid', column, ...columns.map((c) => c.name)]
    insertRows(
      db,
      table,
      names,
      names.map((_, i) => i === 1),
      (function* rows() {
        for (let i = 0; i < features.length; i++) {
          const f = features[i]!
          const fid = i + 1
          // Empty and absent geometries are not indexed (as the extension's triggers do).
          const box = geometryBBox(f.geometry)
          if (box) entries.push({ id: fid, box })
          yield [
            fid,
            f.geometry ? geometryBlob(geos, writer, f.geometry) : null,
            ...columns.map((c) => {
              const v = coerce(f.properties[c.name], c.type)
              if (v === null) return null
              if (c.type === 'json') return JSON.stringify(v)
              if (c.type === 'boolean') return v ? 1 : 0
              return v as string | number
            }),
          ]
        }
      })(),
    )
    writeRtree(db, rtreeName, entries)
    db.exec(rtreeTriggers(table, column))
    db.exec({
      sql: "INSERT INTO gpkg_extensions VALUES (?, ?, 'gpkg_rtree_index', 'http://www.geopackage.org/spec120/#extension_rtree', 'write-only')",
      bind: [table, column],
    })
    db.exec('COMMIT')
    return sqlite.capi.sqlite3_js_db_export(db)
  } finally {
    geos.GEOSWKBWriter_destroy(writer)
    db.close()
  }
}
