import { execFileSync, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import type { DatasetFeature } from '../electron/local-service/workspace/features'
import { toWkt } from './join-data'

/** A throw-away PostgreSQL + PostGIS cluster in a temp folder, reached over a unix socket only. */
export interface Cluster {
  client: pg.Client
  stop(): Promise<void>
}

function pgBin(): string | undefined {
  const base = '/usr/lib/postgresql'
  if (!existsSync(base)) return undefined
  const versions = readdirSync(base).sort((a, b) => Number(b) - Number(a))
  for (const v of versions) {
    const bin = path.join(base, v, 'bin')
    if (existsSync(path.join(bin, 'initdb'))) return bin
  }
  return undefined
}

export function postgisAvailable(): string | undefined {
  const bin = pgBin()
  if (!bin) return 'PostgreSQL is not installed (apt-get install postgresql postgresql-15-postgis-3)'
  const share = execFileSync(path.join(bin, 'pg_config'), ['--sharedir']).toString().trim()
  if (!existsSync(path.join(share, 'extension', 'postgis.control'))) return 'PostGIS is not installed'
  return undefined
}

export async function startCluster(): Promise<Cluster> {
  const bin = pgBin()!
  const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-bench-pg-'))
  const data = path.join(dir, 'data')
  // initdb refuses to run as root: run the server as the postgres user then.
  const asRoot = process.getuid?.() === 0
  const run = (cmd: string, args: string[]) => {
    const full = asRoot
      ? ['runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args]]
      : [path.join(bin, cmd), args]
    const r = spawnSync(full[0] as string, full[1] as string[], { stdio: 'pipe' })
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr.toString()}`)
  }
  if (asRoot)
    chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres']).toString()),
      Number(execFileSync('id', ['-g', 'postgres']).toString()),
    )
  run('initdb', ['-D', data, '-U', 'bench', '--auth=trust', '-E', 'UTF8'])
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    path.join(dir, 'log'),
    '-w',
    '-o',
    `-c listen_addresses='' -c unix_socket_directories='${dir}' -c shared_buffers=256MB -c work_mem=64MB -c max_parallel_workers_per_gather=0 -c jit=off -c fsync=off -c synchronous_commit=off -c full_page_writes=off`,
    'start',
  ])
  const client = new pg.Client({ host: dir, user: 'bench', database: 'postgres' })
  await client.connect()
  await client.query('CREATE EXTENSION postgis')
  return {
    client,
    async stop() {
      await client.end().catch(() => undefined)
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop'])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}

/** Load a feature list as table(id int, geom geometry(…, 4326)) with a GiST index (and a geography one when asked). */
export async function loadTable(
  client: pg.Client,
  name: string,
  features: readonly DatasetFeature[],
  options: { geographyIndex?: boolean } = {},
): Promise<void> {
  await client.query(`CREATE TABLE ${name} (id integer PRIMARY KEY, geom geometry(Geometry, 4326) NOT NULL)`)
  const batch = 5000
  for (let i = 0; i < features.length; i += batch) {
    const slice = features.slice(i, i + batch)
    await client.query(
      `INSERT INTO ${name} (id, geom) SELECT id, ST_GeomFromText(wkt, 4326) FROM unnest($1::int[], $2::text[]) AS t(id, wkt)`,
      [slice.map((f) => f.properties.id as number), slice.map((f) => toWkt(f.geometry))],
    )
  }
  await client.query(`CREATE INDEX ${name}_gix ON ${name} USING gist (geom)`)
  if (options.geographyIndex)
    await client.query(`CREATE INDEX ${name}_ggix ON ${name} USING gist ((geom::geography))`)
  await client.query(`VACUUM ANALYZE ${name}`)
}
