import type { ServerResponse } from 'node:http'
import type { Feature } from 'geojson'
import type pg from 'pg'
import type { JoinParams } from '../../contract/gis/join-params'
import type { JoinStatement } from './join-sql'
import type { PostgisWorkspace } from './workspace'

// What the join (`join-run.ts`) and the save (`save.ts`) share: the request, a cancellable connection, the
// answer's head.

export interface DatabaseJoinRequest {
  params: JoinParams
  body?: { features: Feature[] }
  rowCap: number
  signal: AbortSignal
  res: ServerResponse
}

/**
 * Runs `work` on a connection of its own; a client that leaves meanwhile cancels what the connection runs
 * (`pg_cancel_backend`). A connection that failed or was cancelled is closed, not returned to the pool.
 */
export async function withCancellableClient<T>(
  ws: PostgisWorkspace,
  signal: AbortSignal,
  work: (client: pg.PoolClient, discard: () => void) => Promise<T>,
): Promise<T> {
  const client = await ws.connect()
  // A connection the server closes under a statement says so as the statement's error, and as an 'error'
  // event, which must not end the process (the pool listens only while a client is idle).
  const onError = () => undefined
  client.on('error', onError)
  let broken = false
  const pid = (client as unknown as { processID: number }).processID
  const onAbort = () => {
    broken = true
    void ws.cancelBackend(pid)
  }
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    return await work(client, () => (broken = true))
  } catch (error) {
    broken = true
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  } finally {
    signal.removeEventListener('abort', onAbort)
    client.off('error', onError)
    client.release(broken || signal.aborted ? true : undefined)
  }
}

/** The answer's members before the rows (as the file engine writes them). */
export function joinHead(
  count: number,
  truncated: boolean,
  rowCap: number,
  stmt: JoinStatement,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const status = truncated ? 206 : 200
  return {
    code: String(status),
    success: true,
    message: truncated
      ? `partial: the result was cut at ${rowCap} rows`
      : `${count} row${count === 1 ? '' : 's'}`,
    rowCount: count,
    truncated,
    columns: stmt.columns,
    ...extra,
  }
}
