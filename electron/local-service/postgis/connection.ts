import { existsSync, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { ConnectionOptions } from 'node:tls'
import pg from 'pg'
import { classifyDatabaseError, DatabaseWorkspaceError, type ConnectionTarget } from './errors'
import { pgpassPassword } from './pgpass'
import type { SslMode, WorkspaceUri } from './uri'

/** Connection settings resolved as libpq would: the URI, then a `pg_service.conf` section, then PG* variables. */
export interface ResolvedConnection extends ConnectionTarget {
  sslmode: SslMode
  sslrootcert?: string
  /** Only in memory: never printed, logged or put in an error. */
  password?: string
  /** Where `~/.pgpass` is looked up when no password is given (PGPASSFILE, HOME). */
  env: NodeJS.ProcessEnv
  /** Server settings for every session, as libpq's `PGOPTIONS` (`-c statement_timeout=5s`). */
  options?: string
}

/** The sections of a libpq service file: `[name]` then `key=value` lines. */
export function parseServiceFile(text: string): Map<string, Record<string, string>> {
  const sections = new Map<string, Record<string, string>>()
  let current: Record<string, string> | undefined
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) continue
    const section = /^\[(.+)\]$/.exec(line)
    if (section) {
      current = {}
      sections.set(section[1]!.trim(), current)
      continue
    }
    const eq = line.indexOf('=')
    if (current && eq > 0) current[line.slice(0, eq).trim()] = line.slice(eq + 1).trim()
  }
  return sections
}

/** libpq's service files: PGSERVICEFILE or ~/.pg_service.conf, then PGSYSCONFDIR/pg_service.conf. */
function serviceEntry(name: string, env: NodeJS.ProcessEnv): Record<string, string> {
  const files = [
    env.PGSERVICEFILE ?? path.join(env.HOME ?? os.homedir(), '.pg_service.conf'),
    path.join(env.PGSYSCONFDIR ?? '/etc/postgresql-common', 'pg_service.conf'),
  ]
  for (const file of files) {
    if (!existsSync(file)) continue
    const entry = parseServiceFile(readFileSync(file, 'utf8')).get(name)
    if (entry) return entry
  }
  throw new Error(`the database service "${name}" is not defined in ${files.join(' or ')}`)
}

/**
 * The settings of a connection: what the URI names wins, then the service's section (`?service=` or
 * `PGSERVICE`), then libpq's variables (PGHOST, PGPORT, PGDATABASE, PGUSER, PGPASSWORD). When no password
 * is found here, `~/.pgpass` (or PGPASSFILE) is read when the server asks for one, as libpq does.
 */
