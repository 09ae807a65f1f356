import type { BBox } from 'geojson'
import { reprojectorFor } from '../import/crs'
import type { FieldInfo, FieldType } from '../workspace/features'
import { DatabaseWorkspaceError } from './errors'
import { quoteIdent } from './sql'

export { quoteIdent } from './sql'

/** What runs a statement: a pg client or pool, or a wrapper around one (the benchmark counts queries). */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>
}

/** One dataset of a PostGIS workspace, in the shape §4.6 lists datasets of a file workspace. */
export interface DatabaseDataset {
  /** The table's name, or `schema.table` outside the workspace's first schema. */
  name: string
  schema: string
  table: string
  kind: 'table' | 'view' | 'materialized view' | 'partitioned table' | 'foreign table'
  geometryType: string
  geometryColumn: string
  /** `geometry` or `geography`. */
  geometryKind: 'geometry' | 'geography'
  srid: number
  source: string
  fields: FieldInfo[]
  /** The planner's estimate (`pg_class.reltuples`); null where it has none (views, never analysed). */
  featureCount: number | null
  featureCountEstimated: true
  /** [minLon, minLat, maxLon, maxLat] from the planner's statistics; null where there are none. */
  extent: BBox | null
  created: null
  /** The team server's user who saved or imported it, when recorded (`geo_analyst.dataset_owner`). */
  owner?: string
}

/** What the first catalog query learns: the database, PostGIS, and each workspace schema. */
export interface WorkspaceCheck {
  database: string
  user: string
  postgisVersion: string
  postgisSchema: string
  /** The type oids of PostGIS' geometry and geography. */
  geometryOid: number
  geographyOid: number
  /**
   * A digest of the workspace schemas' relations (each one's oid, row version, row estimate and pages): a
   * relation made, dropped, renamed or rewritten, a column added or retyped, a GRANT and an ANALYZE change
   * it; a column renamed or dropped does not (pg_attribute alone). `PostgisWorkspace.list` keeps its last
   * listing while it stays the same (decision 035).
   */
  catalogVersion: string
}

const CHECK_SQL = `
SELECT current_database() AS database, current_user AS "user",
  (SELECT e.extversion FROM pg_extension e WHERE e.extname = 'postgis') AS postgis,
  (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'postgis') AS postgis_schema,
  (SELECT t.oid::int FROM pg_extension e JOIN pg_type t ON t.typnamespace = e.extnamespace
    WHERE e.extname = 'postgis' AND t.typname = 'geometry') AS geometry_oid,
  (SELECT t.oid::int FROM pg_extension e JOIN pg_type t ON t.typnamespace = e.extnamespace
    WHERE e.extname = 'postgis' AND t.typname = 'geography') AS geography_oid,
  (SELECT json_agg(json_build_object('schema', u.s, 'exists', n.oid IS NOT NULL,
      'usable', n.oid IS NOT NULL AND has_schema_privilege(n.oid, 'USAGE')) ORDER BY u.i)
    FROM unnest($1::text[]) WITH ORDINALITY AS u(s, i) LEFT JOIN pg_namespace n ON n.nspname = u.s) AS schemas,
  (SELECT count(*) || ' ' || md5(coalesce(string_agg(concat_ws(' ', c.oid, c.xmin, c.reltuples, c.relpages),
      ',' ORDER BY c.oid), ''))
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE n.nspname = ANY($1::text[]) AND c.relkind IN ('r', 'v', 'm', 'p', 'f')) AS catalog_version`

/**
 * Catalog query 1: the database answers, has PostGIS, and every workspace schema exists and may be used.
 * Throws a classified error naming the first thing wrong.
 */
export async function checkWorkspace(db: Queryable, schemas: readonly string[]): Promise<WorkspaceCheck> {
  const row = (await db.query(CHECK_SQL, [schemas])).rows[0]!
  const database = String(row.database)
  if (!row.postgis)
    throw new DatabaseWorkspaceError(
      'postgis-missing',
      `The PostGIS extension is not installed in the database "${database}": CREATE EXTENSION postgis.`,
    )
  for (const s of row.schemas as { schema: string; exists: boolean; usable: boolean }[]) {
    if (!s.exists)
      throw new DatabaseWorkspaceError(
        'schema-missing',
        `The schema "${s.schema}" does not exist in the database "${database}".`,
      )
    if (!s.usable)
      throw new DatabaseWorkspaceError(
        'no-permission',
        `User "${String(row.user)}" has no permission on the schema "${s.schema}" (GRANT USAGE ON SCHEMA).`,
      )
  }
  return {
    database,
    user: String(row.user),
    postgisVersion: String(row.postgis),
    postgisSchema: String(row.postgis_schema),
    geometryOid: Number(row.geometry_oid),
    geographyOid: Number(row.geography_oid),
    catalogVersion: String(row.catalog_version),
  }
}

