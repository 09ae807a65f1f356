import { JoinInputError } from '../gis/engine/join-input'
import { errorBody, HttpError } from '../http-util'
import type { Reply } from '../router'
import { bufferBytes, bufferRows, expectedAnswerBytes } from './buffered-rows'
import { streamCursor, type AnswerSink } from './cursor-rows'
import { classifyDatabaseError, DatabaseWorkspaceError, failureClassOf } from './errors'
import { buildJoinStatement, type JoinStatement } from './join-sql'
import type { ResolvedDataset } from './resolve'
import { nameTaken, saveJoin } from './save'
import { joinHead, withCancellableClient, type DatabaseJoinRequest } from './join-client'

export type { DatabaseJoinRequest } from './join-client'
import type { PostgisWorkspace } from './workspace'

/**
 * Spec §4.5 over a PostGIS workspace: the join pushed down as one parameterised statement, its rows read
 * through a server-side cursor and streamed as the file engine writes them. The statement runs in a
 * transaction with the workspace's time limit (`statement_timeout`: the database cancels it); a client that
 * leaves cancels it (`pg_cancel_backend`). Decision 030.
 */

/** The cursor's name, and the temporary table of the rows (one per connection and transaction). */
const CURSOR = 'geo_join'
const ROWS = 'geo_join_rows'

function reply(status: number, message: string, extra: Record<string, unknown> = {}): Reply {
  return { status, body: errorBody(status, message, extra) }
}

/** HTTP status of a database problem (§7 classes): unavailable 503, time limit 504, permission 403, else 500. */
export function databaseFailure(error: DatabaseWorkspaceError): HttpError {
  const failureClass = failureClassOf(error.problem)
  const status =
    failureClass === 'provider-unavailable'
      ? 503
      : failureClass === 'timeout-network'
        ? 504
        : failureClass === 'authorization-entitlement'
          ? 403
          : 500
  return new HttpError(
    status,
    error.message,
    { code: `database-${error.problem}`, failureClass },
    status === 503 ? { 'retry-after': '5' } : {},
  )
}

/**
 * A database error during a join, as the request's answer: the user geometry or a value the database could
 * not read is the request's fault (400); anything else is classified (refused, gone, time limit…).
 */
export function joinFailure(error: unknown, ws: PostgisWorkspace): HttpError {
  if (error instanceof HttpError) return error
  const e = error as { code?: string; message?: string }
  const message = typeof e?.message === 'string' ? e.message : ''
  if (
    (typeof e?.code === 'string' && e.code.startsWith('22')) ||
    (e?.code === 'XX000' && /GEOS|TopologyException|GeoJSON|geometry/i.test(message))
  )
    return new HttpError(400, `the database could not evaluate the query on this data: ${message}`, {
      code: 'database-data',
    })
  return databaseFailure(classifyDatabaseError(error, ws.target))
}

/** Resolve the request's datasets and build its statement; a reply when the request is refused. */
export async function prepare(
  ws: PostgisWorkspace,
  request: DatabaseJoinRequest,
): Promise<{ stmt: JoinStatement; source: ResolvedDataset; ref?: ResolvedDataset } | Reply> {
  const p = request.params
  const useUser = p.userGeom === true && request.body !== undefined
  const names = [p.datasetSource, ...(!useUser && p.datasetRef ? [p.datasetRef] : [])]
  const [source, ref] = await ws.resolve(names)
  if (!source)
    return reply(404, `datasetSource: no dataset named "${p.datasetSource}" in the workspace`, {
      field: 'datasetSource',
    })
  if (names.length > 1 && !ref)
    return reply(404, `datasetRef: no dataset named "${p.datasetRef}" in the workspace`, {
      field: 'datasetRef',
    })
  try {
    const stmt = buildJoinStatement(
      p,
      source,
      ref,
      useUser ? request.body!.features : undefined,
      request.rowCap + 1,
    )
    return { stmt, source, ...(ref ? { ref } : {}) }
  } catch (error) {
    if (error instanceof JoinInputError)
      return reply(error.status, error.message, {
        ...(error.field ? { field: error.field } : {}),
        ...(error.detail ?? {}),
      })
    if (error instanceof DatabaseWorkspaceError) return reply(400, error.message)
    throw error
  }
}

