import { HttpError, JsonResponseWriter } from '../http-util'
import type { Reply } from '../router'
import type { ServiceContext } from '../service-context'
import { bufferBytes } from './buffered-rows'
import { fetchRows } from './cursor-rows'
import type { DatabaseJoinRequest } from './join-client'
import {
  FLOW_STATE,
  FLOW_TAKEN,
  STATE_LEFT,
  STATE_OVER,
  STATE_RUNNING,
  type PostgisJoinResult,
} from './join-job'
import { databaseSave, joinFailure, prepare } from './join-run'
import { estimateJoinRows, UNKNOWN_WEIGHT } from './join-weight'
import type { PostgisWorkspace } from './workspace'
import { currentPrincipal } from '../team/principal'

/**
 * Spec §4.5 over a PostGIS workspace, on the serving thread: the statement prepared here (404, 400 and 422
 * answered at once), its rows read and written in a worker of the pool's database threads (`join-job.ts`)
 * and copied to the response as they come. Every join first takes its turn for one of the places the fair
 * gate (`pool.database`) gives joins, fairly between users; the last place is kept for small joins, and a
 * join is weighed (`join-weight.ts`: the planner's statistics) only when the gate must choose — it arrives
 * to find the other places taken, or the server is a team server, where a user runs one large join at a
 * time across its instances (decision 034). It then runs in the database threads, a thread for each place. A save
 * (`saveAsNewDataset`) runs here, behind the gate, as before (`databaseSave`): it computes its rows in the
 * database and answers them from the table.
 */

/** The first key of the users' large-join advisory locks ("GeoL"): apart from other applications' locks. */
export const USER_LOCK_SPACE = 0x47656f4c

/** A user's large-join advisory lock: the space and a 32-bit FNV-1a hash of the name, as int4 keys. */
export function userLockKey(user: string): [number, number] {
  let hash = 0x811c9dc5
  for (const byte of Buffer.from(user, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193)
  return [USER_LOCK_SPACE, hash | 0]
}

/** How long a worker may take to stop its cancelled statement before it is terminated. */
const STOP_GRACE_MS = 10_000

export async function databaseJoinReply(
  ctx: ServiceContext,
  ws: PostgisWorkspace,
  request: DatabaseJoinRequest,
): Promise<Reply | void> {
  const p = request.params
  if (p.saveAsNewDataset === true && p.newDatasetNme !== undefined)
    return ctx.pool.database.run(() => databaseSave(ws, request), request.signal)
  let prepared: Awaited<ReturnType<typeof prepare>>
  try {
    prepared = await prepare(ws, request)
  } catch (error) {
    ws.forgetResolved()
    if (request.signal.aborted) return
    throw joinFailure(error, ws)
  }
  if (!('stmt' in prepared)) return prepared
  const { stmt, source, ref } = prepared
  const features = p.userGeom === true && request.body !== undefined ? request.body.features : undefined
  // The join's weight, asked of the statistics only when the gate must choose; a join weighed by no one
  // counts as large, and finds a thread of the large lane free.
  let weight = UNKNOWN_WEIGHT
  const weigh = async () =>
    (weight = await estimateJoinRows(ws, p, source, ref, features, ctx.pool.databaseWorkers.smallWeight))
  // A team server's large join holds its user's lock in the database: one at a time across the instances.
  const user = currentPrincipal()?.user
  const run = (small: boolean) =>
    inWorker(ctx, ws, {
      ...request,
      stmt,
      weight,
      userLock: user !== undefined && ctx.pool.database.limitsUsers && !small ? userLockKey(user) : undefined,
    })
  return ctx.pool.database.run(run, request.signal, weigh)
}

async function inWorker(
  ctx: ServiceContext,
  ws: PostgisWorkspace,
  request: DatabaseJoinRequest & {
    stmt: Extract<Awaited<ReturnType<typeof prepare>>, { stmt: unknown }>['stmt']
    weight: number
    userLock: [number, number] | undefined
  },
): Promise<Reply | void> {
  const res = request.res
  const flow = new Int32Array(new SharedArrayBuffer(8))
  const writer = new JsonResponseWriter(res)
  const stop = new AbortController()
  let started = false
  let grace: NodeJS.Timeout | undefined
  // The client left: the worker cancels its statement (it holds the connection); a job still waiting
  // leaves the queue, and a worker that does not stop in time is terminated.
  const onAbort = () => {
    Atomics.store(flow, FLOW_STATE, STATE_LEFT)
    Atomics.notify(flow, FLOW_STATE)
    Atomics.store(flow, FLOW_TAKEN, 2 ** 30)
    Atomics.notify(flow, FLOW_TAKEN)
    if (!started) stop.abort()
    else grace = setTimeout(() => stop.abort(), STOP_GRACE_MS).unref()
  }
  request.signal.addEventListener('abort', onAbort, { once: true })
  let taken = 0
  const took = () => {
    taken++
    if (Atomics.load(flow, FLOW_STATE) !== STATE_RUNNING) return
    Atomics.store(flow, FLOW_TAKEN, taken)
    Atomics.notify(flow, FLOW_TAKEN)
  }
  try {
    const result: PostgisJoinResult = await ctx.pool.databaseWorkers.run(
      'postgis.join',
      {
        ...ws.forWorker(),
        stmt: request.stmt,
        rowCap: request.rowCap,
        bufferBytes: bufferBytes(),
        fetchRows: fetchRows(),
        ...(request.weight !== UNKNOWN_WEIGHT ? { expectedRows: request.weight } : {}),
        flow: flow.buffer as SharedArrayBuffer,
        ...(request.userLock ? { userLock: request.userLock } : {}),
        ...(ctx.pool.database.limitsUsers ? { background: true } : {}),
      },
      {
        signal: stop.signal,
        weight: request.weight,
        onStart: () => (started = true),
        onPart: (part) => {
          writer.write(part.status, part.bytes, part.last, part.written)
          if (part.last) return
          // The next batch is fetched once the response took this one (as `streamCursor` waits on `drain`).
          if (res.writableNeedDrain && !res.destroyed) res.once('drain', took)
          else took()
        },
      },
    )
    switch (result.kind) {
      case 'reply':
        return { status: result.status, body: result.body }
      case 'failed':
        // A table changed or gone since it was found: find it again next time.
        ws.forgetResolved()
        throw new HttpError(result.status, result.message, result.extra, result.headers)
      case 'cut':
        ws.forgetResolved()
        res.destroy()
        return undefined
      default:
        return undefined
    }
  } catch (error) {
    if (request.signal.aborted || error instanceof HttpError) throw error
    // The worker stopped (a crash): a cut response once rows went out, else the pool's error.
    ws.forgetResolved()
    if (writer.headersSent) {
      res.destroy()
      return undefined
    }
    throw error
  } finally {
    request.signal.removeEventListener('abort', onAbort)
    if (grace) clearTimeout(grace)
    Atomics.compareExchange(flow, FLOW_STATE, STATE_RUNNING, STATE_OVER)
    Atomics.notify(flow, FLOW_STATE)
  }
}
