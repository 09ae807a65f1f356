import { promises as fs } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import path from 'node:path'
import { principalOf, routeOf } from './principal'

/**
 * The team server's audit log (issue 32): one JSON line per request it records — who, what, on which
 * dataset/alarm/network, how it ended. Never a secret nor a body: the operation is the route's pattern (a
 * raw path may hold the licence key), the target a named path segment or query parameter from a short list.
 * By default only writes and refusals (401/403/429) are recorded; `all` records reads too.
 */
export interface AuditEntry {
  /** ISO time the request arrived. */
  time: string
  /** The authenticated user; null when the request was refused before anyone was authenticated. */
  user: string | null
  /** `POST /mgis/query_apply/join`: the method and the route's pattern (or the group prefix, `…`). */
  operation: string
  /** The dataset, alarm or network the request names, when it names one. */
  target: string | null
  outcome: 'ok' | 'refused' | 'failed'
  status: number
  /** Milliseconds from the request's arrival to its end. */
  ms: number
  /** The client's address. */
  address: string | null
}

/** Where entries go besides the file (the PostGIS workspace's `geo_analyst.audit`). */
export interface AuditSink {
  add(entry: AuditEntry): void
  close(): Promise<void>
}

export interface AuditLogOptions {
  file: string
  /** A file grows to this many bytes before it is rotated (default 10 MB). */
  maxBytes?: number
  /** Rotated files kept: `audit.log.1` (newest) … `audit.log.N` (default 5). */
  keep?: number
  /** Record reads too (default: only writes and refusals). */
  all?: boolean
}

export const DEFAULT_AUDIT_MAX_BYTES = 10 * 1024 * 1024
export const DEFAULT_AUDIT_KEEP = 5
/** Lines waiting for the disk at most; past it new lines are dropped (and counted). */
const MAX_PENDING = 10_000

/** Named path segments and query parameters that name what a request acts on (never `key`). */
const TARGET_PARAMS = ['name', 'dataset', 'id', 'eLoc'] as const
const TARGET_QUERY = ['newDatasetNme', 'name', 'id', 'alarmId', 'datasetSource'] as const
const REFUSED = new Set([401, 403, 429])

/** The target a request names, from its path segments or query; null when it names none. */
export function targetOf(req: IncomingMessage): string | null {
  const params = routeOf(req)?.params ?? {}
  for (const name of TARGET_PARAMS) {
    const value = params[name]
    if (value) return value.slice(0, 200)
  }
  const q = (req.url ?? '').indexOf('?')
  if (q < 0) return null
  const query = new URLSearchParams((req.url ?? '').slice(q + 1))
  for (const name of TARGET_QUERY) {
    const value = query.get(name)
    if (value) return value.slice(0, 200)
  }
  return null
}

/** The group prefix of a request no route matched, e.g. `/mgis/…`: never the rest of the path. */
function prefixOf(req: IncomingMessage, prefixes: readonly string[]): string {
  const pathname = (req.url ?? '/').split('?')[0]!
  const found = prefixes
    .filter((p) => pathname === p || pathname.startsWith(p + '/'))
    .sort((a, b) => b.length - a.length)[0]
  return found ? `${found}/…` : '(no route)'
}

/** An audit log of JSON lines, rotated by size, appended one `write` per line in order. */
export class AuditLog {
  readonly file: string
  readonly maxBytes: number
  readonly keep: number
  readonly all: boolean
  /** Lines dropped because the disk could not keep up or failed. */
  dropped = 0
  private readonly sinks: AuditSink[] = []
  private readonly pending: string[] = []
  private handle: fs.FileHandle | undefined
  private size = 0
  private draining: Promise<void> | undefined
  private failing = false
  private closed = false

  constructor(
    options: AuditLogOptions,
    private readonly report: (message: string) => void = (m) => process.stderr.write(m + '\n'),
  ) {
    this.file = path.resolve(options.file)
    this.maxBytes = Math.max(256, options.maxBytes ?? DEFAULT_AUDIT_MAX_BYTES)
    this.keep = Math.max(1, options.keep ?? DEFAULT_AUDIT_KEEP)
    this.all = options.all === true
  }