/**
 * A join that saves its rows as a new dataset (`saveAsNewDataset`): 409 when the name is taken, else the
 * table made in the database and its rows answered from it (`save.ts`). Throws an `HttpError` for a
 * database failure before the answer began; once rows are on their way a failure cuts the response.
 */
export async function databaseSave(
  ws: PostgisWorkspace,
  request: DatabaseJoinRequest,
): Promise<Reply | void> {
  const name = request.params.newDatasetNme!
  try {
    if (await nameTaken(ws.db, ws.defaultSchema, name))
      return reply(409, `newDatasetNme: a dataset named "${name}" already exists`, { field: 'newDatasetNme' })
    const prepared = await prepare(ws, request)
    if (!('stmt' in prepared)) return prepared
    return await saveJoin(ws, prepared.stmt, name, request)
  } catch (error) {
    // A table changed or gone since it was found: find it again next time.
    ws.forgetResolved()
    if (request.signal.aborted) return
    if (request.res.headersSent) {
      request.res.destroy()
      return
    }
    throw joinFailure(error, ws)
  }
}

/** Where a join's rows go: a held answer whole, or a streamed one through `sink`. */
export interface RowsOut {
  whole(status: number, head: Record<string, unknown>, parts: readonly Uint8Array[]): void
  sink: AnswerSink
}

/**
 * The rows of a prepared join (not a save) written to `out`: a `Reply` for a short answer (404 when no
 * row), else nothing. Throws the database's error; `signal` cancels the statement in the database.
 */
export async function joinRows(
  ws: PostgisWorkspace,
  stmt: JoinStatement,
  rowCap: number,
  signal: AbortSignal,
  out: RowsOut,
  limits: {
    bufferBytes?: number
    fetchRows?: number
    /** The rows the statistics expect (the join's weight), when it was weighed. */
    expectedRows?: number
  } = {},
): Promise<Reply | void> {
  // First way: a plain SELECT, its rows held until it ends (up to BUFFER_BYTES). One statement, no
  // transaction around it: the session's statement_timeout limits it. A join the statistics expect past
  // the buffer goes straight to the second way: the first would compute the buffer's worth of rows, drop
  // them and compute them all again (a 200,000-row join did ~1.7 passes of work for 1).
  const straight =
    limits.expectedRows !== undefined &&
    expectedAnswerBytes(Math.min(limits.expectedRows, rowCap), stmt.kinds) >
      (limits.bufferBytes ?? bufferBytes())
  const held = straight
    ? ({ kind: 'too-large' } as const)
    : await withCancellableClient(ws, signal, async (client, discard) => {
        const rows = await bufferRows(client, stmt.text, stmt.values, stmt.kinds, rowCap, limits.bufferBytes)
        if (rows.kind === 'too-large') discard()
        return rows
      })
  if (held.kind === 'done') {
    if (held.count === 0) return reply(404, 'no data found: no feature satisfies the query')
    const head = joinHead(held.count, held.truncated, rowCap, stmt)
    out.whole(held.truncated ? 206 : 200, head, held.parts)
    return undefined
  }
  // Second way, for a large result: the statement runs whole into a temporary table (its count is
  // known before the first row goes out, and it may run in parallel), then its rows stream from there
  // through a cursor, batch by batch as the client takes them.
  return await withCancellableClient(ws, signal, async (client) => {
    await client.query('BEGIN')
    const made = await client.query(`CREATE TEMP TABLE ${ROWS} ON COMMIT DROP AS ${stmt.text}`, stmt.values)
    const found = made.rowCount ?? 0
    // Rows gone since the first way saw them (another writer): none now.
    if (found === 0) {
      await client.query('ROLLBACK')
      return reply(404, 'no data found: no feature satisfies the query')
    }
    const truncated = found > rowCap
    const count = Math.min(found, rowCap)
    await client.query(`DECLARE ${CURSOR} NO SCROLL CURSOR FOR SELECT * FROM ${ROWS} LIMIT ${count}`)
    const head = joinHead(count, truncated, rowCap, stmt)
    const whole = await streamCursor(
      client,
      CURSOR,
      count,
      out.sink,
      truncated ? 206 : 200,
      head,
      stmt.kinds,
      limits.fetchRows,
    )
    await client.query(whole ? 'COMMIT' : 'ROLLBACK')
    return undefined
  })
}
