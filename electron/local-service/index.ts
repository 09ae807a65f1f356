import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import os from 'node:os'
import type { BaseUrls } from '../contract/settings'
import type { Entitlements } from './auth'
import type { PoolOptions, WorkerPool } from './pool/worker-pool'
import { PostgisWorkspace } from './postgis/workspace'
import { createSampleWorkspace, resolveSampleDir } from './sample/sample-workspace'
import { baseUrls, createLocalServer, DEFAULT_MAX_BODY_BYTES, DEFAULT_ROW_CAP, listen } from './server'
import { sweepLeftovers } from './workspace/sweep'
import { Workspace } from './workspace/workspace'

export type { Entitlements, ServiceGroup } from './auth'
export { SERVICE_GROUPS } from './auth'

export interface LocalServiceOptions {
  workspaceDir: string
  /**
   * A PostGIS workspace, `postgresql://USER@HOST:PORT/DB?schema=S1,S2&sslmode=…`: the dataset list (§4.6)
   * answers from it; the start fails, in plain words, when it cannot be reached or read. The password comes
   * from `env` as libpq takes it (PGPASSWORD, ~/.pgpass, PGSERVICE), never from the URI.
   */
  databaseUri?: string
  /** Where libpq's variables are read (default `process.env`). */
  env?: NodeJS.ProcessEnv
  /** 0 or absent: any free port. */
  port?: number
  /** Bearer token the service accepts; generated when absent. */
  token?: string
  /** Licence key (distance-matrix path segment); generated when absent. */
  licenceKey?: string
  /** Groups the credential is entitled to; all when absent. */
  entitlements?: Entitlements
  /** Create the sample workspace when the folder is empty (default true). */
  sampleData?: boolean
  /** Folder with the sample files (default: resources/sample, or GEO_ANALYST_SAMPLE_DIR). */
  sampleDir?: string
  /** Join rows returned at most before answering 206 (default 1,000,000). */
  rowCap?: number
  /** Largest request body accepted (default 64 MiB). */
  maxBodyBytes?: number
  /** The worker pool: threads, queue bound, small-job lane (defaults in `WorkerPool`). */
  pool?: PoolOptions
  /** The clock of time-dependent areas (tests inject one). */
  now?: () => number
}

export interface LocalService {
  urls: BaseUrls
  token: string
  licenceKey: string
  port: number
  /** Set when the sample workspace was created at this start. */
  sampleCreated: string[]
  /** What the worker pool did and holds (diagnostics, benchmarks). */
  poolStats(): WorkerPool['stats'] & { load: WorkerPool['load'] }
  close(): Promise<void>
}

const secret = () => randomBytes(24).toString('base64url')

/** Start the built-in local service on 127.0.0.1: the interface of the spec over the dataset workspace. */
export async function startLocalService(options: LocalServiceOptions): Promise<LocalService> {
  await fs.mkdir(options.workspaceDir, { recursive: true })
  // What a process killed mid-import or mid-save left behind (kill -9, a crash): only our own, only dead.
  await sweepLeftovers({ workspaceDir: options.workspaceDir, tempDir: os.tmpdir() })
  const workspace = new Workspace(options.workspaceDir)
  const sampleCreated: string[] = []
  if (options.sampleData !== false && (await workspace.isEmpty())) {
    const dir = options.sampleDir ?? resolveSampleDir()
    if (dir) sampleCreated.push(...(await createSampleWorkspace(workspace, dir)).map((m) => m.name))
  }
  const token = options.token || secret()
  const licenceKey = options.licenceKey || secret()
  const database = options.databaseUri
    ? PostgisWorkspace.fromUri(options.databaseUri, { env: options.env })
    : undefined
  await database?.check().catch(async (error: unknown) => {
    await database.close()
    throw error
  })
  const {
    server,
    pool,
    stop: stopServer,
  } = await createLocalServer({
    workspaceDir: options.workspaceDir,
    ...(database ? { database } : {}),
    token,
    licenceKey,
    entitlements: options.entitlements ?? {},
    rowCap: options.rowCap ?? DEFAULT_ROW_CAP,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    pool: options.pool ?? {},
    now: options.now,
  }).catch(async (error: unknown) => {
    await database?.close()
    throw error
  })
  const stop = async () => {
    try {
      await stopServer()
    } finally {
      await database?.close()
    }
  }
  const port = await listen(server, options.port ?? 0).catch(async (error: unknown) => {
    await stop()
    throw error
  })
  let closing: Promise<void> | undefined
  return {
    urls: baseUrls(port),
    token,
    licenceKey,
    port,
    sampleCreated,
    poolStats: () => ({ ...pool.stats, load: pool.load }),
    close() {
      closing ??= (async () => {
        await stop()
        server.closeAllConnections()
        await new Promise<void>((resolve) => server.close(() => resolve()))
      })()
      return closing
    },
  }
}
export { createWorkspacePort } from './workspace-port'
