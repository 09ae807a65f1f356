/**
 * Routing benchmark (a benchmark, not a test): `npm run bench:routing [-- --runs N] [-- --tiles K] [-- --no-pg]`
 *
 * On the bundled Gothenburg sample:
 * - graph load time and memory;
 * - exactness: 100 seeded random positions are snapped by the engine; the same directed edge costs (the
 *   engine's integer weights, edges split at the snapped positions exactly as the engine splits them) are
 *   loaded into a throw-away PostgreSQL 15 + pgRouting cluster and every cell of `pgr_dijkstraCostMatrix`
 *   is compared with the engine's matrix, for driving and walking, least time (rtype 0) and least distance (1);
 * - speed: medians of 10×10, 1×100 and 100×100 matrices, engine (in this thread, hierarchy built) and
 *   through HTTP (the local service on 127.0.0.1) beside pgRouting (`pgr_dijkstraCostMatrix`, and
 *   `pgr_dijkstraCost` one-to-many for 1×100), with the ratios;
 * - import: a large extract made by tiling the sample K×K times (default 8) as .osm.pbf, imported in a child
 *   process: time and peak memory; then its load time and memory.
 *
 * pgRouting comes from Debian (`apt-get install postgresql-15-postgis-3 postgresql-15-pgrouting`); the bench
 * starts its own cluster in a temp folder and removes it afterwards. Without it (or with --no-pg) the engine
 * side is still measured.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import type pg from 'pg'
import { resolveRoutingDataDir, SAMPLE_NETWORK } from '../electron/local-service/routing/data/networks'
import type { Profile } from '../electron/local-service/routing/data/profiles'
import type { LonLat, MatrixJob, NetworkRef } from '../electron/local-service/routing/engine/jobs'
import { startLocalService } from '../electron/local-service/index'
import { RoadNetwork, type Metric, type Snap } from '../electron/local-service/routing/engine/network'
import { seededRandom } from '../electron/local-service/routing/engine/numeric'
import { RoutingEngine } from '../electron/local-service/routing/engine/routing-engine'
import { OsmPbfWriter } from '../test/support/osm-pbf-writer'
import { postgisAvailable, startCluster, type Cluster } from './postgis'

const argv = process.argv.slice(2)
const flag = (name: string) => argv.includes(`--${name}`)
const option = (name: string, fallback: number) => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? Number(argv[i + 1]) : fallback
}
const RUNS = option('runs', 7)
const TILES = option('tiles', 8)

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`

function pgroutingAvailable(): string | undefined {
  const missing = postgisAvailable()
  if (missing) return missing
  const base = '/usr/lib/postgresql'
  const bin = readdirSync(base)
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => path.join(base, v, 'bin'))
    .find((b) => existsSync(path.join(b, 'pg_config')))
  if (!bin) return 'PostgreSQL is not installed'
  const share = execFileSync(path.join(bin, 'pg_config'), ['--sharedir']).toString().trim()
  if (!existsSync(path.join(share, 'extension', 'pgrouting.control')))
    return 'pgRouting is not installed (apt-get install postgresql-15-pgrouting)'
  return undefined
}

/** Positions spread over the network, every one placed by the engine for the metric. */
function positions(net: RoadNetwork, metric: Metric, count: number, seed: number): LonLat[] {
  const random = seededRandom(seed)
  const [w, s, e, n] = net.header.bbox
  const out: LonLat[] = []
  while (out.length < count) {
    const p: LonLat = [w + (e - w) * random(), s + (n - s) * random()]
    if (net.snap(p[0], p[1], metric)) out.push(p)
  }
  return out
}

/**
 * The metric's directed edges as pgRouting rows, each edge split at the snapped positions on it with the
 * engine's own integer parts (round(t·w)), so shortest costs must agree to the unit. Returns the vertex of
 * each position.
 */
