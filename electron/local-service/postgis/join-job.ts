import { readlinkSync } from 'node:fs'
import os from 'node:os'
import { HttpError } from '../http-util'
import type { JobIo, WorkerPart } from '../pool/job'
import type { AnswerSink } from './cursor-rows'
import { withCancellableClient } from './join-client'
import { joinFailure, joinRows } from './join-run'
import type { JoinStatement } from './join-sql'
import { PostgisWorkspace } from './workspace'

/**
 * A PostGIS join's rows read, formatted and written in a pool worker (issue 32: on the serving thread they
 * kept it busy, and every other user's dataset list waited behind them). The serving thread prepares the
 * statement (`join-route.ts`); the worker opens its own connections to the workspace (one workspace per
 * thread and URI, the password from the libpq variables it is given), runs the statement as the service
 * did (`joinRows`: rows held, or a temporary table read through a cursor) and sends the answer's bytes as
 * parts: the same bytes, status and headers as before.
 *
 * The serving thread and the worker share a few integers (`flow`): how many parts the response has taken
 * (a streamed answer's next batch is fetched when the last one is written, as on the serving thread), and
 * whether the client left — then the worker cancels the statement in the database (`pg_cancel_backend`
 * on the connection it holds) and the job ends.
 */

/** `flow` slots: parts the response took; the job's state. */
export const FLOW_TAKEN = 0
export const FLOW_STATE = 1
/** `FLOW_STATE` values: running, the client left (cancel), the job is over (nothing to watch). */
export const STATE_RUNNING = 0
export const STATE_LEFT = 1
export const STATE_OVER = 2

export interface PostgisJoinJob {
  /** The workspace URI and libpq variables (`PostgisWorkspace.forWorker`); never logged. */
  uri: string
  env: Record<string, string>
  stmt: JoinStatement
  rowCap: number
  bufferBytes: number
  fetchRows: number
  /** The rows the statistics expect, when the join was weighed (`joinRows` sends a large one straight to the cursor). */
  expectedRows?: number
  /** Two Int32 slots shared with the serving thread (`FLOW_TAKEN`, `FLOW_STATE`). */
  flow: SharedArrayBuffer
  /**
   * A team server's large join: the advisory lock (two int4 keys) of its user, held in the database while
   * the join runs, so a user runs one large join at a time across the instances (decision 034).
   */
  userLock?: [number, number]
  /**
   * A team server's join: its thread runs below the serving thread (`lowerThreadPriority`), so the team's
   * lists get the cores first. On the analyst's own machine the join is what they wait for: it keeps the
   * thread's priority, since other programs there would take a lowered thread's time (decision 036).
   */
  background?: boolean
}

export type PostgisJoinResult =
  /** The answer went out as parts. */
  | { kind: 'sent' }
  /** A short answer (404 when no row). */
  | { kind: 'reply'; status: number; body: unknown }
  /** The database failed before the answer began: the service's error answer. */
  | {
      kind: 'failed'
      status: number
      message: string
      extra: Record<string, unknown>
      headers: Record<string, string>
    }
  /** It failed after the answer began (the response must be cut), or the client left. */
  | { kind: 'cut' }
  | { kind: 'left' }

type WaitAsync = (
  array: Int32Array,
  index: number,
  value: number,
) => { async: false; value: string } | { async: true; value: Promise<string> }
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync

/** Resolves once `flow[index]` is no longer `value`. */
async function changed(flow: Int32Array, index: number, value: number): Promise<void> {
  const waited = waitAsync(flow, index, value)
  if (waited.async) await waited.value
}

/** The nice value of a team server's database thread (Linux): below the serving thread, which answers the lists. */
export const THREAD_NICE = 10

let lowered = false

/**
 * Lower this thread's scheduling priority once (Linux: `setpriority` takes a thread's id, read from
 * `/proc/thread-self`): a busy machine then gives its cores to the serving thread first, so a dataset list
 * does not wait behind rows being formatted. Elsewhere nothing changes.
 */
function lowerThreadPriority(): void {
  if (lowered) return
  lowered = true
  if (process.platform !== 'linux') return
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
    if (Number.isInteger(tid) && tid > 0 && tid !== process.pid) os.setPriority(tid, THREAD_NICE)
  } catch {
    // No /proc, or the priority cannot be set: the thread runs as it is.
  }
}