  /** Send every entry to `sink` as well (the shared PostGIS table). */
  addSink(sink: AuditSink): void {
    this.sinks.push(sink)
  }

  /**
   * Watch one request: when its response ends (or the client leaves), record it if it is to be recorded.
   * `prefixes` name the group prefixes, for a request no route matched.
   */
  watch(req: IncomingMessage, res: ServerResponse, prefixes: readonly string[] = []): void {
    const started = Date.now()
    let done = false
    const end = () => {
      if (done) return
      done = true
      try {
        const route = routeOf(req)
        const status = res.statusCode
        const refused = REFUSED.has(status)
        const write = route ? (route.write ?? req.method !== 'GET') : false
        if (!this.all && !refused && !write) return
        const cut = !res.writableFinished
        this.record({
          time: new Date(started).toISOString(),
          user: principalOf(req)?.user ?? null,
          operation: route?.pattern ?? `${req.method ?? '?'} ${prefixOf(req, prefixes)}`,
          target: route ? targetOf(req) : null,
          outcome: refused ? 'refused' : cut || status >= 400 ? 'failed' : 'ok',
          status,
          ms: Date.now() - started,
          address: req.socket.remoteAddress ?? null,
        })
      } catch (error) {
        this.fail(error)
      }
    }
    res.once('finish', end)
    res.once('close', end)
  }

  /** Append one entry (never throws; a failing disk is reported once until it works again). */
  record(entry: AuditEntry): void {
    if (this.closed) return
    for (const sink of this.sinks) {
      try {
        sink.add(entry)
      } catch (error) {
        this.fail(error)
      }
    }
    if (this.pending.length >= MAX_PENDING) {
      this.dropped++
      return
    }
    this.pending.push(JSON.stringify(entry) + '\n')
    this.draining ??= this.drain().finally(() => {
      this.draining = undefined
    })
  }

  /** Open (or create) the file now: a service starts only with an audit log it can write. */
  async check(): Promise<void> {
    try {
      await this.open()
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      throw new Error(`the audit log ${this.file} cannot be written: ${message}`)
    }
  }

  /** Wait until every line recorded so far is on disk (or dropped). */
  async flush(): Promise<void> {
    while (this.draining) await this.draining
  }

  async close(): Promise<void> {
    await this.flush()
    this.closed = true
    await Promise.all(this.sinks.map((s) => s.close().catch((error: unknown) => this.fail(error))))
    await this.handle?.close().catch(() => undefined)
    this.handle = undefined
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const line = this.pending[0]!
      try {
        const bytes = Buffer.from(line)
        await this.open()
        if (this.size > 0 && this.size + bytes.length > this.maxBytes) await this.rotate()
        const handle = await this.open()
        await handle.write(bytes, 0, bytes.length)
        this.size += bytes.length
        this.pending.shift()
        if (this.failing) {
          this.failing = false
          this.report(`audit log: writing ${this.file} again`)
        }
      } catch (error) {
        // The line is lost (the disk failed): count it, close the file so the next line reopens it.
        this.pending.shift()
        this.dropped++
        await this.handle?.close().catch(() => undefined)
        this.handle = undefined
        this.fail(error)
      }
    }
  }

  private async open(): Promise<fs.FileHandle> {
    if (this.handle) return this.handle
    await fs.mkdir(path.dirname(this.file), { recursive: true })
    const handle = await fs.open(this.file, 'a', 0o600)
    this.size = (await handle.stat()).size
    this.handle = handle
    return handle
  }

  /** `audit.log.(N-1)` → `.N`, …, `audit.log` → `.1`: each step one rename (the oldest is replaced). */
  private async rotate(): Promise<void> {
    await this.handle?.close()
    this.handle = undefined
    for (let i = this.keep - 1; i >= 1; i--) {
      await fs.rename(`${this.file}.${i}`, `${this.file}.${i + 1}`).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      })
    }
    await fs.rename(this.file, `${this.file}.1`)
    this.size = 0
  }

  private fail(error: unknown): void {
    if (this.failing) return
    this.failing = true
    const message = error instanceof Error ? error.message : String(error)
    this.report(`audit log: cannot write ${this.file}: ${message.slice(0, 200)} (entries are being lost)`)
  }
}
