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
import type { AuditLogOptions } from './team/audit-log'
import { openAuditLog } from './team/audit-postgis'
import { isLoopback, ListenPolicyError } from './team/listen-policy'
import { readTlsFiles } from './team/tls-files'
import { usersFileCredentials } from './team/credentials'
import { UserDirectory } from './team/user-directory'

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
  /**
   * Where to bind instead of 127.0.0.1:`port` (from `planListen`); anything but loopback needs `tls`.
   * IPv6 without brackets.
   */
  listen?: { host: string; port: number }
  /** Serve HTTPS with these PEM files, read once at start (a wrong file fails the start, nothing bound). */
  tls?: { certFile: string; keyFile: string }
  /**
   * The audit log (issue 32): JSON lines in `file`, rotated by size; over a PostGIS workspace also the
   * shared table `geo_analyst.audit`. Absent: no audit.
   */
  auditLog?: AuditLogOptions
  /**
   * A users file (`serve --users FILE`, `geo-analyst users …`): only its users' tokens and licence keys are
   * accepted (not `token`/`licenceKey`), each request acting as its user. Read at start (a file that cannot
   * be read fails the start) and re-read when it changes.
   */
  usersFile?: string
  /**
   * A team server's folder from which its users may import by path (`serve --import-dir DIR`): files there
   * only, symbolic links followed. Without it a team server's users may name no path on its disk.
   */
  importDir?: string
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
  /**
   * The worker pool: threads, queue bound, small-job lane, per-user limits (`perUserQueue`, `perUserRunning`)
   * and database joins at once (`databaseJoins`); defaults in `WorkerPool`.
   */
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
  poolStats(): WorkerPool['stats'] & {
    load: WorkerPool['load']
    database: WorkerPool['database']['load']
    /** The threads of PostGIS joins (`WorkerPool.databaseWorkers`), when the workspace is a database. */
    databaseWorkers?: WorkerPool['stats'] & { load: WorkerPool['load'] }
  }
  close(): Promise<void>
}

const secret = () => randomBytes(24).toString('base64url')

/** Start the built-in local service on 127.0.0.1: the interface of the spec over the dataset workspace. */
export async function startLocalService(options: LocalServiceOptions): Promise<LocalService> {
  const bind = options.listen ?? { host: '127.0.0.1', port: options.port ?? 0 }
  // The serve command checks this first (planListen); a caller of this function cannot skip it either.
  if (!isLoopback(bind.host) && (!options.tls || !options.usersFile))
    throw new ListenPolicyError(
      `binding to ${bind.host} needs TLS (a certificate and key) and a users file: it is reachable from the network`,
      options.tls ? 'users' : 'tls-cert',
    )
  const tls = options.tls ? await readTlsFiles(options.tls.certFile, options.tls.keyFile) : undefined
  const users = options.usersFile ? await UserDirectory.open(options.usersFile) : undefined
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
  const audit = options.auditLog
    ? await openAuditLog(options.auditLog, database?.db).catch(async (error: unknown) => {
        await database?.close()
        throw error
      })
    : undefined
  const {
    server,
    pool,
    stop: stopServer,
  } = await createLocalServer({
    workspaceDir: options.workspaceDir,
    ...(database ? { database } : {}),
    ...(options.importDir ? { importDir: options.importDir } : {}),
    token,
    licenceKey,
    entitlements: options.entitlements ?? {},
    rowCap: options.rowCap ?? DEFAULT_ROW_CAP,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    // One token, one user: the per-user waiting limit is the whole queue's (a team server's users get 16),
    // and their large joins as many at once as the places allow (a team server's users one each: bench:team
    // measured the same throughput for a heavy user, and the others' lists and joins no longer wait on it).
    pool: {
      ...(options.usersFile ? { perUserLargeJoins: 1 } : { perUserQueue: Number.POSITIVE_INFINITY }),
      ...options.pool,
    },
    now: options.now,
    ...(audit ? { audit } : {}),
    ...(tls ? { tls } : {}),
    ...(users ? { credentials: usersFileCredentials(users) } : {}),
  }).catch(async (error: unknown) => {
    await audit?.close()
    await database?.close()
    throw error
  })
  const stop = async () => {
    try {
      await stopServer()
    } finally {
      await audit?.close()
      await database?.close()
    }
  }
  const port = await listen(server, bind.port, bind.host).catch(async (error: unknown) => {
    await stop()
    throw error
  })
  let closing: Promise<void> | undefined
  return {
    urls: baseUrls(port, { host: bind.host, tls: Boolean(tls) }),
    token,
    licenceKey,
    port,
    sampleCreated,
    poolStats: () => ({
      ...pool.stats,
      load: pool.load,
      database: pool.database.load,
      ...(database
        ? { databaseWorkers: { ...pool.databaseWorkers.stats, load: pool.databaseWorkers.load } }
        : {}),
    }),
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
