import type { Queryable, WorkspaceCheck } from './catalog'
import { quoteIdent, fitsIdentifier } from './sql'

/** A column of a relation: its name and its letter (type category; `J` json, `G`/`Y` geometry/geography). */
export interface RelationColumn {
  name: string
  kind: string
}

/** A dataset a request named, found in the workspace's schemas. */
export interface ResolvedDataset {
  /** The name the request gave. */
  name: string
  schema: string
  table: string
  geometryColumn: string
  geometryKind: 'geometry' | 'geography'
  /** The spatial column's SRID from its type modifier (0 when it has none: a view's expression). */
  srid: number
  /** Every column but the geometry column, in table order (the dataset's fields). */
  fields: RelationColumn[]
  /** The planner's row estimate (`pg_class.reltuples`) of a table; absent for a view or a table never analysed. */
  rows?: number
}

/**
 * The relations a dataset name may be, best first, as the dataset list names them: the table of the first
 * schema; `schema.table` of another listed schema; `"schema"."table"` (the list's form when a first-schema
 * table's own name holds the dot). Parts PostgreSQL could not hold whole (over 63 bytes) are no candidate.
 */
export function candidatesOf(name: string, schemas: readonly string[]): { schema: string; table: string }[] {
  const out: { schema: string; table: string }[] = []
  const push = (schema: string, table: string) => {
    if (fitsIdentifier(schema) && fitsIdentifier(table)) out.push({ schema, table })
  }
  push(schemas[0]!, name)
  for (const schema of schemas.slice(1))
    if (name.startsWith(`${schema}.`)) push(schema, name.slice(schema.length + 1))
  const quoted = /^"((?:[^"]|"")+)"\."((?:[^"]|"")+)"$/.exec(name)
  if (quoted) {
    const schema = quoted[1]!.replaceAll('""', '"')
    if (schemas.slice(1).includes(schema)) push(schema, quoted[2]!.replaceAll('""', '"'))
  }
  return out
}

/**
 * Find the datasets a request names, in one catalog statement (names as parameters): for each, the first of
 * its candidates that is a table, view or materialized view of a workspace schema with a geometry or
 * geography column the user may read; undefined where none is. Reads catalogs only.
 */
export async function resolveDatasets(
  db: Queryable,
  check: WorkspaceCheck,
  schemas: readonly string[],
  names: readonly string[],
): Promise<(ResolvedDataset | undefined)[]> {
  const which: number[] = []
  const rank: number[] = []
  const schemaOf: string[] = []
  const tableOf: string[] = []
  names.forEach((name, i) =>
    candidatesOf(name, schemas).forEach((c, r) => {
      which.push(i)
      rank.push(r)
      schemaOf.push(c.schema)
      tableOf.push(c.table)
    }),
  )
  if (which.length === 0) return names.map(() => undefined)
  const pgis = quoteIdent(check.postgisSchema)
  const { rows } = await db.query(
    `
SELECT c.which, c.rank, n.nspname::text AS schema, r.relname::text AS name,
       CASE WHEN r.relkind IN ('r', 'm', 'p') AND r.reltuples >= 0 THEN r.reltuples END AS rows,
       array_agg(a.attname::text ORDER BY a.attnum) AS columns,
       string_agg(CASE WHEN a.atttypid = $5 THEN 'G' WHEN a.atttypid = $6 THEN 'Y'
                       WHEN t.typname IN ('json', 'jsonb') THEN 'J' ELSE t.typcategory::text END,
                  '' ORDER BY a.attnum) AS kinds,
       ${pgis}.postgis_typmod_srid((array_agg(a.atttypmod ORDER BY a.attnum)
         FILTER (WHERE a.atttypid IN ($5, $6)))[1]) AS srid
  FROM unnest($1::int[], $2::int[], $3::text[], $4::text[]) AS c(which, rank, schema, name)
  JOIN pg_namespace n ON n.nspname = c.schema
  JOIN pg_class r ON r.relnamespace = n.oid AND r.relname = c.name
  JOIN pg_attribute a ON a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped
  JOIN pg_type t ON t.oid = a.atttypid
 WHERE r.relkind IN ('r', 'v', 'm', 'p', 'f') AND NOT r.relispartition
   AND has_table_privilege(r.oid, 'SELECT')
 GROUP BY c.which, c.rank, n.nspname, r.oid
HAVING bool_or(a.atttypid IN ($5, $6))
 ORDER BY c.which, c.rank`,
    [which, rank, schemaOf, tableOf, check.geometryOid, check.geographyOid],
  )
  const found: (ResolvedDataset | undefined)[] = names.map(() => undefined)
  for (const row of rows) {
    const i = Number(row.which)
    if (found[i]) continue
    const columns = row.columns as string[]
    const kinds = [...String(row.kinds)]
    const g = kinds.findIndex((k) => k === 'G' || k === 'Y')
    found[i] = {
      name: names[i]!,
      schema: String(row.schema),
      table: String(row.name),
      geometryColumn: columns[g]!,
      geometryKind: kinds[g] === 'G' ? 'geometry' : 'geography',
      srid: Number(row.srid ?? 0),
      fields: columns.flatMap((name, k) => (k === g ? [] : [{ name, kind: kinds[k] ?? 'S' }])),
      ...(row.rows === null || row.rows === undefined ? {} : { rows: Math.ceil(Number(row.rows)) }),
    }
  }
  return found
}
