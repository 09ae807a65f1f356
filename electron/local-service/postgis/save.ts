import { quoteIdent } from './sql'
import { currentOwner } from '../team/principal'
import { ensureOwnerTable, recordOwner } from './dataset-owner'
import type { Queryable } from './catalog'
import { responseSink, streamCursor } from './cursor-rows'
import { joinHead, withCancellableClient, type DatabaseJoinRequest } from './join-client'
import type { JoinStatement } from './join-sql'
import type { PostgisWorkspace } from './workspace'
import { errorBody } from '../http-util'
import type { Reply } from '../router'

/**
 * "Save as new dataset" (§4.5) over a PostGIS workspace: the join's rows become a table of the workspace's
 * first schema in one transaction — the table, its GiST index and `ANALYZE` commit together or not at all.
 * Saves of one name are serialized by a transaction-scoped advisory lock on the name, so of two saves at
 * once exactly one creates the table and the other answers 409; a name is taken in any letter case, as in a
 * file workspace. The answer's rows are the saved rows, read back through a cursor after the commit.
 */

/** The session's table holding the join's rows while they are saved and answered (dropped after). */
const RESULT = 'pg_temp.geo_join_result'
const CURSOR = 'geo_join_saved'

/** Whether a relation of that name (any letter case) is in `schema`: a table, view, index or sequence. */
export async function nameTaken(db: Queryable, schema: string, name: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND lower(c.relname) = lower($2) LIMIT 1`,
    [schema, name],
  )
  return rows.length > 0
}

function conflict(name: string): Reply {
  return {
    status: 409,
    body: errorBody(409, `newDatasetNme: a dataset named "${name}" already exists`, {
      field: 'newDatasetNme',
    }),
  }
}

/** Save the join `stmt` as `name` and answer with its rows; a `Reply` for 404/409. */
export async function saveJoin(
  ws: PostgisWorkspace,
  stmt: JoinStatement,
  name: string,
  request: DatabaseJoinRequest,
): Promise<Reply | void> {
  const schema = ws.defaultSchema
  const table = `${quoteIdent(schema)}.${quoteIdent(name)}`
  const outputs = stmt.outputs.map((expr, i) => `${expr} AS __geo_out${i + 1}`)
  const saved = stmt.saveColumns.map((c) => c.name).join(', ')
  // A team server's user is recorded as the table's owner in the save's own transaction.
  const owner = currentOwner()
  if (owner) await ensureOwnerTable(ws.db)
  return withCancellableClient(ws, request.signal, async (client) => {
    await client.query(`DROP TABLE IF EXISTS ${RESULT}`)
    await client.query('BEGIN')
    await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 30))`, [
      `${schema}.${name.toLowerCase()}`,
    ])
    if (await nameTaken(client, schema, name)) {
      await client.query('ROLLBACK')
      return conflict(name)
    }
    const made = await client.query(
      `CREATE TEMP TABLE ${RESULT.slice('pg_temp.'.length)} AS
       SELECT row_number() OVER () AS __geo_n, ${outputs.join(', ')},
              ${stmt.saveColumns.map((c) => `${c.expr} AS ${c.name}`).join(', ')}
       ${stmt.body} LIMIT ${stmt.limitAt}`,
      stmt.saveValues,
    )
    const found = made.rowCount ?? 0
    if (found === 0) {
      await client.query('ROLLBACK')
      return { status: 404, body: errorBody(404, 'no data found: no feature satisfies the query') }
    }
    const truncated = found > request.rowCap
    const count = Math.min(found, request.rowCap)
    try {
      await client.query(
        `CREATE TABLE ${table} AS SELECT ${saved} FROM ${RESULT} WHERE __geo_n <= $1 ORDER BY __geo_n`,
        [count],
      )
    } catch (error) {
      // Made meanwhile by someone not taking the lock (another program): taken all the same.
      const code = (error as { code?: string }).code
      if (code !== '42P07' && code !== '23505') throw error
      await client.query('ROLLBACK')
      return conflict(name)
    }
    await client.query(`CREATE INDEX ON ${table} USING gist (${quoteIdent(stmt.saveGeometryColumn)})`)
    await client.query(`ANALYZE ${table}`)
    if (owner) await recordOwner(client, schema, name, owner)
    await client.query('COMMIT')
    ws.forgetResolved()
    // The rows answered are the rows saved, read back in the order they were made.
    await client.query('BEGIN READ ONLY')
    await client.query(
      `DECLARE ${CURSOR} NO SCROLL CURSOR FOR SELECT ${stmt.outputs.map((_, i) => `__geo_out${i + 1}`).join(', ')}
         FROM ${RESULT} WHERE __geo_n <= $1 ORDER BY __geo_n`,
      [count],
    )
    const head = joinHead(count, truncated, request.rowCap, stmt, { savedDataset: name })
    const whole = await streamCursor(
      client,
      CURSOR,
      count,
      responseSink(request.res),
      truncated ? 206 : 200,
      head,
      stmt.kinds,
    )
    await client.query(whole ? 'COMMIT' : 'ROLLBACK')
    await client.query(`DROP TABLE IF EXISTS ${RESULT}`)
    return undefined
  })
}
