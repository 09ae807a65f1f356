/**
 * Join benchmark (a benchmark, not a test): `npm run bench:join [-- --postgis] [-- --runs N] [-- --scale F]`
 * (`--trace` also prints every run's time, engine and http; `--only TEXT` runs the queries whose name holds TEXT;
 * `--no-core` skips the core leg, `bench/join-core.ts`: the core's gis.join with 200k- and 1M-row results;
 * `--no-results` the results leg, `bench/join-results.ts`: Run join → map and table in Chromium; `--turns N`
 * the least number of pairs the argument orders are timed in, 16: see `ratioInTurns`).
 *
 * Generates a deterministic data set (seeded PRNG): 200,000 points and 20,000 small 6–12-vertex polygons
 * over lon 68–97, lat 8–37; 700 district-like 200-vertex polygons tiling that box; one 40-vertex star
 * covering about 5 % of it. Times each query engine-only (in this thread) and end to end over HTTP (local
 * service on 127.0.0.1), prints medians, features per second and peak memory; with --postgis it loads the
 * same data into a throw-away PostgreSQL/PostGIS cluster with GiST indexes, runs the same queries, prints the
 * ratios side by side and checks that the results are identical.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import type { Polygon } from 'geojson'
import type { JoinParams } from '../electron/contract/gis/join-params'
import { JoinBodyChecker } from '../shared/rows/join-body'
import { RowTable } from '../shared/rows/row-table'
import { loadGeos } from '../electron/local-service/engine/geos'
import { runJoin, tableFromFeatures, type FeatureTable } from '../electron/local-service/gis/engine/join'
import { PairList } from '../electron/local-service/gis/engine/pair-list'
import type { DatasetFeature } from '../electron/local-service/workspace/features'
import { Workspace } from '../electron/local-service/workspace/workspace'
import { districts, drawnStar, mulberry32, points, smallPolygons, toWkt, wholeBox } from './join-data'
import { printCoreLegs, processCpuMs, runCoreLegs, serviceProcess } from './join-core'
import { loadTable, postgisAvailable, startCluster, type Cluster } from './postgis'

const argv = process.argv.slice(2)
const flag = (name: string) => argv.includes(`--${name}`)
const option = (name: string, fallback: number) => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? Number(argv[i + 1]) : fallback
}
const RUNS = option('runs', 5)
/**
 * Untimed runs of each query before its timed ones, by the same rule for the engine, HTTP and PostGIS: at
 * least `--warmup` runs (10) and at least `--warmup-ms` of them (1,500 ms), as time-based harnesses (JMH,
 * tinybench) warm up. A fresh service worker's JIT takes 40–60 requests of a 2 ms query to reach its
 * steady speed (measured: "polygons Intersects star" 31 → 17 → 9 → 7 ms over its first 60 runs, 3–4 ms
 * from the 100th), so ten runs measured the JIT's tier-up rather than the query. PostGIS warms its caches the
 * same way. The figures are the steady state; the first run of each query over HTTP is printed beside them
 * ("http 1st ms": the service's cold read of the dataset and its unoptimised code).
 */
const WARMUP = option('warmup', 10)
const WARMUP_MS = option('warmup-ms', 1500)
/** Timed runs go on past `RUNS` until `--min-ms` (500 ms) of them have passed: a 4 ms query gets a median of ~100. */
const MIN_MS = option('min-ms', 500)
/** A full collection between legs, when node runs with --expose-gc (as `npm run bench:join` does). */
const settle = () => (globalThis as { gc?: () => void }).gc?.()
const SCALE = option('scale', 1)
const TOKEN = 'bench-token'

interface Query {
  name: string
  params: JoinParams
  /** The user geometry, when the query uses one. */
  user?: Polygon
  /** Same query in SQL; returns rows (sid[, rid]) sorted. */
  sql: string
  /** Features the query reads (for features per second). */
  reads: number
  /** The query whose arguments this one swaps: its rows must be the same pairs, the other way round. */
  reverseOf?: string
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}

