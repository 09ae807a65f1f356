// `npm run bench:pool`: what the worker pool and the main thread do over many joins.
//
// 1. Memory: 200 consecutive joins, each over a different dataset (so every join reads a new table into the
//    worker's cache), through the local service's HTTP interface. Prints the worker's V8 heap and its memory
//    outside the heap (GEOS WebAssembly heap + dataset cache) after the first joins and after all 200, and the
//    process RSS: with the byte-bounded cache they stay bounded instead of growing with every dataset.
// 2. Responsiveness: the event-loop delay of the serving thread while a 200k-row join runs in the pool, next
//    to the same host with the join on that thread (what the pool prevents), p50/p99/max side by side.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { startLocalService } from '../electron/local-service'
import { executeJoin } from '../electron/local-service/gis/engine/join-service'
import { Workspace } from '../electron/local-service/workspace/workspace'
import { mulberry32, points, smallPolygons } from './join-data'

const MiB = 1024 * 1024
const mb = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`

async function memoryLeg(dir: string) {
  const workspace = new Workspace(dir)
  const random = mulberry32(7)
  const COUNT = 200
  process.stdout.write(`Creating ${COUNT} datasets of 20,000 points each … `)
  for (let i = 0; i < COUNT; i++)
    await workspace.create(`pts_${i}`, points(20_000, random), { source: 'bench' })
  await workspace.create('zones', smallPolygons(400, random), { source: 'bench' })
  console.log('done')
  const token = 'bench-token'
  // Cache budget left at its default (512 MiB per worker); one worker so every join lands on it.
  const service = await startLocalService({
    workspaceDir: dir,
    token,
    sampleData: false,
    pool: { workers: 1 },
  })
  const join = async (i: number) => {
    const query = new URLSearchParams({
      queryType: 'spatialOperation',
      datasetSource: `pts_${i}`,
      datasetRef: 'zones',
      operator: 'Within',
      sourceProperty: 'geom',
      refProperty: 'geom',
      selectionParamSource: 'id',
    })
    const r = await fetch(`${service.urls.mgis_url}/query_apply/join?${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    })
    await r.arrayBuffer()
    if (r.status !== 200 && r.status !== 404) throw new Error(`join ${i}: HTTP ${r.status}`)
  }
  const rows: string[][] = [
    ['after joins', 'worker V8 heap', 'GEOS wasm heap', 'dataset cache', 'process RSS'],
  ]
  const stats = () => service.poolStats()
  for (let i = 0; i < COUNT; i++) {
    await join(i)
    if ([9, 49, 99, 149, COUNT - 1].includes(i)) {
      const m = stats().lastMemory!
      const cache = m.caches ?? {}
      rows.push([
        String(i + 1),
        mb(m.heapBytes),
        mb(m.externalBytes),
        `${cache['gis.datasets.count']} tables, ~${mb(cache['gis.datasets.bytes'] ?? 0)}`,
        mb(process.memoryUsage().rss),
      ])
    }
  }
  const s = stats()
  await service.close()
  console.log('\n1. Worker memory over 200 joins over 200 different datasets (20k points each, through HTTP)')
  for (const row of rows) console.log(row.map((c, i) => c.padEnd(i === 0 ? 14 : i === 3 ? 26 : 17)).join(''))
  console.log(
    "(the V8 heap includes garbage until the worker's next major GC; the cache is bounded at 512 MiB)",
  )
  console.log(`workers spawned ${s.spawned}, retired for memory ${s.retired}`)
}

/**
 * Stalls of this thread while `work` runs: a 1 ms ticker records the wall-clock gap between its ticks (what a
 * request arriving then would wait), as p50/p99/max. (perf_hooks' event-loop histogram missed whole-second
 * stalls here, so the gaps are measured directly.)
 */
async function delay<T>(
  work: () => Promise<T>,
): Promise<{ p50: number; p99: number; max: number; ms: number }> {
  const gaps: number[] = []
  let last = performance.now()
  const ticker = setInterval(() => {
    const now = performance.now()
    gaps.push(now - last)
    last = now
  }, 1)
  const t0 = performance.now()
  await work()
  const ms = performance.now() - t0
  // One more tick after the work, so a stall that lasted until its end is counted too.
  await new Promise((resolve) => setTimeout(resolve, 5))
  clearInterval(ticker)
  gaps.sort((a, b) => a - b)
  const at = (q: number) => gaps[Math.min(gaps.length - 1, Math.floor(q * gaps.length))] ?? 0
  return { p50: at(0.5), p99: at(0.99), max: gaps.at(-1) ?? 0, ms }
}

async function responsivenessLeg(dir: string) {
  const workspace = new Workspace(dir)
  const random = mulberry32(11)
  await workspace.create('big', points(200_000, random), { source: 'bench' })
  const token = 'bench-token'
  const service = await startLocalService({ workspaceDir: dir, token, sampleData: false })
  const params = {
    queryType: 'spatialOperation',
    datasetSource: 'big',
    operator: 'Within',
    sourceProperty: 'geom',
    userGeom: 'true',
    selectionParamSource: 'id,geom',
  }
  const body = {
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        properties: {},
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [60, 0],
              [100, 0],
              [100, 40],
              [60, 40],
              [60, 0],
            ],
          ],
        },
      },
    ],
  }
  const viaPool = async () => {
    const r = await fetch(`${service.urls.mgis_url}/query_apply/join?${new URLSearchParams(params)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    await r.arrayBuffer()
    if (r.status !== 200) throw new Error(`HTTP ${r.status}`)
  }
  const onThread = async () => {
    let bytes = 0
    const { validateJoinRequest } = await import('../electron/contract/gis/join-params')
    const checked = validateJoinRequest(params, body)
    if (!checked.ok) throw new Error('bad request')
    await executeJoin(
      { workspaceDir: dir, params: checked.value.params, body: body as never, rowCap: 1_000_000 },
      (part) => (bytes += part.bytes.byteLength),
    )
  }
  await viaPool() // warm both: the worker's cache, and this thread's
  await onThread()
  const pooled = await delay(viaPool)
  const inline = await delay(onThread)
  await service.close()
  console.log('\n2. Stalls of the serving thread during a 200k-row join (gaps between 1 ms ticks, ms)')
  console.log(
    'where the join runs'.padEnd(34) + 'join ms'.padEnd(10) + 'p50'.padEnd(8) + 'p99'.padEnd(8) + 'max',
  )
  for (const [label, d] of [
    ['worker pool (the service)', pooled],
    ['serving thread (no pool)', inline],
  ] as const) {
    console.log(
      label.padEnd(34) +
        d.ms.toFixed(0).padEnd(10) +
        d.p50.toFixed(1).padEnd(8) +
        d.p99.toFixed(1).padEnd(8) +
        d.max.toFixed(1),
    )
  }
}

const a = await mkdtemp(path.join(os.tmpdir(), 'ga-bench-pool-'))
const b = await mkdtemp(path.join(os.tmpdir(), 'ga-bench-loop-'))
try {
  console.log(`node ${process.version}, ${os.cpus().length} cores`)
  // `-- memory` or `-- responsiveness` runs one leg only.
  const only = process.argv[2]
  if (!only || only === 'memory') await memoryLeg(a)
  if (!only || only === 'responsiveness') await responsivenessLeg(b)
} finally {
  await rm(a, { recursive: true, force: true })
  await rm(b, { recursive: true, force: true })
}
