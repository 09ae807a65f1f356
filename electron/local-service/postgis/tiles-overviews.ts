import { createHash, randomBytes } from 'node:crypto'
import { quoteIdent, type Queryable } from './catalog'
import {
  cellOf,
  tileOf,
  FULL_DETAIL_ZOOM,
  pgis,
  priority,
  thinningColumns,
  relationSql,
  tileProperties,
  type TileSource,
} from './tiles-sql'

/**
 * Overviews kept beside a big point table (decision 031): for each low zoom, a thinned copy of the table —
 * one point per cell of the tile pixel grid, the same point the grid statement would keep — in web
 * mercator with its own GiST index, in the app's bookkeeping schema `geo_analyst` (never among the user's
 * tables). A registry row per source table names the build and the signature of the table it was built
 * from (file node, rows inserted/updated/deleted, the columns carried); a table that changed no longer
 * matches and its tiles are thinned on the fly until the next build.
 */

export const OVERVIEW_SCHEMA = 'geo_analyst'
const REGISTRY = `${quoteIdent(OVERVIEW_SCHEMA)}.tile_overviews`
/** Tables smaller than this are thinned on the fly (fast enough at any zoom). */
export const OVERVIEW_MIN_ROWS = 20_000
/**
 * A zoom gets an overview level when one of its tiles holds more source rows than this: thinning on the
 * fly reads every row of the tile, and about this many is what it reads within the tile budget.
 */
export const OVERVIEW_TILE_ROWS = 5000

/** A registered, current overview: its levels and each level's table. */
export interface Overview {
  build: string
  levels: Map<number, string>
}

/** What identifies the table's content: its file node, its write counters, the columns the copies carry. */
export async function tableSignature(
  db: Queryable,
  source: TileSource,
): Promise<{ relid: number; signature: string } | undefined> {
  const { rows } = await db.query(
    `SELECT c.oid::int8 AS relid, c.relfilenode::text || ':' ||
            (pg_stat_get_tuples_inserted(c.oid) + pg_stat_get_tuples_updated(c.oid)
             + pg_stat_get_tuples_deleted(c.oid))::text AS counters
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relname = $2`,
    [source.dataset.schema, source.dataset.table],
  )
  const row = rows[0]
  if (!row) return undefined
  const columns = tileProperties(source.dataset).map((p) => p.name)
  const signature = createHash('sha256')
    .update(JSON.stringify([row.counters, source.dataset.geometryColumn, source.srid, columns]))
    .digest('hex')
  return { relid: Number(row.relid), signature }
}

function levelTable(relid: number, build: string, level: number | string): string {
  return `${quoteIdent(OVERVIEW_SCHEMA)}.${quoteIdent(`ov_${relid}_${build}_${typeof level === 'number' ? `z${level}` : level}`)}`
}

/** The registered overview of a table when it was built from the table as it is now; else undefined. */
export async function currentOverview(
  db: Queryable,
  relid: number,
  signature: string,
): Promise<Overview | undefined> {
  let rows: Record<string, unknown>[]
  try {
    ;({ rows } = await db.query(`SELECT build, signature, levels FROM ${REGISTRY} WHERE relid = $1`, [relid]))
  } catch (error) {
    // No registry yet (no overview was ever built in this database).
    if ((error as { code?: string }).code === '42P01' || /does not exist/.test(String(error)))
      return undefined
    throw error
  }
  const row = rows[0]
  if (!row || row.signature !== signature) return undefined
  const build = String(row.build)
  const levels = new Map<number, string>()
  for (const level of row.levels as number[]) levels.set(level, levelTable(relid, build, level))
  return { build, levels }
}

async function ensureRegistry(db: Queryable): Promise<void> {
  const statements = [
    `CREATE SCHEMA IF NOT EXISTS ${quoteIdent(OVERVIEW_SCHEMA)}`,
    `CREATE TABLE IF NOT EXISTS ${REGISTRY} (
       relid oid PRIMARY KEY, build text NOT NULL, signature text NOT NULL,
       levels int[] NOT NULL, level_rows int8[] NOT NULL, built_at timestamptz NOT NULL DEFAULT now())`,
  ]
  for (const sql of statements) {
    // Two services creating it at once: one wins, the other's IF NOT EXISTS races into a unique violation.
    await db.query(sql).catch(async (error: unknown) => {
      if ((error as { code?: string }).code !== '23505') throw error
      await db.query(sql)
    })
  }
}

/** What a build made: the levels kept and their rows. */
export interface OverviewBuild {
  relid: number
  build: string
  levels: { level: number; rows: number }[]
  sourceRows: number
  ms: number
}

/**
 * Build the overviews of a point table: a copy of its mercator coordinates (`mx`, `my`), the keep priority
 * and the properties `p0…`,
 * then, for each zoom whose densest tile holds more than `OVERVIEW_TILE_ROWS` rows, the copy thinned to one
 * point per grid cell (other zooms are thinned on the fly, fast enough below that many rows).
 * Registered in one statement; the previous build's tables are dropped after.
 */
