/**
 * `npm run bench:postgis`: the dataset list of a PostGIS workspace with 2,000 tables (issue 31's "done
 * when": ≤ 300 ms, at most 3 catalog statements). A throw-away cluster on 127.0.0.1 (TCP, SCRAM password,
 * `sslmode=prefer` as the CLI's default), 2,000 tables with a geometry column in the workspace schema, 200 in
 * a schema left out. Prints the median and p95 of a cold list (connect, check, list, close: what
 * `geo-analyst datasets --workspace postgresql://…` does) and warm ones (pool reused: after another session
 * changed the catalogs, and with them unchanged, when the last listing is given again), the statements
 * counted by wrapping the client, beside `SELECT … FROM geometry_columns` (PostGIS' own view) and, when
 * the `postgres` package is resolvable, the same catalog statement through it (the driver ADR); then the
 * built command itself, `geo-analyst datasets --workspace postgresql://…`, a process each run (decision 037),
 * beside `geo-analyst --help`. PASS needs the cold list and the command within 300 ms (medians).
 */
import { spawnSync } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Queryable } from '../electron/local-service/postgis/catalog'
import { PostgisWorkspace } from '../electron/local-service/postgis/workspace'
import { postgresMissing, startTestCluster } from '../test/support/postgres'
import { ensureBuilt } from '../scripts/ensure-built.mjs'

const TABLES = 2000
const CLI = path.join(import.meta.dirname, '..', 'out', 'cli', 'geo-analyst.mjs')
const RUNS = Number(process.env.BENCH_RUNS ?? 15)

function stats(ms: number[]): { median: number; p95: number } {
  const s = [...ms].sort((a, b) => a - b)
  return {
    median: s[Math.floor(s.length / 2)]!,
    p95: s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)]!,
  }
}
const fmt = (x: number) => x.toFixed(1).padStart(7)