function edgeRows(net: RoadNetwork, metric: Metric, snaps: Snap[]) {
  const a = net.arrays
  const byEdge = new Map<number, number[]>()
  const vertexOf: number[] = []
  let nextVertex = net.nodeCount + 1
  const cuts = new Map<string, number>()
  snaps.forEach((s, i) => {
    if (s.t <= 0) vertexOf[i] = a.edgeU[s.edge]! + 1
    else if (s.t >= 1) vertexOf[i] = a.edgeV[s.edge]! + 1
    else {
      const key = `${s.edge}:${s.t}`
      let v = cuts.get(key)
      if (v === undefined) {
        v = nextVertex++
        cuts.set(key, v)
        const list = byEdge.get(s.edge) ?? []
        list.push(s.t)
        byEdge.set(s.edge, list)
      }
      vertexOf[i] = v
    }
  })
  const rows = {
    id: [] as number[],
    source: [] as number[],
    target: [] as number[],
    cost: [] as number[],
    reverse: [] as number[],
  }
  let id = 1
  const push = (u: number, v: number, c: number, r: number) => {
    if (c < 0 && r < 0) return
    rows.id.push(id++)
    rows.source.push(u)
    rows.target.push(v)
    rows.cost.push(c)
    rows.reverse.push(r)
  }
  for (let e = 0; e < net.edgeCount; e++) {
    const wF = metric.wF[e]!
    const wB = metric.wB[e]!
    const u = a.edgeU[e]! + 1
    const v = a.edgeV[e]! + 1
    const ts = [...new Set(byEdge.get(e) ?? [])].sort((x, y) => x - y)
    if (ts.length === 0) {
      push(u, v, wF, wB)
      continue
    }
    const part = (t: number, w: number) => (w < 0 ? -1 : t <= 0 ? 0 : t >= 1 ? w : Math.round(t * w))
    const stops = [0, ...ts, 1]
    const ids = [u, ...ts.map((t) => cuts.get(`${e}:${t}`)!), v]
    for (let k = 0; k + 1 < stops.length; k++) {
      const c = wF < 0 ? -1 : part(stops[k + 1]!, wF) - part(stops[k]!, wF)
      const r = wB < 0 ? -1 : part(stops[k + 1]!, wB) - part(stops[k]!, wB)
      push(ids[k]!, ids[k + 1]!, c, r)
    }
  }
  return { rows, vertexOf }
}

async function loadEdges(client: pg.Client, table: string, rows: ReturnType<typeof edgeRows>['rows']) {
  await client.query(`DROP TABLE IF EXISTS ${table}`)
  await client.query(
    `CREATE TABLE ${table} (id bigint PRIMARY KEY, source bigint, target bigint, cost double precision, reverse_cost double precision)`,
  )
  const batch = 20_000
  for (let i = 0; i < rows.id.length; i += batch) {
    const s = (xs: number[]) => xs.slice(i, i + batch)
    await client.query(
      `INSERT INTO ${table} SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::float8[], $5::float8[])`,
      [s(rows.id), s(rows.source), s(rows.target), s(rows.cost), s(rows.reverse)],
    )
  }
  await client.query(`CREATE INDEX ON ${table} (source)`)
  await client.query(`CREATE INDEX ON ${table} (target)`)
  await client.query(`VACUUM ANALYZE ${table}`)
}

async function timed<T>(f: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const t = performance.now()
  const value = await f()
  return { ms: performance.now() - t, value }
}

