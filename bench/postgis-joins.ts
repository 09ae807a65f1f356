/**
 * `npm run bench:postgis` (second part): the join suite of `bench/join-bench.ts` through the local service
 * over a PostGIS workspace, beside the same statement run directly by `psql` (PREPARE once, EXECUTE timed
 * with \timing; its rows fetched whole into psql as libpq does), medians and their ratio (issue 31: ≤ 1.15×),
 * and the rows compared; then a 1,000,000-row result streamed through the service while its process's RSS
 * is sampled (issue 31: growth < 100 MiB), for several cursor batch sizes (decision 030).
 * `--runs N` (default 9), `--scale F` (data size, default 1: 200,000 points, 20,000 polygons, 700
 * districts), `--big N` (rows of the streaming leg, default 1,000,000).
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Geometry } from 'geojson'
import pg from 'pg'
import type { JoinParams } from '../electron/contract/gis/join-params'
import { checkWorkspace } from '../electron/local-service/postgis/catalog'
import { buildJoinStatement } from '../electron/local-service/postgis/join-sql'
import { resolveDatasets } from '../electron/local-service/postgis/resolve'
import { districts, drawnStar, mulberry32, points, smallPolygons, wholeBox } from './join-data'
import { loadTable } from './postgis'
import { postgresMissing, startTestCluster, type TestCluster } from '../test/support/postgres'

const argv = process.argv.slice(2)
const option = (name: string, fallback: number) => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? Number(argv[i + 1]) : fallback
}
const RUNS = option('runs', 9)
const SCALE = option('scale', 1)
const BIG = option('big', 1_000_000)
const TOKEN = 'bench-token'
const ROW_CAP = 2_000_000

interface Query {
  name: string
  params: Record<string, string | number | boolean>
  user?: Geometry
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}

/** The suite of `bench/join-bench.ts`, as requests. */
function suite(): Query[] {
  const star = drawnStar()
  const box = wholeBox()
  const base = { sourceProperty: 'geom', selectionParamSource: 'id' }
  const user = { ...base, queryType: 'spatialOperation', userGeom: true }
  return [
    {
      name: 'points Within star',
      params: { ...user, datasetSource: 'points', operator: 'Within' },
      user: star,
    },
    {
      name: 'polygons Intersects star',
      params: { ...user, datasetSource: 'polys', operator: 'Intersects' },
      user: star,
    },
    {
      name: 'polygons Overlaps star',
      params: { ...user, datasetSource: 'polys', operator: 'Overlaps' },
      user: star,
    },
    {
      name: 'points DWithin 5 km of star',
      params: { ...user, datasetSource: 'points', operator: 'DWithin', distance: 5000 },
      user: star,
    },
    {
      name: 'districts x points Intersects',
      params: {
        ...base,
        queryType: 'spatialOperation',
        datasetSource: 'points',
        datasetRef: 'districts',
        operator: 'Intersects',
        selectionParamRef: 'id',
      },
    },
    {
      name: 'districts x points, reversed',
      params: {
        ...base,
        queryType: 'spatialOperation',
        datasetSource: 'districts',
        datasetRef: 'points',
        operator: 'Intersects',
        selectionParamRef: 'id',
      },
    },
    {
      name: 'polygons Area > 5e7 m2',
      params: {
        ...user,
        queryType: 'functionBased',
        datasetSource: 'polys',
        operator: 'Intersects',
        comparisonFunction: 'Area',
        comparisonOperator: '>',
        comparisonValue: 5e7,
      },
      user: box,
    },
    {
      name: 'polygons Area > 5e7 m2, alone',
      params: {
        ...base,
        queryType: 'functionBased',
        datasetSource: 'polys',
        operator: 'Intersects',
        comparisonFunction: 'Area',
        comparisonOperator: '>',
        comparisonValue: 5e7,
      },
    },
  ]
}