/**
 * Catalog query 2: every table, view and materialized view of the schemas with a geometry or geography
 * column the user may read: its columns (names, and one letter each: the type's category, `J` for json,
 * `G`/`Y` for geometry/geography), its first spatial column's type modifier, the planner's row estimate and
 * (for geometry of stored relations with statistics) `ST_EstimatedExtent`. Each relation has a version (its
 * oid, row version, estimate, pages, and its columns' count and row versions); a relation whose version is
 * in `$4` (listed before, unchanged) comes back as its name and version only. One pass over pg_class and
 * pg_attribute; reads catalogs and statistics only, never a table. Names are parameters; the PostGIS schema
 * is a quoted identifier from the catalog. PostGIS 3.3's `ST_EstimatedExtent` rebuilds a qualified name
 * from its text arguments without doubling quotes ("invalid name syntax", or another relation's
 * statistics): names holding a `"` get no extent rather than a wrong one.
 */
function datasetsSql(postgisSchema: string): string {
  const pgis = quoteIdent(postgisSchema)
  return `
WITH rel AS (
  SELECT n.nspname::text AS schema, c.relname::text AS name, c.relkind, c.reltuples,
         concat_ws(':', c.oid, c.xmin, c.reltuples, c.relpages, count(*), sum(a.xmin::text::bigint)) AS version,
         array_agg(a.attname::text ORDER BY a.attnum) AS columns,
         string_agg(CASE WHEN a.atttypid = $2 THEN 'G' WHEN a.atttypid = $3 THEN 'Y'
                         WHEN t.typname IN ('json', 'jsonb') THEN 'J' ELSE t.typcategory::text END,
                    '' ORDER BY a.attnum) AS kinds,
         (array_agg(a.attname::text ORDER BY a.attnum) FILTER (WHERE a.atttypid IN ($2, $3)))[1] AS geom_column,
         (array_agg(a.atttypmod ORDER BY a.attnum) FILTER (WHERE a.atttypid IN ($2, $3)))[1] AS geom_typmod,
         (array_agg(a.atttypid ORDER BY a.attnum) FILTER (WHERE a.atttypid IN ($2, $3)))[1] = $2 AS is_geometry
    FROM pg_namespace n
    JOIN pg_class c ON c.relnamespace = n.oid
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    JOIN pg_type t ON t.oid = a.atttypid
   WHERE n.nspname = ANY($1::text[]) AND c.relkind IN ('r', 'v', 'm', 'p', 'f') AND NOT c.relispartition
     AND has_table_privilege(c.oid, 'SELECT')
   GROUP BY c.oid, n.nspname
  HAVING bool_or(a.atttypid IN ($2, $3))
)
SELECT r.schema, r.name, r.version, k.v IS NOT NULL AS known,
       CASE WHEN k.v IS NULL THEN r.relkind END AS relkind,
       CASE WHEN k.v IS NULL THEN r.reltuples END AS reltuples,
       CASE WHEN k.v IS NULL THEN r.columns END AS columns,
       CASE WHEN k.v IS NULL THEN r.kinds END AS kinds,
       CASE WHEN k.v IS NULL THEN r.geom_column END AS geom_column,
       CASE WHEN k.v IS NULL THEN r.is_geometry END AS is_geometry,
       CASE WHEN k.v IS NULL THEN ${pgis}.postgis_typmod_type(r.geom_typmod) END AS geom_type,
       CASE WHEN k.v IS NULL THEN ${pgis}.postgis_typmod_srid(r.geom_typmod) END AS srid,
       CASE WHEN k.v IS NULL AND r.is_geometry AND r.relkind IN ('r', 'm', 'p') AND r.reltuples > 0
             AND strpos(r.schema || r.name || r.geom_column, '"') = 0
            THEN ${pgis}.ST_EstimatedExtent(r.schema, r.name, r.geom_column)::text END AS box
  FROM rel r LEFT JOIN (SELECT DISTINCT v FROM unnest($4::text[]) AS u(v)) k ON k.v = r.version
 ORDER BY array_position($1::text[], r.schema), r.name`
}

const KIND_BY_RELKIND: Record<string, DatabaseDataset['kind']> = {
  r: 'table',
  v: 'view',
  m: 'materialized view',
  p: 'partitioned table',
  f: 'foreign table',
}

/**
 * A column's type as the workspace's field types name it, from its letter in the listing: the type's
 * category (`N` numeric, `B` boolean, `A` array…), `J` for json/jsonb, `G`/`Y` for geometry/geography.
 */
export function fieldType(kind: string): FieldType {
  if (kind === 'J' || kind === 'A') return 'json'
  if (kind === 'N') return 'number'
  if (kind === 'B') return 'boolean'
  return 'string'
}

/** The fields of a dataset: every column but its geometry column, in table order. */
function fieldsOf(columns: string[], kinds: string, geometryColumn: string): FieldInfo[] {
  const letters = [...kinds]
  const fields: FieldInfo[] = []
  let skipped = false
  columns.forEach((name, i) => {
    if (!skipped && name === geometryColumn) {
      skipped = true
      return
    }
    fields.push({ name, type: fieldType(letters[i] ?? 'S') })
  })
  return fields
}