async function main(): Promise<void> {
  const missing = postgresMissing()
  if (missing) {
    console.log(`bench:postgis skipped: ${missing}`)
    return
  }
  const cluster = await startTestCluster()
  try {
    await cluster.admin.query('CREATE DATABASE gis')
    const db = await cluster.connect('gis')
    await db.query('CREATE EXTENSION postgis; CREATE SCHEMA work; CREATE SCHEMA elsewhere')
    await db.query(`
      DO $do$ BEGIN
        FOR i IN 1..${TABLES} LOOP
          EXECUTE format('CREATE TABLE work.%I (id int PRIMARY KEY, name text, value double precision,
                          geom geometry(Point, 4326))', 'layer_' || i);
          IF i % 10 = 0 THEN
            EXECUTE format('INSERT INTO work.%I SELECT g, ''n'', g, ST_SetSRID(ST_MakePoint(g %% 90, g %% 45), 4326)
                            FROM generate_series(1, 50) g', 'layer_' || i);
          END IF;
        END LOOP;
        FOR i IN 1..200 LOOP
          EXECUTE format('CREATE TABLE elsewhere.%I (geom geometry(Point, 4326))', 'hidden_' || i);
        END LOOP;
      END $do$`)
    await db.query('ANALYZE')
    const env = { PGPASSWORD: cluster.password }
    const uri = cluster.uri('gis', 'schema=work')

    let statements = 0
    const counting = (inner: Queryable): Queryable => ({
      query: (text, values) => {
        statements++
        return inner.query(text, values)
      },
    })
    // Warm-up: the server's catalog caches, the JIT of this process.
    for (let i = 0; i < 3; i++) {
      const ws = PostgisWorkspace.fromUri(uri, { env })
      await ws.list()
      await ws.close()
    }

    const cold: number[] = []
    let listed = 0
    let perList = 0
    for (let i = 0; i < RUNS; i++) {
      statements = 0
      const t0 = performance.now()
      const ws = PostgisWorkspace.fromUri(uri, { env, wrap: counting })
      const list = await ws.list()
      await ws.close()
      cold.push(performance.now() - t0)
      listed = list.length
      perList = statements
    }
    // Warm (pool reused): the catalogs unchanged since the last list (its listing given again, decision
    // 035), and changed just before (a table made in the schema by another session: listed afresh).
    const reused: number[] = []
    const warm: number[] = []
    const ws = PostgisWorkspace.fromUri(uri, { env, wrap: counting })
    await ws.list()
    let perReuse = 0
    for (let i = 0; i < RUNS; i++) {
      statements = 0
      let t0 = performance.now()
      await ws.list()
      reused.push(performance.now() - t0)
      perReuse = statements
      await db.query(`CREATE TABLE work.churn_${i} (id int)`)
      t0 = performance.now()
      await ws.list()
      warm.push(performance.now() - t0)
    }
    await ws.close()

    const view: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now()
      await db.query(`SELECT * FROM geometry_columns WHERE f_table_schema = ANY($1::text[])`, [['work']])
      view.push(performance.now() - t0)
    }

    const c = stats(cold)
    const w = stats(warm)
    const r = stats(reused)
    const v = stats(view)
    console.log(
      `date ${new Date().toISOString()}, load average ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    )
    console.log(`${TABLES} tables in the workspace schema, 200 in a schema left out; ${RUNS} runs each`)
    console.log(`listed ${listed} datasets with ${perList} catalog statements per list (limit 3)`)
    console.log(`                                   median      p95   (ms)`)
    console.log(`cold: connect + check + list  ${fmt(c.median)}  ${fmt(c.p95)}   (limit 300)`)
    console.log(`warm: check + list            ${fmt(w.median)}  ${fmt(w.p95)}   (catalogs changed)`)
    console.log(
      `warm: check, listing reused   ${fmt(r.median)}  ${fmt(r.p95)}   (catalogs unchanged: ${perReuse} statement)`,
    )
    console.log(
      `geometry_columns view alone   ${fmt(v.median)}  ${fmt(v.p95)}   (no fields, counts, extents)`,
    )
    await compareDriver(cluster.port, cluster.user, cluster.password, db)

    // The command itself, as a person runs it: the built `geo-analyst datasets` in a process of its own
    // (Node's start, the CLI's chunks, connect, check, list, the table printed), RUNS times.
    ensureBuilt()
    const command: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now()
      const run = spawnSync(process.execPath, [CLI, 'datasets', '--workspace', uri], {
        env: { ...process.env, ...env },
        maxBuffer: 1 << 28,
      })
      command.push(performance.now() - t0)
      if (run.status !== 0) throw new Error(`geo-analyst datasets exited ${run.status}: ${run.stderr}`)
    }
    const help: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now()
      spawnSync(process.execPath, [CLI, '--help'])
      help.push(performance.now() - t0)
    }
    const k = stats(command)
    const h = stats(help)
    console.log(
      `geo-analyst datasets --workspace …  ${fmt(k.median)}  ${fmt(k.p95)}   (built, a process each; limit 300)`,
    )
    console.log(
      `geo-analyst --help                  ${fmt(h.median)}  ${fmt(h.p95)}   (Node's start and the CLI's alone)`,
    )
    const pass = c.median <= 300 && k.median <= 300 && perList <= 3 && listed === TABLES
    console.log(pass ? 'PASS' : 'FAIL')
    if (!pass) process.exitCode = 1
  } finally {
    await cluster.stop()
  }
}

/**
 * The same catalog statements (check and full listing) through the `postgres` package, when it is installed
 * (not a dependency), beside node-postgres on a connection of its own.
 */
async function compareDriver(
  port: number,
  user: string,
  password: string,
  pgClient: Queryable,
): Promise<void> {
  let postgres: (options: Record<string, unknown>) => {
    unsafe(text: string, values?: unknown[]): Promise<unknown[]>
    end(): Promise<void>
  }
  try {
    // POSTGRES_JS_DIR: a folder where `npm install postgres` was run, to compare without adding it here.
    const from = process.env.POSTGRES_JS_DIR
    const name = from ? pathToFileURL(path.join(from, 'node_modules/postgres/src/index.js')).href : 'postgres'
    postgres = ((await import(name)) as { default: typeof postgres }).default
  } catch {
    console.log('postgres (porsager) driver: not installed here, comparison skipped')
    return
  }
  const sql = postgres({ host: '127.0.0.1', port, user, password, database: 'gis', ssl: false, max: 1 })
  const porsager: Queryable = {
    query: async (text, values) => ({ rows: (await sql.unsafe(text, values)) as Record<string, unknown>[] }),
  }
  const { listDatasets } = await import('../electron/local-service/postgis/catalog')
  const timed = async (db: Queryable) => {
    await listDatasets(db, ['work'])
    const times: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now()
      await listDatasets(db, ['work'])
      times.push(performance.now() - t0)
    }
    return stats(times)
  }
  const viaPg = await timed(pgClient)
  const p = await timed(porsager)
  await sql.end()
  console.log(`full check + list via pg          ${fmt(viaPg.median)}  ${fmt(viaPg.p95)}`)
  console.log(
    `full check + list via postgres    ${fmt(p.median)}  ${fmt(p.p95)}   ratio to pg ${(p.median / viaPg.median).toFixed(2)}`,
  )
}

await main()