async function main() {
  const dataDir = resolveRoutingDataDir()
  if (!dataDir) throw new Error('resources/data/routing is missing: run npm run data:routing')
  const file = path.join(dataDir, SAMPLE_NETWORK.file)
  const ref: NetworkRef = { id: SAMPLE_NETWORK.id, file }
  console.log(
    `Routing benchmark: ${SAMPLE_NETWORK.name} (${(statSync(file).size / 1024).toFixed(0)} KiB file), ${RUNS} runs per figure, median`,
  )
  console.log(
    `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}\n`,
  )

  // Load time and memory.
  const loads: number[] = []
  for (let i = 0; i < RUNS; i++) loads.push((await timed(() => RoadNetwork.load(file))).ms)
  global.gc?.()
  const rssBefore = process.memoryUsage().rss
  const net = RoadNetwork.load(file)
  console.log(
    `graph load: ${median(loads).toFixed(1)} ms median; ${net.nodeCount} nodes, ${net.edgeCount} edges; arrays ${mib(net.bytes)}; RSS +${mib(process.memoryUsage().rss - rssBefore)}`,
  )

  const pgMissing = flag('no-pg') ? 'skipped (--no-pg)' : pgroutingAvailable()
  let cluster: Cluster | undefined
  if (pgMissing) console.log(`pgRouting: ${pgMissing}; engine figures only\n`)
  else {
    cluster = await startCluster()
    await cluster.client.query('CREATE EXTENSION pgrouting')
    const v = await cluster.client.query('SELECT pgr_version() AS v')
    console.log(`pgRouting ${v.rows[0].v as string} on a throw-away PostgreSQL cluster (unix socket)\n`)
  }

  const engine = new RoutingEngine()
  // The local service over a throw-away workspace: the bundled sample network, requests through HTTP.
  const workspaceDir = mkdtempSync(path.join(os.tmpdir(), 'geo-routing-bench-ws-'))
  const service = await startLocalService({ workspaceDir, sampleData: false, licenceKey: 'bench-key' })
  const cases: Array<[Profile, 0 | 1]> = [
    ['driving', 0],
    ['driving', 1],
    ['walking', 0],
    ['walking', 1],
  ]
  const table: string[] = []
  table.push(
    'metric        size     engine ms   http ms   pgRouting ms   eng/pg   http/pg   cells equal',
    '------------  -------  ----------  --------  -------------  -------  --------  -----------',
  )
  try {
    for (const [profile, rtype] of cases) {
      const metric = net.metric({ profile, rtype })
      const pts = positions(net, metric, 100, 42 + rtype)
      const snaps = pts.map((p) => net.snap(p[0], p[1], metric)!)
      const all = pts.map((_, i) => i)
      const job = (sources: number[], destinations: number[]): MatrixJob => ({
        kind: 'matrix',
        networks: [ref],
        profile,
        rtype,
        traffic: { kind: 'free' },
        positions: pts,
        sources,
        destinations,
        includeWeights: true,
      })
      const built = await timed(() => engine.matrix(job([0], [1])))
      const prepare = built.value.timing.prepare
      const full = await engine.matrix(job(all, all))
      const sizes: Array<[string, number[], number[]]> = [
        ['10×10', all.slice(0, 10), all.slice(0, 10)],
        ['1×100', [0], all],
        ['100×100', all, all],
      ]
      let edges: ReturnType<typeof edgeRows> | undefined
      let equal = '—'
      if (cluster) {
        edges = edgeRows(net, metric, snaps)
        await loadEdges(cluster.client, 'edges', edges.rows)
        const vids = edges.vertexOf
        const res = await cluster.client.query(
          `SELECT start_vid, end_vid, agg_cost FROM pgr_dijkstraCostMatrix('SELECT id, source, target, cost, reverse_cost FROM edges', $1::bigint[], directed := true)`,
          [[...new Set(vids)]],
        )
        const pgCost = new Map<string, number>()
        for (const r of res.rows as Array<{ start_vid: string; end_vid: string; agg_cost: number }>)
          pgCost.set(`${r.start_vid}:${r.end_vid}`, r.agg_cost)
        let same = 0
        let cells = 0
        const diffs: string[] = []
        for (let i = 0; i < 100; i++)
          for (let j = 0; j < 100; j++) {
            cells++
            const expected = vids[i] === vids[j] ? 0 : (pgCost.get(`${vids[i]}:${vids[j]}`) ?? null)
            const got = full.weights![i]![j] ?? null
            if (expected === got) same++
            else if (diffs.length < 5) diffs.push(`${i}→${j}: engine ${got}, pgRouting ${expected}`)
          }
        equal = `${same}/${cells}`
        if (diffs.length) console.log(`  ${profile} rtype ${rtype} differences: ${diffs.join('; ')}`)
      }
      for (const [name, sources, destinations] of sizes) {
        const times: number[] = []
        for (let r = 0; r < RUNS; r++)
          times.push((await timed(() => engine.matrix(job(sources, destinations)))).ms)
        const eng = median(times)
        // The same request end to end: the local service on 127.0.0.1 (validation, pool, JSON), through HTTP.
        const url = `${service.urls.advancedmaps_url}/bench-key/distance_matrix/${profile}/${pts.map((p) => `${p[0].toFixed(6)},${p[1].toFixed(6)}`).join(';')}?sources=${sources.join(';')}&destinations=${destinations.join(';')}&rtype=${rtype}`
        await (await fetch(url)).json()
        const httpTimes: number[] = []
        for (let r = 0; r < RUNS; r++) httpTimes.push((await timed(async () => (await fetch(url)).json())).ms)
        const http = median(httpTimes)
        let pgMs = NaN
        if (cluster && edges) {
          const vids = edges.vertexOf
          const sql =
            name === '1×100'
              ? {
                  text: `SELECT count(*) FROM pgr_dijkstraCost('SELECT id, source, target, cost, reverse_cost FROM edges', $1::bigint, $2::bigint[], directed := true)`,
                  values: [vids[0], [...new Set(destinations.map((d) => vids[d]!))]],
                }
              : {
                  text: `SELECT count(*) FROM pgr_dijkstraCostMatrix('SELECT id, source, target, cost, reverse_cost FROM edges', $1::bigint[], directed := true)`,
                  values: [[...new Set(sources.map((s) => vids[s]!))]],
                }
          const pgTimes: number[] = []
          for (let r = 0; r < Math.min(RUNS, 5); r++)
            pgTimes.push((await timed(() => cluster!.client.query(sql))).ms)
          pgMs = median(pgTimes)
        }
        table.push(
          `${`${profile} ${rtype === 0 ? 'time' : 'dist'}`.padEnd(12)}  ${name.padEnd(7)}  ${eng.toFixed(2).padStart(10)}  ${http.toFixed(1).padStart(8)}  ${Number.isNaN(pgMs) ? '—'.padStart(13) : pgMs.toFixed(1).padStart(13)}  ${Number.isNaN(pgMs) ? '—'.padStart(7) : (eng / pgMs).toFixed(3).padStart(7)}  ${Number.isNaN(pgMs) ? '—'.padStart(8) : (http / pgMs).toFixed(3).padStart(8)}  ${name === '100×100' ? equal.padStart(11) : ''}`,
        )
      }
      console.log(
        `${profile} rtype ${rtype}: hierarchy ${prepare.toFixed(0)} ms to contract (${metric.ch().shortcuts} shortcuts)`,
      )
    }
  } finally {
    await cluster?.stop()
    await service.close()
    rmSync(workspaceDir, { recursive: true, force: true })
  }
  console.log('\n' + table.join('\n'))
  console.log(
    '(engine: in this thread, hierarchy built, positions snapped per request; http: GET of the local service on 127.0.0.1 (validation, worker pool, JSON); pgRouting: the query over the unix socket, reading the edge table each time; 1×100 uses pgr_dijkstraCost one-to-many)',
  )

  // Import of a large extract: the sample tiled K×K as .osm.pbf.
  if (TILES > 0) await importBench(TILES, file)
}