const GEOMETRY_TYPE_NAMES = [
  'POINT',
  'MULTIPOINT',
  'LINESTRING',
  'MULTILINESTRING',
  'POLYGON',
  'MULTIPOLYGON',
  'GEOMETRYCOLLECTION',
]

/** `POINT`, `MULTIPOLYGON`, `GEOMETRY`… as the file workspace names geometry types (no Z/M suffix). */
export function geometryTypeName(typmodType: string): string {
  const upper = typmodType.toUpperCase()
  const base = upper.replace(/(ZM|Z|M)$/, '')
  return GEOMETRY_TYPE_NAMES.includes(base) ? base : 'GEOMETRY'
}

/** `BOX(x1 y1,x2 y2)` in the column's SRID as a lon/lat extent; null when it cannot be given. */
export function extentOf(box: string | null, srid: number): BBox | null {
  if (!box) return null
  const m = /^BOX\(([-\d.eE+]+) ([-\d.eE+]+),([-\d.eE+]+) ([-\d.eE+]+)\)$/.exec(box)
  if (!m) return null
  const [x1, y1, x2, y2] = m.slice(1).map(Number) as [number, number, number, number]
  const lonLat = (b: number[]) => b[0]! >= -180.5 && b[2]! <= 180.5 && b[1]! >= -90.5 && b[3]! <= 90.5
  if (srid === 0 || srid === 4326) return lonLat([x1, y1, x2, y2]) ? [x1, y1, x2, y2] : null
  try {
    const f = reprojectorFor({ epsg: srid, label: `EPSG:${srid}` })
    if (!f) return [x1, y1, x2, y2]
    const corners = [f([x1, y1]), f([x1, y2]), f([x2, y1]), f([x2, y2])]
    const xs = corners.map((p) => p[0]!)
    const ys = corners.map((p) => p[1]!)
    const out: BBox = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)]
    return out.every(Number.isFinite) && lonLat(out) ? out : null
  } catch {
    return null
  }
}

/** A listed dataset with its relation's version in the catalogs (`listDatasetsSince`). */
export interface VersionedDataset {
  version: string
  dataset: DatabaseDataset
}

/**
 * The workspace's datasets, from the catalogs in two statements (the check and the listing). A dataset
 * outside the first schema is named `schema.table`; should that name be taken by a first-schema table
 * whose own name holds the dot, the other one is named with quoted identifiers (`"schema"."table"`).
 */
export async function listDatasets(db: Queryable, schemas: readonly string[]): Promise<DatabaseDataset[]> {
  const check = await checkWorkspace(db, schemas)
  return (await listDatasetsSince(db, schemas, check, new Map())).map((v) => v.dataset)
}

/**
 * The listing, reading afresh only what changed since `known` (datasets by their version, from the last
 * listing): a relation whose version is known is given as it was listed (under the name it has now).
 */
export async function listDatasetsSince(
  db: Queryable,
  schemas: readonly string[],
  check: WorkspaceCheck,
  known: ReadonlyMap<string, DatabaseDataset>,
): Promise<VersionedDataset[]> {
  const { rows } = await db.query(datasetsSql(check.postgisSchema), [
    schemas,
    check.geometryOid,
    check.geographyOid,
    [...known.keys()],
  ])
  const first = schemas[0]
  const taken = new Set(rows.filter((r) => r.schema === first).map((r) => String(r.name)))
  return rows.map((r) => {
    const schema = String(r.schema)
    const table = String(r.name)
    const version = String(r.version)
    let name = table
    if (schema !== first) {
      name = `${schema}.${table}`
      if (taken.has(name)) name = `${quoteIdent(schema)}.${quoteIdent(table)}`
    }
    const before = r.known === true ? known.get(version) : undefined
    if (before) return { version, dataset: before.name === name ? before : { ...before, name } }
    const reltuples = Number(r.reltuples)
    const srid = Number(r.srid)
    const kind = KIND_BY_RELKIND[String(r.relkind)] ?? 'table'
    const dataset: DatabaseDataset = {
      name,
      schema,
      table,
      kind,
      geometryType: geometryTypeName(String(r.geom_type)),
      geometryColumn: String(r.geom_column),
      geometryKind: r.is_geometry ? 'geometry' : 'geography',
      srid,
      source: `PostGIS ${kind} ${quoteIdent(schema)}.${quoteIdent(table)}`,
      fields: fieldsOf(r.columns as string[], String(r.kinds), String(r.geom_column)),
      featureCount: r.relkind === 'v' || reltuples < 0 ? null : Math.round(reltuples),
      featureCountEstimated: true,
      extent: extentOf((r.box as string | null) ?? null, srid),
      created: null,
    }
    return { version, dataset }
  })
}