/**
 * The client's connection, kept alive as psql keeps its own: node:http, not `fetch`, whose own work (its
 * streams) added about a millisecond a request here (7.7 ms against 8.8 ms for the same 5 ms join,
 * 2026-11-28) — the client's cost, not the service's.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })

/** One request through the service; the body read whole, its rows as sorted "prop1|prop2" texts when asked. */
async function request(
  urls: Record<string, string>,
  q: Query,
  rows = false,
): Promise<{ ms: number; rows?: string[]; status: number }> {
  const query = new URLSearchParams(Object.entries(q.params).map(([k, v]) => [k, String(v)]))
  const url = new URL(`${urls.mgis_url}/query_apply/join?${query}`)
  const body = q.user
    ? Buffer.from(
        JSON.stringify({
          type: 'FeatureCollection',
          features: [{ type: 'Feature', properties: {}, geometry: q.user }],
        }),
      )
    : Buffer.alloc(0)
  const t0 = performance.now()
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${TOKEN}`,
          'content-type': 'application/json',
          'content-length': body.byteLength,
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
  const ms = performance.now() - t0
  if (!rows) return { ms, status }
  const parsed = JSON.parse(text) as { result?: Record<string, string>[] }
  return {
    ms,
    status,
    rows: (parsed.result ?? []).map((r) => Object.values(r).join('|')).sort(),
  }
}

/** A value as an SQL literal for psql's EXECUTE (the statement's own casts type it). */
function literal(v: unknown): string {
  if (Array.isArray(v)) return `ARRAY[${v.map(literal).join(', ')}]::text[]`
  if (typeof v === 'number' || typeof v === 'boolean') return `'${String(v)}'`
  return `'${String(v).replaceAll("'", "''")}'`
}

/**
 * A psql of its own with the statement PREPAREd: `execute()` runs it once and resolves with psql's
 * \timing of it (the rows fetched whole into psql, not printed); `rows()` its rows once, sorted.
 */
function psqlSession(cluster: TestCluster, text: string, values: unknown[]) {
  const env = { ...process.env, PGPASSWORD: cluster.password }
  const args = [
    '-h',
    cluster.host,
    '-p',
    String(cluster.port),
    '-U',
    cluster.user,
    '-d',
    'gis',
    '-X',
    '-q',
    '-A',
    '-t',
    '-F',
    '|',
  ]
  const exec = `EXECUTE q(${values.map(literal).join(', ')});`
  const prepare = `PREPARE q AS ${text};`
  const child = spawn('psql', args, { env, stdio: ['pipe', 'pipe', 'inherit'] })
  child.stdin.write(`${prepare}\n\\o /dev/null\n\\timing on\n`)
  let out = ''
  let waiting: ((ms: number) => void) | undefined
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString()
    const m = /Time: ([\d.]+) ms/.exec(out)
    if (m && waiting) {
      out = out.slice(m.index + m[0].length)
      const done = waiting
      waiting = undefined
      done(Number(m[1]))
    }
  })
  return {
    execute: () =>
      new Promise<number>((resolve) => {
        waiting = resolve
        child.stdin.write(`${exec}\n`)
      }),
    rows: () => {
      const r = spawnSync('psql', args, { env, input: `${prepare}\n${exec}\n`, maxBuffer: 1 << 30 })
      return r.stdout
        .toString()
        .split('\n')
        .filter((l) => l !== '')
        .sort()
    },
    close: () => child.stdin.end(),
  }
}

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Number(m[1]) / 1024 : NaN
}