/**
 * Time `run` by the bench's rule: untimed runs until both `WARMUP` runs and `WARMUP_MS` have passed, then
 * timed ones until both `RUNS` runs and `MIN_MS` have passed. `first` is the time of the very first run.
 */
async function timeRuns(run: () => unknown): Promise<{ times: number[]; first: number }> {
  let first = NaN
  const warmStart = performance.now()
  for (let i = 0; i < WARMUP || performance.now() - warmStart < WARMUP_MS; i++) {
    const start = performance.now()
    await run()
    if (i === 0) first = performance.now() - start
  }
  const times: number[] = []
  const timedStart = performance.now()
  for (let i = 0; i < RUNS || performance.now() - timedStart < MIN_MS; i++) {
    const start = performance.now()
    await run()
    times.push(performance.now() - start)
  }
  return { times, first }
}

/** Pairs the argument orders are timed in, at least (`--turns`): an even number, each order first in half. */
const TURNS = option('turns', 16)

/** Two runs timed in turns (`ratioInTurns`): b against a. */
interface Turns {
  /** The median of the pairs' own ratios, b's time over a's. */
  ratio: number
  /** The pairs' ratios' quartiles: how far the machine moved single pairs. */
  low: number
  high: number
  pairs: number
  /** Median times, ms. */
  a: number
  b: number
  /** The service's CPU time per run of each, ms (HTTP, where /proc can be read). */
  cpuA?: number
  cpuB?: number
}

/**
 * b's time against a's, timed in turns so that both see the same moments of the machine: after two untimed
 * pairs, pairs in the order a b, b a, a b, … (neither always runs first, right after the other's garbage or
 * on a thread just woken), until at least `TURNS` pairs and twice `MIN_MS` have passed, an even number of
 * them. The ratio is the median of the pairs' own ratios: a burst of other work on the two cores lands on
 * one pair, which the median leaves out, where a ratio of two medians of times taken apart moves with it
 * (timed leg after leg, the argument orders' ratio through HTTP went from 0.59 to 1.27 in one evening; in
 * turns a b, a b, … with the ratio of the medians, 0.41 to 1.25 in one morning's runs under load: decision
 * decision 029). `cpu` reads the service's CPU time (ms), read between runs: its work per run of each order.
 */
async function ratioInTurns(
  a: () => unknown,
  b: () => unknown,
  cpu?: () => number | undefined,
): Promise<Turns> {
  const ta: number[] = []
  const tb: number[] = []
  let cpuA = 0
  let cpuB = 0
  let cpuRead = cpu?.() !== undefined
  const timed = async (run: () => unknown): Promise<[number, number]> => {
    const c0 = cpuRead ? cpu!() : undefined
    const t = performance.now()
    await run()
    const ms = performance.now() - t
    const c1 = cpuRead ? cpu!() : undefined
    if (c0 === undefined || c1 === undefined) cpuRead = false
    return [ms, cpuRead ? c1! - c0! : 0]
  }
  const start = performance.now()
  for (let i = -2; i < TURNS || performance.now() - start < 2 * MIN_MS || ta.length % 2 === 1; i++) {
    let msA: number, cA: number, msB: number, cB: number
    if (i % 2 === 0) {
      ;[msA, cA] = await timed(a)
      ;[msB, cB] = await timed(b)
    } else {
      ;[msB, cB] = await timed(b)
      ;[msA, cA] = await timed(a)
    }
    if (i < 0) continue
    ta.push(msA)
    tb.push(msB)
    cpuA += cA
    cpuB += cB
  }
  const ratios = ta.map((x, i) => tb[i]! / x).sort((x, y) => x - y)
  const quartile = (q: number) => ratios[Math.min(ratios.length - 1, Math.floor(q * ratios.length))]!
  return {
    ratio: median(ratios),
    low: quartile(0.25),
    high: quartile(0.75),
    pairs: ratios.length,
    a: median(ta),
    b: median(tb),
    ...(cpuRead ? { cpuA: cpuA / ta.length, cpuB: cpuB / tb.length } : {}),
  }
}

