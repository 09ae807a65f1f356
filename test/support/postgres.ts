import { execFileSync, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'

/**
 * A throw-away PostgreSQL cluster for tests and benchmarks: `initdb` in a temp folder (as the `postgres`
 * user when running as root, since initdb refuses root), listening on 127.0.0.1 at a free port with
 * password (SCRAM) authentication over TCP, stopped and removed by `stop()`.
 */
export interface TestCluster {
  host: '127.0.0.1'
  port: number
  /** The superuser and its password (tests pass it as `PGPASSWORD`, never in a URI). */
  user: string
  password: string
  /** A superuser client on database `postgres`. */
  admin: pg.Client
  /** A client on `database` as the superuser (closed by `stop()`). */
  connect(database: string): Promise<pg.Client>
  /** One statement's rows on `database`, through a connection of its own closed after it (works across `halt`). */
  query(database: string, text: string, values?: unknown[]): Promise<Record<string, unknown>[]>
  /** `postgresql://user@127.0.0.1:port/database` plus the query given. */
  uri(database: string, query?: string, user?: string): string
  /** Stop the server at once (`-m immediate`: as a crash or a cut network), keeping its data. */
  halt(): void
  /** Start the stopped server again on the same port. */
  resume(): void
  stop(): Promise<void>
}

function pgBin(): string | undefined {
  const base = '/usr/lib/postgresql'
  if (!existsSync(base)) return undefined
  for (const v of readdirSync(base).sort((a, b) => Number(b) - Number(a))) {
    const bin = path.join(base, v, 'bin')
    if (existsSync(path.join(bin, 'initdb'))) return bin
  }
  return undefined
}

/** Why a cluster with PostGIS cannot be started here, or undefined when it can. */
export function postgresMissing(): string | undefined {
  const bin = pgBin()
  if (!bin) return 'PostgreSQL is not installed (initdb not found; apt-get install postgresql-15-postgis-3)'
  const share = execFileSync(path.join(bin, 'pg_config'), ['--sharedir']).toString().trim()
  if (!existsSync(path.join(share, 'extension', 'postgis.control')))
    return 'PostGIS is not installed (apt-get install postgresql-15-postgis-3)'
  return undefined
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port
      server.close(() => resolve(port))
    })
  })
}

export async function startTestCluster(): Promise<TestCluster> {
  const bin = pgBin()
  if (!bin) throw new Error(postgresMissing())
  const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-analyst-pg-'))
  const data = path.join(dir, 'data')
  const asRoot = process.getuid?.() === 0
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args]]
      : [path.join(bin, cmd), args]
    const r = spawnSync(file, argv, { stdio: 'pipe' })
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr.toString()}`)
  }
  const user = 'geo_super'
  const password = `pw-${Math.random().toString(36).slice(2)}`
  writeFileSync(path.join(dir, 'pw'), password)
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString())
    chownSync(dir, id('-u'), id('-g'))
    chownSync(path.join(dir, 'pw'), id('-u'), id('-g'))
  }
  run('initdb', [
    '-D',
    data,
    '-U',
    user,
    `--pwfile=${path.join(dir, 'pw')}`,
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
  ])
  let port = 0
  const start = () =>
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      path.join(dir, 'log'),
      '-w',
      '-o',
      `-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories='${dir}' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c jit=off`,
      'start',
    ])
  for (let attempt = 0; ; attempt++) {
    port = await freePort()
    try {
      start()
      break
    } catch (error) {
      if (attempt >= 2) {
        rmSync(dir, { recursive: true, force: true })
        throw error
      }
    }
  }
  // A run stopped without `stop()` (a crash, an exception in a setup) must not leave a server behind.
  const stopOnExit = () => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
    } catch {
      // already stopped
    }
    rmSync(dir, { recursive: true, force: true })
  }
  process.once('exit', stopOnExit)
  const clients: pg.Client[] = []
  const connect = async (database: string) => {
    const client = new pg.Client({ host: '127.0.0.1', port, user, password, database })
    // A test that stops the server (halt) must not end the run through these clients.
    client.on('error', () => undefined)
    await client.connect()
    clients.push(client)
    return client
  }
  const admin = await connect('postgres')
  return {
    host: '127.0.0.1',
    port,
    user,
    password,
    admin,
    connect,
    async query(database, text, values = []) {
      const client = new pg.Client({ host: '127.0.0.1', port, user, password, database })
      client.on('error', () => undefined)
      await client.connect()
      try {
        return (await client.query(text, values)).rows
      } finally {
        await client.end()
      }
    },
    uri: (database, query, who = user) =>
      `postgresql://${encodeURIComponent(who)}@127.0.0.1:${port}/${encodeURIComponent(database)}${query ? `?${query}` : ''}`,
    halt() {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
    },
    resume() {
      start()
    },
    async stop() {
      process.off('exit', stopOnExit)
      await Promise.all(clients.map((c) => c.end().catch(() => undefined)))
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
      } catch {
        // already halted
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}

/**
 * A small workspace for joins and their faults (schema `work`): 100 points, one zone over them all, and
 * `sleepy`, a view whose statement takes 30 s (for cancels, time limits and queues).
 */
export const SLOW_JOIN_WORKSPACE_SQL = `
  CREATE EXTENSION postgis;
  CREATE SCHEMA work;
  CREATE TABLE work.places (id int, geom geometry(Point, 4326));
  INSERT INTO work.places SELECT i, ST_SetSRID(ST_MakePoint(i % 10 + 0.5, 1), 4326) FROM generate_series(0, 99) i;
  CREATE TABLE work.zones (zone text, geom geometry(Polygon, 4326));
  INSERT INTO work.zones VALUES ('all', ST_MakeEnvelope(0, 0, 10, 10, 4326));
  CREATE VIEW work.sleepy AS SELECT id, geom FROM work.places WHERE (SELECT pg_sleep(30)) IS NULL;
  ANALYZE;
`

/**
 * Load features into a new table `"schema"."table"` (`columns`: each property's SQL type, in order; the
 * geometry goes in `geom geometry(Geometry, 4326)`), with a GiST index, analysed. Values are parameters.
 */
export async function loadFeatures(
  client: pg.Client,
  schema: string,
  table: string,
  columns: Record<string, string>,
  features: readonly { geometry: unknown; properties: Record<string, unknown> }[],
): Promise<void> {
  const q = (name: string) => `"${name.replaceAll('"', '""')}"`
  const names = Object.keys(columns)
  const target = `${q(schema)}.${q(table)}`
  await client.query(
    `CREATE TABLE ${target} (${names.map((n) => `${q(n)} ${columns[n]}`).join(', ')}${names.length ? ', ' : ''}geom geometry(Geometry, 4326))`,
  )
  for (const f of features) {
    const values = names.map((n) => {
      const v = f.properties[n]
      return v !== null && typeof v === 'object' ? JSON.stringify(v) : (v ?? null)
    })
    await client.query(
      `INSERT INTO ${target} VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}${names.length ? ', ' : ''}ST_SetSRID(ST_GeomFromGeoJSON($${names.length + 1}), 4326))`,
      [...values, f.geometry ? JSON.stringify(f.geometry) : null],
    )
  }
  await client.query(`CREATE INDEX ON ${target} USING gist (geom)`)
  await client.query(`ANALYZE ${target}`)
}