async function startService(
  uri: string,
  password: string,
): Promise<{ child: ChildProcess; urls: Record<string, string> }> {
  const child = fork(
    path.join(path.dirname(fileURLToPath(import.meta.url)), 'postgis-serve.ts'),
    [uri, String(ROW_CAP)],
    {
      execArgv: [
        '--import',
        'tsx',
        // BENCH_CPU_PROF=DIR: the service's CPU profile, written to DIR as it stops.
        ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : []),
      ],
      env: { ...process.env, PGPASSWORD: password },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  )
  const urls = await new Promise<Record<string, string>>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { urls: Record<string, string> }).urls))
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}`)))
  })
  return { child, urls }
}

async function main(): Promise<void> {
  const missing = postgresMissing()
  if (missing) {
    console.log(`bench:postgis joins skipped: ${missing}`)
    return
  }
  const cluster = await startTestCluster()
  let service: { child: ChildProcess; urls: Record<string, string> } | undefined
  try {
    await cluster.admin.query('CREATE DATABASE gis')
    const db = await cluster.connect('gis')
    await db.query('CREATE EXTENSION postgis')
    const t0 = performance.now()
    const random = mulberry32(20260101)
    await loadTable(db as unknown as pg.Client, 'points', points(Math.round(200_000 * SCALE), random))
    await loadTable(db as unknown as pg.Client, 'polys', smallPolygons(Math.round(20_000 * SCALE), random))
    await loadTable(db as unknown as pg.Client, 'districts', districts())
    // The streaming leg's table: BIG points inside one square degree.
    await db.query(`CREATE TABLE big AS SELECT i AS id, ST_SetSRID(ST_MakePoint(80 + (i % 1000) / 1000.0, 20 + (i / 1000 % 1000) / 1000.0), 4326) AS geom
                      FROM generate_series(0, ${BIG - 1}) i`)
    await db.query('CREATE INDEX ON big USING gist (geom)')
    await db.query('VACUUM ANALYZE big')
    console.log(`data loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`)

    const uri = cluster.uri('gis', 'schema=public')
    service = await startService(uri, cluster.password)
    const check = await checkWorkspace(db, ['public'])
    console.log(
      `date ${new Date().toISOString()}, load average ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}, ${RUNS} runs`,
    )
    console.log('query                              rows   service ms   psql ms   ratio  rows identical')
    const ratios: number[] = []
    let identical = true
    for (const q of argv.includes('--no-suite') ? [] : suite()) {
      const names = [
        q.params.datasetSource as string,
        ...(q.params.datasetRef ? [q.params.datasetRef as string] : []),
      ]
      const [source, ref] = await resolveDatasets(db, check, ['public'], names)
      const stmt = buildJoinStatement(
        q.params as unknown as JoinParams,
        source!,
        ref,
        q.user ? [{ type: 'Feature', properties: {}, geometry: q.user }] : undefined,
        ROW_CAP + 1,
      )
      // Untimed runs first (the service's JIT, the server's caches), then timed pairs — the service and psql
      // one after the other, in alternating order — so both meet the same load; the ratio is the median
      // of the pairs' own ratios.
      const psql = psqlSession(cluster, stmt.text, stmt.values)
      for (let i = 0; i < 3; i++) {
        await request(service.urls, q)
        await psql.execute()
      }
      const times: number[] = []
      const direct: number[] = []
      const pairs: number[] = []
      for (let i = 0; i < RUNS; i++) {
        let a: number
        let b: number
        if (i % 2 === 0) {
          a = (await request(service.urls, q)).ms
          b = await psql.execute()
        } else {
          b = await psql.execute()
          a = (await request(service.urls, q)).ms
        }
        times.push(a)
        direct.push(b)
        pairs.push(a / b)
      }
      psql.close()
      const served = await request(service.urls, q, true)
      const directRows = psql.rows()
      const same =
        served.rows!.length === directRows.length && served.rows!.every((r, i) => r === directRows[i])
      identical &&= same
      const ratio = median(pairs)
      ratios.push(ratio)
      console.log(
        `${q.name.padEnd(32)} ${String(served.rows!.length).padStart(7)} ${median(times).toFixed(1).padStart(11)} ${median(direct).toFixed(1).padStart(9)} ${ratio.toFixed(2).padStart(7)}  ${same ? 'yes' : 'NO'}`,
      )
    }
    const worst = ratios.length ? Math.max(...ratios) : 0
    if (ratios.length)
      console.log(`worst ratio ${worst.toFixed(2)} (aim ≤ 1.15), median ratio ${median(ratios).toFixed(2)}`)

    // The streaming leg: BIG rows through the service, its RSS sampled every 20 ms, per batch size.
    const big: Query = {
      name: 'big Within box',
      params: {
        queryType: 'spatialOperation',
        datasetSource: 'big',
        operator: 'Within',
        sourceProperty: 'geom',
        selectionParamSource: 'id,geom',
        userGeom: true,
      },
      user: {
        type: 'Polygon',
        coordinates: [
          [
            [79, 19],
            [82, 19],
            [82, 22],
            [79, 22],
            [79, 19],
          ],
        ],
      },
    }
    console.log(`\n${BIG.toLocaleString('en')} rows (id, geom as WKT) streamed through the service:`)
    console.log('batch rows   seconds   rows/s     body MiB   service RSS before → peak (growth) MiB')
    let worstGrowth = 0
    // Each batch size with the first way's bound as shipped (16 MiB held, then the temporary table), and
    // 5,000 rows with the second way from the start (GEO_ANALYST_PG_BUFFER_BYTES=0).
    const legs = [
      { batch: 1000, held: '' },
      { batch: 5000, held: '' },
      { batch: 20000, held: '' },
      { batch: 5000, held: '0' },
    ]
    for (const { batch, held } of legs) {
      process.env.GEO_ANALYST_PG_BUFFER_BYTES = held
      service.child.disconnect()
      await new Promise((r) => service!.child.once('exit', r))
      process.env.GEO_ANALYST_PG_FETCH_ROWS = String(batch)
      service = await startService(uri, cluster.password)
      await request(service.urls, suite()[4]!)
      const pid = service.child.pid!
      const before = rssMiB(pid)
      let peak = before
      const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 20)
      const query = new URLSearchParams(Object.entries(big.params).map(([k, v]) => [k, String(v)]))
      const t1 = performance.now()
      const response = await fetch(`${service.urls.mgis_url}/query_apply/join?${query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'FeatureCollection',
          features: [{ type: 'Feature', properties: {}, geometry: big.user }],
        }),
      })
      if (response.status >= 300) {
        clearInterval(timer)
        console.log(`status ${response.status}: ${(await response.text()).slice(0, 300)}`)
        process.exitCode = 1
        continue
      }
      let bytes = 0
      const reader = response.body!.getReader()
      for (let part = await reader.read(); !part.done; part = await reader.read())
        bytes += part.value.byteLength
      const seconds = (performance.now() - t1) / 1000
      clearInterval(timer)
      peak = Math.max(peak, rssMiB(pid))
      worstGrowth = Math.max(worstGrowth, peak - before)
      console.log(
        `${String(batch).padStart(10)}${held === '0' ? ' (2nd way only)' : ''} ${seconds.toFixed(2).padStart(9)} ${Math.round(
          BIG / seconds,
        )
          .toLocaleString('en')
          .padStart(
            9,
          )} ${(bytes / 2 ** 20).toFixed(1).padStart(10)}   ${before.toFixed(0)} → ${peak.toFixed(0)} (+${(peak - before).toFixed(1)})   status ${response.status}`,
      )
    }
    delete process.env.GEO_ANALYST_PG_FETCH_ROWS
    delete process.env.GEO_ANALYST_PG_BUFFER_BYTES
    const pass = identical && worst <= 1.15 && worstGrowth < 100
    console.log(
      `rows identical: ${identical ? 'yes' : 'NO'}; worst ratio ${worst.toFixed(2)} (≤ 1.15); RSS growth ${worstGrowth.toFixed(1)} MiB (< 100): ${pass ? 'PASS' : 'FAIL'}`,
    )
    if (!pass) process.exitCode = 1
  } finally {
    agent.destroy()
    if (service) {
      service.child.disconnect()
      await new Promise((r) => service!.child.once('exit', r))
    }
    await cluster.stop()
  }
}

await main()