export function resolveConnection(
  uri: WorkspaceUri,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedConnection {
  const serviceName = uri.service ?? env.PGSERVICE
  const service = serviceName ? serviceEntry(serviceName, env) : {}
  const port = uri.port ?? Number(service.port ?? env.PGPORT ?? 5432)
  const user = uri.user ?? service.user ?? env.PGUSER ?? os.userInfo().username
  return {
    host: uri.host ?? service.host ?? env.PGHOST ?? 'localhost',
    port,
    user,
    database: uri.database ?? service.dbname ?? env.PGDATABASE ?? user,
    sslmode: uri.sslmode,
    ...((uri.sslrootcert ?? service.sslrootcert ?? env.PGSSLROOTCERT)
      ? { sslrootcert: uri.sslrootcert ?? service.sslrootcert ?? env.PGSSLROOTCERT }
      : {}),
    // As libpq, an empty PGPASSWORD is no password.
    ...(env.PGPASSWORD || service.password ? { password: env.PGPASSWORD || service.password } : {}),
    ...((service.options ?? env.PGOPTIONS) ? { options: service.options ?? env.PGOPTIONS } : {}),
    env,
  }
}

/** node-postgres' `ssl` setting for one libpq `sslmode`; `prefer`/`allow` try both, in libpq's order. */
export function sslAttempts(mode: SslMode, rootcert?: string): (false | ConnectionOptions)[] {
  const ca = rootcert ? { ca: readFileSync(rootcert) } : {}
  switch (mode) {
    case 'disable':
      return [false]
    case 'allow':
      return [false, { rejectUnauthorized: false }]
    case 'prefer':
      return [{ rejectUnauthorized: false }, false]
    case 'require':
      // libpq: with a root certificate, require verifies the chain as verify-ca does.
      return [rootcert ? { ...ca, checkServerIdentity: () => undefined } : { rejectUnauthorized: false }]
    case 'verify-ca':
      return [{ ...ca, checkServerIdentity: () => undefined }]
    case 'verify-full':
      return [{ ...ca }]
  }
}

/** Why trying the next `ssl` setting of `prefer`/`allow` is worth it after this error. */
function tryNext(error: unknown): boolean {
  const message = (error as Error | undefined)?.message ?? ''
  return /does not support SSL|no pg_hba\.conf entry|SSL|TLS|ECONNRESET/i.test(message)
}

/**
 * A pool of connections to one database. The first connection settles which `ssl` setting works (libpq's
 * `prefer` tries TLS, then plain); failures are classified in plain words, and a failed first connection
 * is tried again at the next use (the database may be back).
 */
export class DatabasePool {
  private pool: pg.Pool | undefined
  /** The `ssl` setting the first connection settled on (cancel requests open their own connection with it). */
  private ssl: false | ConnectionOptions = false
  private opening: Promise<pg.Pool> | undefined

  constructor(
    readonly target: ResolvedConnection,
    private readonly options: { max?: number; connectTimeoutMs?: number; applicationName?: string } = {},
  ) {}

  private config(ssl: false | ConnectionOptions): pg.PoolConfig {
    const t = this.target
    return {
      host: t.host,
      port: t.port,
      user: t.user,
      database: t.database,
      // Asked only when the server wants a password: the given one, else the password file's, else a
      // plain-words error (never node-postgres' own pgpass lookup, which reads process.env).
      password: async () => {
        const found =
          t.password ??
          pgpassPassword(
            {
              host: t.host ?? 'localhost',
              port: t.port ?? 5432,
              database: t.database ?? '',
              user: t.user ?? '',
            },
            t.env,
          )
        if (found === undefined)
          throw new DatabaseWorkspaceError(
            'no-password',
            `The database asks user "${t.user ?? ''}" for a password and none was given: set PGPASSWORD, a ~/.pgpass line or a PGSERVICE entry.`,
          )
        return found
      },
      ssl,
      max: this.options.max ?? 4,
      connectionTimeoutMillis: this.options.connectTimeoutMs ?? 10_000,
      idleTimeoutMillis: 30_000,
      application_name: this.options.applicationName ?? 'geo-analyst',
      ...(t.options ? { options: t.options } : {}),
    }
  }

  private async open(): Promise<pg.Pool> {
    const attempts = sslAttempts(this.target.sslmode, this.target.sslrootcert)
    let last: unknown
    for (const [i, ssl] of attempts.entries()) {
      // The clients the pool makes, so a first connection that failed mid-handshake (node-postgres leaves
      // its socket open when the password cannot be given) is closed and the process can end.
      const made: pg.Client[] = []
      const Client = class extends pg.Client {
        constructor(config?: pg.ClientConfig) {
          super(config)
          made.push(this)
        }
      }
      const pool = new pg.Pool({ ...this.config(ssl), Client: Client as unknown as new () => pg.ClientBase })
      // An idle client's error (the server went away) must not end the process; the next query reconnects.
      pool.on('error', () => undefined)
      try {
        const client = await pool.connect()
        client.release()
        this.ssl = ssl
        return pool
      } catch (error) {
        last = error
        for (const client of made)
          (
            client as unknown as { connection?: { stream?: { destroy(): void } } }
          ).connection?.stream?.destroy()
        await pool.end().catch(() => undefined)
        if (i === attempts.length - 1 || !tryNext(error)) break
      }
    }
    throw classifyDatabaseError(last, this.target)
  }

  private async ready(): Promise<pg.Pool> {
    if (this.pool) return this.pool
    this.opening ??= this.open().then(
      (pool) => (this.pool = pool),
      (error: unknown) => {
        this.opening = undefined
        throw error
      },
    )
    return this.opening
  }

  /** Run one statement with its values as parameters; errors classified. */
  async query(text: string, values: unknown[] = []): Promise<{ rows: Record<string, unknown>[] }> {
    const pool = await this.ready()
    try {
      return await pool.query(text, values)
    } catch (error) {
      throw classifyDatabaseError(error, this.target)
    }
  }

  /**
   * A connection of its own (a transaction, a cursor): release it with `release(error)` when it failed or a
   * cancel may still be on its way, so the pool closes it rather than handing it on.
   */
  async connect(): Promise<pg.PoolClient> {
    const pool = await this.ready()
    try {
      return await pool.connect()
    } catch (error) {
      throw classifyDatabaseError(error, this.target)
    }
  }

  /**
   * Cancel what the backend `pid` runs (`pg_cancel_backend`), on a connection outside the pool so a full
   * pool cannot hold the cancel back. False when it could not be sent (the caller then closes the client).
   */
  async cancelBackend(pid: number): Promise<boolean> {
    const client = new pg.Client({ ...this.config(this.ssl), connectionTimeoutMillis: 5_000 })
    client.on('error', () => undefined)
    try {
      await client.connect()
      const { rows } = await client.query('SELECT pg_cancel_backend($1) AS sent', [pid])
      return rows[0]?.sent === true
    } catch {
      return false
    } finally {
      await client.end().catch(() => undefined)
    }
  }

  async close(): Promise<void> {
    const pool = this.pool ?? (await this.opening?.catch(() => undefined))
    this.pool = undefined
    this.opening = undefined
    await pool?.end().catch(() => undefined)
  }
}