export async function buildOverview(
  db: Queryable,
  source: TileSource,
  signed: { relid: number; signature: string },
): Promise<OverviewBuild> {
  const started = performance.now()
  await ensureRegistry(db)
  const { relid, signature } = signed
  const build = randomBytes(4).toString('hex')
  const props = tileProperties(source.dataset)
  const base = levelTable(relid, build, 'base')
  const made: string[] = [base]
  try {
    const col = `t.${quoteIdent(source.dataset.geometryColumn)}`
    await db.query(
      `CREATE UNLOGGED TABLE ${base} AS
       SELECT mx, my, ${priority('mx', 'my')} AS pr${props.map((_, i) => `, p${i}`).join('')}
         FROM (SELECT ${thinningColumns(source, col)}
                      ${props.map((p, i) => `, ${p.sql('t')} AS p${i}`).join('')}
                 FROM ${relationSql(source.dataset)} t WHERE ${col} IS NOT NULL) s`,
    )
    const total = Number((await db.query(`SELECT count(*)::int8 AS n FROM ${base}`)).rows[0]!.n)
    const needed = await levelsNeeded(db, base)
    const cols = props.map((_, i) => `p${i}, `).join('')
    const point = `${pgis(source, 'ST_SetSRID')}(${pgis(source, 'ST_MakePoint')}(mx, my), 3857)`
    const levels: { level: number; rows: number }[] = []
    // Finest level first, each from the one above it: a cell's point is the lowest priority of its
    // sub-cells' points, so the levels nest (a point shown at one zoom is shown at every zoom after).
    let from = base
    for (const level of [...needed].sort((a, b) => b - a)) {
      const table = levelTable(relid, build, level)
      const work = levelTable(relid, build, `w${level}`)
      const z = String(level)
      made.push(work, table)
      // The chain (coordinates, priority) in an unlogged work table; the level keeps the geometry and
      // the properties only.
      await db.query(
        `CREATE UNLOGGED TABLE ${work} AS
         SELECT DISTINCT ON (${cellOf('mx', z)}, ${cellOf('my', z)}) ${cols}mx, my, pr
           FROM ${from} ORDER BY ${cellOf('mx', z)}, ${cellOf('my', z)}, pr`,
      )
      // Stored tile by tile, so that a tile's rows are read from few pages.
      await db.query(
        `CREATE TABLE ${table} AS SELECT ${point} AS g, ${cols}pr FROM ${work}
          ORDER BY ${tileOf('my', level)}, ${tileOf('mx', level)}, pr`,
      )
      const rows = Number((await db.query(`SELECT count(*)::int8 AS n FROM ${table}`)).rows[0]!.n)
      await db.query(`CREATE INDEX ON ${table} USING gist (g)`)
      await db.query(`ANALYZE ${table}`)
      levels.unshift({ level, rows })
      await db.query(`DROP TABLE ${from}`)
      made.splice(made.indexOf(from), 1)
      from = work
    }
    await db.query(`DROP TABLE ${from}`)
    made.splice(made.indexOf(from), 1)
    await db.query(
      `INSERT INTO ${REGISTRY} (relid, build, signature, levels, level_rows) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (relid) DO UPDATE SET build = EXCLUDED.build, signature = EXCLUDED.signature,
         levels = EXCLUDED.levels, level_rows = EXCLUDED.level_rows, built_at = now()`,
      [relid, build, signature, levels.map((l) => l.level), levels.map((l) => l.rows)],
    )
    await dropOtherBuilds(db, relid, build)
    return { relid, build, levels, sourceRows: total, ms: performance.now() - started }
  } catch (error) {
    for (const table of made) await db.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined)
    throw error
  }
}

/**
 * The zooms below full detail at which the densest tile holds more than `OVERVIEW_TILE_ROWS` rows: rows
 * counted per zoom-13 tile once, then summed into their parent tiles for each lower zoom.
 */
async function levelsNeeded(db: Queryable, base: string): Promise<number[]> {
  const finest = FULL_DETAIL_ZOOM - 1
  const { rows } = await db.query(
    `WITH t AS (SELECT ${tileOf('mx', finest)} AS tx, ${tileOf('my', finest)} AS ty, count(*) AS n
                  FROM ${base} GROUP BY 1, 2)
     SELECT z, (SELECT max(s) FROM (SELECT sum(n) AS s FROM t GROUP BY tx >> (${finest} - z), ty >> (${finest} - z)) q)::int8 AS densest
       FROM generate_series(0, ${finest}) z`,
  )
  return rows.filter((r) => Number(r.densest) > OVERVIEW_TILE_ROWS).map((r) => Number(r.z))
}

/** Drop a table's overview tables of every build but `keep` (earlier builds, builds a crash left behind). */
async function dropOtherBuilds(db: Queryable, relid: number, keep: string): Promise<void> {
  const { rows } = await db.query(
    `SELECT c.relname::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind = 'r' AND starts_with(c.relname, $2) AND NOT starts_with(c.relname, $3)`,
    [OVERVIEW_SCHEMA, `ov_${relid}_`, `ov_${relid}_${keep}_`],
  )
  for (const row of rows)
    await db
      .query(`DROP TABLE IF EXISTS ${quoteIdent(OVERVIEW_SCHEMA)}.${quoteIdent(String(row.name))}`)
      .catch(() => undefined)
}
