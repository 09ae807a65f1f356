import type { Queryable } from './catalog'
import { quoteIdent } from './sql'

/**
 * Who saved each dataset of a PostGIS workspace (issue 32): `geo_analyst.dataset_owner`, one row per table
 * saved or imported by a team server's user, written in the save's own transaction (the table and its
 * owner commit together). A row names the table's oid too, so a table dropped and made again by someone
 * else (another program, psql) is not shown as the first one's.
 */
/** `BOOKKEEPING_SCHEMA` of `./workspace` (not imported from there: that module lists owners from here). */
const BOOKKEEPING_SCHEMA = 'geo_analyst'
export const OWNER_TABLE = `${quoteIdent(BOOKKEEPING_SCHEMA)}.dataset_owner`

const ensured = new WeakMap<Queryable, Promise<void>>()

/** Create the schema and table once per workspace (idempotent; two instances starting at once both succeed). */
export function ensureOwnerTable(db: Queryable): Promise<void> {
  let done = ensured.get(db)
  if (!done) {
    done = (async () => {
      const statements = [
        `CREATE SCHEMA IF NOT EXISTS ${quoteIdent(BOOKKEEPING_SCHEMA)}`,
        `CREATE TABLE IF NOT EXISTS ${OWNER_TABLE} (
           schema text NOT NULL, name text NOT NULL, owner text NOT NULL, relid oid NOT NULL,
           saved_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (schema, name))`,
      ]
      for (const sql of statements) {
        // Two services creating it at once: the other's IF NOT EXISTS races into a unique violation.
        await db.query(sql).catch(async (error: unknown) => {
          if ((error as { code?: string }).code !== '23505') throw error
          await db.query(sql)
        })
      }
    })().catch((error: unknown) => {
      ensured.delete(db)
      throw error
    })
    ensured.set(db, done)
    void done.then(
      () => present.set(db, { exists: true, at: Date.now() }),
      () => undefined,
    )
  }
  return done
}

/** Record `owner` for the table `schema.name` just made, inside the caller's transaction. */
export async function recordOwner(
  client: Queryable,
  schema: string,
  name: string,
  owner: string,
): Promise<void> {
  await client.query(
    `INSERT INTO ${OWNER_TABLE} (schema, name, owner, relid)
     SELECT $1::text, $2::text, $3::text, c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1::text AND c.relname = $2::text
     ON CONFLICT (schema, name) DO UPDATE SET owner = EXCLUDED.owner, relid = EXCLUDED.relid, saved_at = now()`,
    [schema, name, owner],
  )
}

/** How long "there is no owner table yet" is believed before asking again (another instance may make it). */
export const OWNER_TABLE_RECHECK_MS = 1000

const present = new WeakMap<Queryable, { exists: boolean; at: number }>()

/**
 * The recorded owners, by `schema` + NUL + `name`, of tables that are still the ones saved; none before any.
 * Whether the table exists is asked (one cheap statement) until it does, at most every second, so a
 * database nobody saved to as a team user never sees a failing statement.
 */
export async function datasetOwners(db: Queryable): Promise<Map<string, string>> {
  let known = present.get(db)
  if (!known || (!known.exists && Date.now() - known.at > OWNER_TABLE_RECHECK_MS)) {
    const { rows } = await db.query(`SELECT to_regclass($1) IS NOT NULL AS e`, [OWNER_TABLE])
    known = { exists: rows[0]?.e === true, at: Date.now() }
    present.set(db, known)
  }
  if (!known.exists) return new Map()
  try {
    const { rows } = await db.query(
      `SELECT o.schema, o.name, o.owner FROM ${OWNER_TABLE} o
         JOIN pg_class c ON c.oid = o.relid AND c.relname = o.name
         JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = o.schema`,
    )
    return new Map(rows.map((r) => [`${String(r.schema)}\0${String(r.name)}`, String(r.owner)]))
  } catch (error) {
    // Dropped meanwhile (by hand): none, and asked again next time.
    if (!/does not exist/.test(String((error as Error)?.message))) throw error
    present.delete(db)
    ensured.delete(db)
    return new Map()
  }
}