/** The workspaces this thread opened, by URI and variables. */
const workspaces = new Map<string, PostgisWorkspace>()

function workspaceOf(uri: string, env: Record<string, string>): PostgisWorkspace {
  const key = `${uri}\n${JSON.stringify(env)}`
  let ws = workspaces.get(key)
  if (!ws) {
    ws = PostgisWorkspace.fromUri(uri, { env })
    workspaces.set(key, ws)
  }
  return ws
}

/** The answer as parts of the job: a batch's bytes, then a wait until the response took the batch before. */
function partsSink(io: JobIo, flow: Int32Array, left: () => boolean): AnswerSink & { began: boolean } {
  let status = 200
  let sent = 0
  let before = 0
  return {
    began: false,
    start(s) {
      status = s
      this.began = true
    },
    write(bytes) {
      if (left()) return
      io.part(status, bytes, false)
      sent++
    },
    async drained() {
      // One batch in flight: the one just sent may still be on its way while the next is fetched.
      const want = before
      before = sent
      for (;;) {
        if (left()) return false
        const taken = Atomics.load(flow, FLOW_TAKEN)
        if (taken >= want) return true
        await changed(flow, FLOW_TAKEN, taken)
      }
    },
    end(bytes) {
      if (left()) return false
      io.part(status, bytes, true)
      return true
    },
  }
}

/** Concatenate a held answer: head, rows, `]}` (one part: the response gets its Content-Length). */
function wholeAnswer(head: Record<string, unknown>, parts: readonly Uint8Array[]): Uint8Array {
  const open = Buffer.from(JSON.stringify(head).slice(0, -1) + ',"result":[')
  const close = Buffer.from(']}')
  const size = open.byteLength + parts.reduce((n, p) => n + p.byteLength, 0) + close.byteLength
  const out = new Uint8Array(size)
  let at = 0
  for (const part of [open, ...parts, close]) {
    out.set(part, at)
    at += part.byteLength
  }
  return out
}

/**
 * Run `work` holding a session advisory lock on a connection of its own: waited for in the database (a
 * client that leaves cancels the wait), released after, or with the connection if it breaks.
 */
async function holdingLock<T>(
  ws: PostgisWorkspace,
  key: [number, number],
  signal: AbortSignal,
  work: () => Promise<T>,
): Promise<T> {
  return withCancellableClient(ws, signal, async (client) => {
    await client.query('SELECT pg_advisory_lock($1, $2)', key)
    try {
      return await work()
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', key).catch(() => undefined)
    }
  })
}

/** The job: one join's rows over the workspace, as parts. */
export async function postgisJoin(job: PostgisJoinJob, io: JobIo): Promise<PostgisJoinResult> {
  if (job.background === true) lowerThreadPriority()
  const flow = new Int32Array(job.flow)
  const cancel = new AbortController()
  const left = () => cancel.signal.aborted
  // The client leaving is told through `flow`: the statement is cancelled in the database.
  void changed(flow, FLOW_STATE, STATE_RUNNING).then(() => {
    if (Atomics.load(flow, FLOW_STATE) === STATE_LEFT) cancel.abort()
  })
  const ws = workspaceOf(job.uri, job.env)
  const sink = partsSink(io, flow, left)
  const rows = () =>
    joinRows(
      ws,
      job.stmt,
      job.rowCap,
      cancel.signal,
      {
        whole: (status, head, parts) => io.part(status, wholeAnswer(head, parts), true),
        sink,
      },
      {
        bufferBytes: job.bufferBytes,
        fetchRows: job.fetchRows,
        ...(job.expectedRows !== undefined ? { expectedRows: job.expectedRows } : {}),
      },
    )
  try {
    const short = job.userLock ? await holdingLock(ws, job.userLock, cancel.signal, rows) : await rows()
    if (left()) return { kind: 'left' }
    return short ? { kind: 'reply', status: short.status, body: short.body } : { kind: 'sent' }
  } catch (error) {
    if (left()) return { kind: 'left' }
    if (sink.began) return { kind: 'cut' }
    const failure: HttpError = joinFailure(error, ws)
    return {
      kind: 'failed',
      status: failure.status,
      message: failure.message,
      extra: failure.extra,
      headers: failure.headers,
    }
  }
}

/** The postgis area's part of a pool worker, listed in `../job-list.ts`. */
export const postgisWorker = {
  jobs: { 'postgis.join': postgisJoin },
} satisfies WorkerPart
