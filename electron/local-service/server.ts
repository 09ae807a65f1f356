import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { BASE_URLS } from '../contract/groups'
import { BASE_URL_KEYS, type BaseUrls } from '../contract/settings'
import { LOCAL_AREAS } from './areas'
import type { Entitlements } from './auth'
import { WorkerPool, type PoolOptions } from './pool/worker-pool'
import type { PostgisWorkspace } from './postgis/workspace'
import { createRouter, type GroupPrefix } from './router'
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
  /** The areas to start (default: every area of `LOCAL_AREAS`). */
  areas?: readonly LocalArea[]
  now?: () => number
}

export const DEFAULT_ROW_CAP = 1_000_000
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024

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
  const ctx: ServiceContext = {
    workspaceDir: options.workspaceDir,
    workspace: new Workspace(options.workspaceDir),
    ...(options.database ? { database: options.database } : {}),
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
    },
  )
  const server = createServer((req, res) => void dispatch(req, res))
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

export async function listen(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  return (server.address() as AddressInfo).port
}

export function baseUrls(port: number): BaseUrls {
  const origin = `http://127.0.0.1:${port}`
  return Object.fromEntries(Object.entries(BASE_PATHS).map(([k, p]) => [k, origin + p])) as BaseUrls
}