const sameRows = (a: string[], b: string[]) => a.length === b.length && a.every((r, i) => r === b[i])

function pairKey(rows: Array<[number, number]>): string[] {
  return rows.map(([s, r]) => (r < 0 ? String(s) : `${s}:${r}`)).sort()
}

async function main() {
  const t0 = performance.now()
  // The features are made again (the same, from the seed) for PostGIS rather than kept: while the legs are
  // timed this process holds none of them (see `counts`).
  const generate = () => {
    const random = mulberry32(20260101)
    return {
      points: points(Math.round(200_000 * SCALE), random),
      polys: smallPolygons(Math.round(20_000 * SCALE), random),
      districts: districts(),
    }
  }
  let generated: ReturnType<typeof generate> | undefined = generate()
  const counts = {
    points: generated.points.length,
    polys: generated.polys.length,
    districts: generated.districts.length,
  }
  const star = drawnStar()
  const box = wholeBox()
  console.log(
    `data: ${counts.points} points, ${counts.polys} small polygons, ${counts.districts} districts, star of ${star.coordinates[0]!.length - 1} vertices (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  )
  const starSql = `ST_GeomFromText('${toWkt(star)}', 4326)`
  const boxSql = `ST_GeomFromText('${toWkt(box)}', 4326)`
  const base = { sourceProperty: 'geom', selectionParamSource: 'id' }
  const queries: Query[] = [
    {
      name: 'points Within star',
      params: {
        ...base,
        queryType: 'spatialOperation',
        datasetSource: 'points',
        operator: 'Within',
        userGeom: true,
      },
      user: star,
      sql: `SELECT id FROM points WHERE ST_Within(geom, ${starSql}) ORDER BY id`,
      reads: counts.points,
    },
    {
      name: 'polygons Intersects star',
      params: {
        ...base,
        queryType: 'spatialOperation',
        datasetSource: 'polys',
        operator: 'Intersects',
        userGeom: true,
      },
      user: star,
      sql: `SELECT id FROM polys WHERE ST_Intersects(geom, ${starSql}) ORDER BY id`,
      reads: counts.polys,
    },
    {
      name: 'polygons Overlaps star',
      params: {
        ...base,
        queryType: 'spatialOperation',
        datasetSource: 'polys',
        operator: 'Overlaps',
        userGeom: true,
      },
      user: star,
      sql: `SELECT id FROM polys WHERE ST_Overlaps(geom, ${starSql}) ORDER BY id`,
      reads: counts.polys,
    },
    {
      name: 'points DWithin 5 km of star',
      params: {
        ...base,
        queryType: 'spatialOperation',
        datasetSource: 'points',
        operator: 'DWithin',
        distance: 5000,
        userGeom: true,
      },
      user: star,
      sql: `SELECT id FROM points WHERE ST_DWithin(geom::geography, ${starSql}::geography, 5000) ORDER BY id`,
      reads: counts.points,
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
      sql: 'SELECT p.id, d.id FROM points p JOIN districts d ON ST_Intersects(p.geom, d.geom) ORDER BY 1, 2',
      reads: counts.points + counts.districts,
    },
    {
      // The same join with the arguments the other way round: the planner must make it as fast.
      name: 'districts x points, reversed',
      params: {
        ...base,
        queryType: 'spatialOperation',
        datasetSource: 'districts',
        datasetRef: 'points',
        operator: 'Intersects',
        selectionParamRef: 'id',
      },
      sql: 'SELECT d.id, p.id FROM districts d JOIN points p ON ST_Intersects(d.geom, p.geom) ORDER BY 1, 2',
      reads: counts.points + counts.districts,
      reverseOf: 'districts x points Intersects',
    },
    {
      name: 'polygons Area > 5e7 m2',
      params: {
        ...base,
        queryType: 'functionBased',
        datasetSource: 'polys',
        operator: 'Intersects',
        userGeom: true,
        comparisonFunction: 'Area',
        comparisonOperator: '>',
        comparisonValue: 5e7,
      },
      user: box,
      sql: `SELECT id FROM polys WHERE ST_Intersects(geom, ${boxSql}) AND ST_Area(geom::geography) > 5e7 ORDER BY id`,
      reads: counts.polys,
    },
    {
      // functionBased on one dataset: no reference, the comparison filters the dataset's own features.
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
      sql: 'SELECT id FROM polys WHERE ST_Area(geom::geography) > 5e7 ORDER BY id',
      reads: counts.polys,
    },
  ]

  // --only TEXT: just the queries whose name holds TEXT (to look at a few closely with --trace).
  const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1]! : undefined
  if (only) queries.splice(0, queries.length, ...queries.filter((q) => q.name.includes(only)))

  // Workspace with the three datasets, as the service stores them.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-bench-'))
  const workspace = new Workspace(dir)
  for (const [name, features] of Object.entries(generated))
    await workspace.create(name, features, { source: 'bench' })
  generated = undefined
  // Engine only, in a function of its own: its tables are garbage before the HTTP and PostGIS legs, and a
  // collection between legs keeps either from timing this process's collection of the one before.
  /** Reversed over forward, timed in turns (`ratioInTurns`), per reversed query. */
  const orders: Record<string, { engine: Turns; http?: Turns }> = {}
  const engine = await (async () => {
    const tables: Record<string, FeatureTable> = {}
    for (const name of Object.keys(counts)) {
      const { manifest, features, index } = await workspace.read(name)
      tables[name] = { name, features, index, fields: manifest.fields.map((f) => f.name) }
    }
    const geos = await loadGeos()
    const idOf = (t: FeatureTable, i: number) => t.features[i]!.properties.id as number

    const engine: Record<string, { ms: number; rows: string[]; run: () => void }> = {}
    for (const q of queries) {
      const source = tables[q.params.datasetSource]!
      let pairs = new PairList()
      const run = () => {
        const ref = q.user
          ? tableFromFeatures('user geometry', [{ geometry: q.user, properties: {} } as DatasetFeature])
          : q.params.datasetRef
            ? tables[q.params.datasetRef]!
            : undefined
        pairs = runJoin(geos, {
          params: q.params,
          source,
          ref,
          refIsUserGeometry: !!q.user,
          rowCap: 10_000_000,
        }).pairs
      }
      const { times } = await timeRuns(run)
      if (flag('trace')) console.log(`engine ${q.name}: ${times.map((t) => t.toFixed(1)).join(' ')} ms`)
      const ref = q.user || !q.params.datasetRef ? undefined : tables[q.params.datasetRef]
      engine[q.name] = {
        run,
        ms: median(times),
        rows: pairKey(pairs.toArray().map(([s, r]) => [idOf(source, s), ref && r >= 0 ? idOf(ref, r) : -1])),
      }
    }
    for (const q of queries.filter((x) => x.reverseOf))
      orders[q.name] = { engine: await ratioInTurns(engine[q.reverseOf!]!.run, engine[q.name]!.run) }
    return engine
  })()
  settle()

  // End to end over HTTP.
  // The service in a process of its own, as the desktop app runs it (and as PostGIS runs beside the bench).
  const service = await serviceProcess(dir, { token: TOKEN, rowCap: 10_000_000 })
  const http: Record<string, { ms: number; rows: string[]; first: number }> = {}
  const requests: Record<string, () => Promise<void>> = {}
  for (const q of queries) {
    const query = new URLSearchParams(Object.entries(q.params).map(([k, v]) => [k, String(v)]))
    const body = q.user
      ? JSON.stringify({
          type: 'FeatureCollection',
          features: [{ type: 'Feature', properties: {}, geometry: q.user }],
        })
      : undefined
    let answer: ReturnType<JoinBodyChecker['finish']> | undefined
    const request = async () => {
      const response = await fetch(`${service.urls.mgis_url}/query_apply/join?${query}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${TOKEN}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body,
      })
      const bytes = new Uint8Array(await response.arrayBuffer())
      if (response.status !== 200)
        throw new Error(`${q.name}: HTTP ${response.status} ${new TextDecoder().decode(bytes)}`)
      // Read as the app's core reads an answer: the envelope parsed, the rows checked and counted.
      answer = new JoinBodyChecker().finish(bytes)
    }
    requests[q.name] = request
    const { times, first } = await timeRuns(request)
    // The last answer's rows (untimed): prop1 is the source id, prop2 (when selected) the reference id.
    const table = RowTable.read(answer!.rows.bytes)
    const sources = table.column('prop1')
    const refs = table.keys.includes('prop2') ? table.column('prop2') : undefined
    const rows = pairKey(sources.map((s, i) => [Number(s), refs ? Number(refs[i]) : -1]))
    if (flag('trace')) console.log(`http ${q.name}: ${times.map((t) => t.toFixed(1)).join(' ')} ms`)
    http[q.name] = { ms: median(times), rows, first }
  }
  for (const q of queries.filter((x) => x.reverseOf && requests[x.reverseOf]))
    orders[q.name]!.http = await ratioInTurns(requests[q.reverseOf!]!, requests[q.name]!, () =>
      processCpuMs(service.pid),
    )
  await service.close()
  settle()

  // PostGIS, same data, same queries.
  const postgis: Record<string, { ms: number; rows: string[] }> = {}
  let cluster: Cluster | undefined
  if (flag('postgis')) {
    const missing = postgisAvailable()
    if (missing) console.log(`--postgis: skipped, ${missing}`)
    else {
      cluster = await startCluster()
      try {
        const client = cluster.client
        const v = await client.query('SELECT postgis_full_version() AS v')
        console.log(`PostGIS: ${(v.rows[0].v as string).split(' ').slice(0, 4).join(' ')}`)
        // In a function of its own: the features are garbage once loaded, before the queries are timed.
        await (async () => {
          const features = generate()
          await loadTable(client, 'points', features.points, { geographyIndex: true })
          await loadTable(client, 'polys', features.polys)
          await loadTable(client, 'districts', features.districts)
        })()
        settle()
        for (const q of queries) {
          let result: { rows: unknown[] } = { rows: [] }
          const { times } = await timeRuns(async () => {
            result = await client.query({ text: q.sql, rowMode: 'array' })
          })
          const rows = pairKey((result.rows as number[][]).map((r) => [r[0]!, r.length > 1 ? r[1]! : -1]))
          postgis[q.name] = { ms: median(times), rows }
        }
      } finally {
        await cluster.stop()
      }
    }
  }
  rmSync(dir, { recursive: true, force: true })

  // Report.
  const pad = (s: string, n: number) => s.padEnd(n)
  const num = (n: number, d = 1) => n.toFixed(d).padStart(9)
  const withPg = Object.keys(postgis).length > 0
  console.log(
    `\n${pad('query', 32)}${'rows'.padStart(9)}${'engine ms'.padStart(11)}${'feat/s'.padStart(12)}${'http ms'.padStart(10)}${'http 1st ms'.padStart(13)}` +
      (withPg
        ? `${'postgis ms'.padStart(12)}${'eng/pg'.padStart(8)}${'http/pg'.padStart(9)}  identical`
        : ''),
  )
  let sumEngine = 0
  let sumHttp = 0
  let sumPg = 0
  let allSame = true
  for (const q of queries) {
    const e = engine[q.name]!
    const h = http[q.name]!
    const p = postgis[q.name]
    sumEngine += e.ms
    sumHttp += h.ms
    let line = `${pad(q.name, 32)}${String(e.rows.length).padStart(9)}${num(e.ms, 1).padStart(11)}${String(Math.round(q.reads / (e.ms / 1000))).padStart(12)}${num(h.ms, 1).padStart(10)}${num(h.first, 1).padStart(13)}`
    if (p) {
      sumPg += p.ms
      const same = sameRows(p.rows, e.rows) && sameRows(h.rows, e.rows)
      allSame &&= same
      let diff = ''
      if (!same) {
        const pe = new Set(e.rows)
        const pp = new Set(p.rows)
        diff = ` (engine only: ${e.rows
          .filter((r) => !pp.has(r))
          .slice(0, 5)
          .join(' ')}; postgis only: ${p.rows
          .filter((r) => !pe.has(r))
          .slice(0, 5)
          .join(' ')})`
      }
      line += `${num(p.ms, 1).padStart(12)}${(e.ms / p.ms).toFixed(2).padStart(8)}${(h.ms / p.ms).toFixed(2).padStart(9)}  ${same ? 'yes' : 'NO' + diff}`
    }
    console.log(line)
  }
  console.log(
    `${pad('suite', 32)}${''.padStart(9)}${num(sumEngine, 1).padStart(11)}${''.padStart(12)}${num(sumHttp, 1).padStart(10)}${''.padStart(13)}` +
      (withPg
        ? `${num(sumPg, 1).padStart(12)}${(sumEngine / sumPg).toFixed(2).padStart(8)}${(sumHttp / sumPg).toFixed(2).padStart(9)}  ${allSame ? 'all identical' : 'DIFFERENCES'}`
        : ''),
  )
  for (const q of queries.filter((x) => x.reverseOf && http[x.reverseOf])) {
    const forward = q.reverseOf!
    // The reversed query's pairs (districts, points) read the other way round must be the forward pairs.
    const swapped = pairKey(
      http[q.name]!.rows.map((k) => k.split(':').map(Number) as [number, number]).map(([s, r]) => [r, s]),
    )
    const same =
      sameRows(swapped, http[forward]!.rows) && sameRows(http[forward]!.rows, engine[forward]!.rows)
    allSame &&= same
    const { engine: e, http: h } = orders[q.name]!
    const turns = (t: Turns) =>
      `${t.ratio.toFixed(2)} (quartiles ${t.low.toFixed(2)}–${t.high.toFixed(2)}; medians ${t.a.toFixed(1)} / ${t.b.toFixed(1)} ms)`
    console.log(
      `argument orders of "${forward}": ${same ? 'identical rows' : 'DIFFERENT ROWS'}; reversed/forward in turns, the median of ${e.pairs} and ${h!.pairs} pairs' ratios (forward / reversed):` +
        `\n  engine ${turns(e)}\n  http   ${turns(h!)}` +
        (h!.cpuA !== undefined
          ? `\n  the service's CPU per request ${h!.cpuA.toFixed(1)} / ${h!.cpuB!.toFixed(1)} ms (${(h!.cpuB! / h!.cpuA).toFixed(2)})`
          : '') +
        `\n  (the legs above: engine ${(engine[q.name]!.ms / engine[forward]!.ms).toFixed(2)}, http ${(http[q.name]!.ms / http[forward]!.ms).toFixed(2)})`,
    )
  }
  console.log(
    `\nmedian of at least ${RUNS} runs and ${MIN_MS} ms, after at least ${WARMUP} untimed runs and ${WARMUP_MS} ms (the same rule for every leg); peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB (this process, join worker included)`,
  )
  if (!allSame) process.exitCode = 1

  // The results leg, core side: a 200k-row and a 1M-row result through the core's gis.join.
  if (!flag('no-core')) printCoreLegs(await runCoreLegs([200_000, 1_000_000], Math.min(RUNS, 3)))
  // The results leg, renderer side: from "Run join" to the map and the table in Chromium.
  // Imported here, after the timed legs: its browser driver alone is about 40 MB of this process's heap.
  if (!flag('no-results')) {
    const { printResultsLeg, runResultsLeg } = await import('./join-results')
    // Each count on the machine as it is, then with both cores kept busy beside it (issue 29's aim).
    printResultsLeg(await runResultsLeg([200_000, 1_000_000], undefined, [0, 2]))
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