/** Write the sample's ways K×K times side by side as an .osm.pbf, import it in a child process, load it. */
async function importBench(tiles: number, sampleFile: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-routing-bench-'))
  try {
    const source = JSON.parse(
      readFileSync(
        path.join(
          path.dirname(createRequire(import.meta.url).resolve('geojson-path-finder/package.json')),
          'test',
          'large-network.json',
        ),
        'utf8',
      ),
    ) as {
      features: Array<{
        properties: Record<string, string>
        geometry: { type: string; coordinates: unknown }
      }>
    }
    const lines = source.features.filter((f) => f.geometry.type === 'LineString')
    const sample = RoadNetwork.load(sampleFile)
    const [w, s, e, n] = sample.header.bbox
    const dx = (e - w) * 1.01
    const dy = (n - s) * 1.01
    const pbf = path.join(dir, `gothenburg-${tiles}x${tiles}.osm.pbf`)
    const writer = new OsmPbfWriter(pbf)
    // Node ids per tile: the sample's coordinates numbered once, offset per tile.
    const ids = new Map<string, number>()
    const coords: Array<[number, number]> = []
    for (const f of lines)
      for (const [x, y] of f.geometry.coordinates as Array<[number, number]>) {
        const k = `${x},${y}`
        if (!ids.has(k)) {
          ids.set(k, coords.length + 1)
          coords.push([x, y])
        }
      }
    const per = coords.length
    let written = 0
    for (let tx = 0; tx < tiles; tx++)
      for (let ty = 0; ty < tiles; ty++)
        coords.forEach(([x, y], i) => {
          writer.node({ id: (tx * tiles + ty) * per + i + 1, lon: x + tx * dx, lat: y + ty * dy })
          written++
        })
    let wayId = 1
    for (let t = 0; t < tiles * tiles; t++)
      for (const f of lines)
        writer.way({
          id: wayId++,
          refs: (f.geometry.coordinates as Array<[number, number]>).map(
            ([x, y]) => t * per + ids.get(`${x},${y}`)!,
          ),
          tags: Object.fromEntries(Object.entries(f.properties).filter(([k]) => !k.startsWith('@'))),
        })
    await writer.close()
    const size = statSync(pbf).size
    console.log(
      `\nlarge extract: the sample tiled ${tiles}×${tiles}: ${written.toLocaleString('en')} nodes, ${(wayId - 1).toLocaleString('en')} ways, ${mib(size)} .osm.pbf`,
    )
    const out = path.join(dir, 'large.roadnet')
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'routing-import-child.ts'), pbf, out],
      { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
    )
    if (child.status !== 0) throw new Error(`import failed: ${child.stderr}`)
    const r = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as {
      ms: number
      maxRss: number
      nodes: number
      edges: number
    }
    console.log(
      `import (child process): ${(r.ms / 1000).toFixed(1)} s, peak RSS ${mib(r.maxRss)}; ${r.nodes.toLocaleString('en')} graph nodes, ${r.edges.toLocaleString('en')} edges, ${mib(statSync(out).size)} file`,
    )
    const loads: number[] = []
    let big: RoadNetwork | undefined
    for (let i = 0; i < 3; i++) {
      const t = performance.now()
      big = RoadNetwork.load(out)
      loads.push(performance.now() - t)
    }
    console.log(`load of the large network: ${median(loads).toFixed(0)} ms median; arrays ${mib(big!.bytes)}`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
