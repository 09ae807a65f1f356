import { createServer, type Server } from 'node:http'
import { createServer as createTlsServer } from 'node:https'
import os from 'node:os'
import type { AddressInfo } from 'node:net'
import { BASE_URLS } from '../contract/groups'
import { BASE_URL_KEYS } from '../contract/groups'
import type { BaseUrls } from '../contract/settings'
import { LOCAL_AREAS } from './areas'
import type { Entitlements } from './auth'
import { WorkerPool, type PoolOptions } from './pool/worker-pool'
import type { PostgisWorkspace } from './postgis/workspace'
import { createRouter, type GroupPrefix } from './router'
import type { AuditLog } from './team/audit-log'
import type { Credentials } from './team/credentials'
import type { AreaInstance, LocalArea, ServiceContext } from './service-context'
import { sweepStoppedThread } from './workspace/sweep'
import { Workspace } from './workspace/workspace'

/** The loopback paths of the six base placeholders (architecture page, "Local service"). */
export const BASE_PATHS = Object.fromEntries(
  BASE_URL_KEYS.map((key) => [key, BASE_URLS[key].localPath]),
) as Readonly<Record<keyof BaseUrls, string>>

/**
 * Which operation group each prefix belongs to (from the groups' table; the router takes the longest that
 * matches); `/local` holds the service's own extensions for the app.
 */
export const GROUP_PREFIXES: readonly GroupPrefix[] = [
  ...BASE_URL_KEYS.map((key) => ({ prefix: BASE_URLS[key].localPath, group: BASE_URLS[key].group })),
  { prefix: '/local', group: 'gis' },
  { prefix: '/tiles', group: 'gis' },
]

/** The group prefixes the audit log names for a request no route matched. */
const AUDIT_PREFIXES = GROUP_PREFIXES.map((g) => g.prefix)

export interface ServerOptions {
  workspaceDir: string
  token: string
  licenceKey: string
  entitlements: Entitlements
  /** Rows a join returns at most before it answers 206 (default 1,000,000). */
  rowCap: number
  maxBodyBytes: number
  pool: PoolOptions
  /** The PostGIS workspace the dataset list answers from, when the workspace is a database. */
  database?: PostgisWorkspace
  /** A team server's folder its users may import from by path (`ServiceContext.importDir`). */
  importDir?: string
  /** The areas to start (default: every area of `LOCAL_AREAS`). */
  areas?: readonly LocalArea[]
  /** Record requests (writes and refusals, or all) in this audit log (issue 32). */
  audit?: AuditLog
  /** Who may call (the users of `serve --users FILE`); absent: `token` and `licenceKey` only. */
  credentials?: Credentials
  /** Serve HTTPS with this certificate chain and key (PEM, read once at start by `readTlsFiles`). */
  tls?: { cert: Buffer; key: Buffer }
  now?: () => number
}

export const DEFAULT_ROW_CAP = 1_000_000
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024
/** How long an idle keep-alive connection stays open. */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000

export interface LocalServer {
  server: Server
  pool: WorkerPool
  /** Stop the areas and the pool (the HTTP server is closed by the caller). */
  stop(): Promise<void>
}

/** The local service's HTTP server: every area started, their routes behind one router, one worker pool. */
export async function createLocalServer(options: ServerOptions): Promise<LocalServer> {
  // A worker stopped inside a write (its saving join's client went away, a crash) leaves a staging
  // folder nothing will finish: remove it once the thread is gone.
  const pool = new WorkerPool({
    ...options.pool,
    onWorkerExit: async (threadId) => {
      try {
        await options.pool.onWorkerExit?.(threadId)
      } finally {
        await sweepStoppedThread(options.workspaceDir, threadId)
      }
    },
  })
  // The PostGIS joins' threads loaded before the first join comes (decision 030, issue 32).
  if (options.database) await pool.databaseWorkers.warm()
  const ctx: ServiceContext = {
    workspaceDir: options.workspaceDir,
    workspace: new Workspace(options.workspaceDir),
    ...(options.database ? { database: options.database } : {}),
    ...(options.importDir ? { importDir: options.importDir } : {}),
    pool,
    limits: { rowCap: options.rowCap, maxBodyBytes: options.maxBodyBytes },
    entitlements: options.entitlements,
    now: options.now ?? Date.now,
    shared: {},
  }
  const started: AreaInstance[] = []
  try {
    for (const area of options.areas ?? LOCAL_AREAS) started.push(await area.start(ctx))
  } catch (error) {
    await Promise.all(started.map((a) => a.close?.()))
    await pool.close()
    throw error
  }
  const dispatch = createRouter(
    started.flatMap((a) => a.routes),
    {
      groups: GROUP_PREFIXES,
      secrets: { token: options.token, licenceKey: options.licenceKey },
      entitlements: options.entitlements,
      maxBodyBytes: options.maxBodyBytes,
      ...(options.credentials ? { credentials: options.credentials } : {}),
    },
  )
  const handle = (req: Parameters<typeof dispatch>[0], res: Parameters<typeof dispatch>[1]) => {
    options.audit?.watch(req, res, AUDIT_PREFIXES)
    void dispatch(req, res)
  }
  // One HTTP/1.1 connection serves many requests (a TLS handshake per request would cost more than most
  // answers); idle connections stay longer than a load balancer's usual 60 s, so it is the one to close them.
  const server: Server = options.tls
    ? (createTlsServer({ cert: options.tls.cert, key: options.tls.key }, handle) as unknown as Server)
    : createServer(handle)
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000
  server.on('clientError', (_error, socket) => {
    if (socket.writable)
      socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n')
    else socket.destroy()
  })
  let stopping: Promise<void> | undefined
  const stop = () =>
    (stopping ??= (async () => {
      await Promise.all(started.map((a) => a.close?.().catch(() => undefined)))
      await pool.close()
    })())
  server.on('close', () => void stop())
  return { server, pool, stop }
}

export async function listen(server: Server, port: number, host = '127.0.0.1'): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  return (server.address() as AddressInfo).port
}

/**
 * The base URLs clients use: the bound address (IPv6 in brackets), or this machine's name when bound to
 * every address (0.0.0.0, ::), `https:` when the service speaks TLS.
 */
export function baseUrls(port: number, bound: { host?: string; tls?: boolean } = {}): BaseUrls {
  const host = bound.host ?? '127.0.0.1'
  const shown = host === '0.0.0.0' || host === '::' ? os.hostname() : host.includes(':') ? `[${host}]` : host
  const origin = `${bound.tls ? 'https' : 'http'}://${shown}:${port}`
  return Object.fromEntries(Object.entries(BASE_PATHS).map(([k, p]) => [k, origin + p])) as BaseUrls
}
