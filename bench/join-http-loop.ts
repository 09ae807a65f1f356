/**
 * The fixed cost of a join request through HTTP (a probe, not part of `npm run bench:join`):
 * `node --import tsx bench/join-http-loop.ts [--runs 200] [--only TEXT]` writes the join benchmark's
 * workspace (200,000 points, 20,000 small polygons, 700 districts), starts the local service in a process of
 * its own and sends each query `--runs` times in a row after a warm-up, printing the median, the 10th and
 * 90th percentiles and the answer's size (`--raw`: the answer read as bytes, not parsed; `--trace`: one warm-up
 * only, and the first runs' times in order). `GEO_BENCH_CPU_PROF=DIR` profiles the service's process.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { Workspace } from '../electron/local-service/workspace/workspace'
import { districts, drawnStar, mulberry32, points, smallPolygons } from './join-data'
import { serviceProcess } from './join-core'

const argv = process.argv.slice(2)
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? argv[i + 1]! : fallback
}
const RUNS = Number(option('runs', '200'))
const ONLY = option('only', '')
/** --raw: read the answer's bytes without parsing them (the service's share of the time). */
const RAW = argv.includes('--raw')
const TOKEN = 'bench-token'

const star = JSON.stringify({
  type: 'FeatureCollection',
  features: [{ type: 'Feature', properties: {}, geometry: drawnStar() }],
})
const base = { sourceProperty: 'geom', selectionParamSource: 'id', queryType: 'spatialOperation' }
const queries: Array<{ name: string; params: Record<string, string>; body?: string; runs?: number }> = [
  {
    name: 'points Within star',
    params: { ...base, datasetSource: 'points', operator: 'Within', userGeom: 'true' },
    body: star,
  },
  {
    name: 'polygons Intersects star',
    params: { ...base, datasetSource: 'polys', operator: 'Intersects', userGeom: 'true' },
    body: star,
  },
  {
    name: 'districts x points',
    params: {
      ...base,
      datasetSource: 'points',
      datasetRef: 'districts',
      operator: 'Intersects',
      selectionParamRef: 'id',
    },
    runs: Math.max(5, Math.round(RUNS / 20)),
  },
]

async function main() {
  const random = mulberry32(20260101)
  const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-bench-loop-'))
  const workspace = new Workspace(dir)
  await workspace.create('points', points(200_000, random), { source: 'bench' })
  await workspace.create('polys', smallPolygons(20_000, random), { source: 'bench' })
  await workspace.create('districts', districts(), { source: 'bench' })
  const service = await serviceProcess(dir, { token: TOKEN, rowCap: 10_000_000 })
  try {
    for (const q of queries.filter((x) => x.name.includes(ONLY))) {
      const url = `${service.urls.mgis_url}/query_apply/join?${new URLSearchParams(q.params)}`
      const runs = q.runs ?? RUNS
      const times: number[] = []
      let bytes = 0
      for (let run = argv.includes('--trace') ? -1 : -3; run < runs; run++) {
        const start = performance.now()
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${TOKEN}`,
            ...(q.body ? { 'content-type': 'application/json' } : {}),
          },
          body: q.body,
        })
        const body = RAW ? await response.arrayBuffer() : await response.json()
        if (response.status !== 200) throw new Error(`${q.name}: HTTP ${response.status}`)
        if (run >= 0) times.push(performance.now() - start)
        bytes = RAW ? (body as ArrayBuffer).byteLength : JSON.stringify(body).length
      }
      if (argv.includes('--trace'))
        console.log(
          `${q.name}: first runs ${times
            .slice(0, 12)
            .map((t) => t.toFixed(1))
            .join(' ')} ms`,
        )
      times.sort((a, b) => a - b)
      const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(2)
      console.log(
        `${q.name.padEnd(28)} runs ${String(runs).padStart(4)}  p10 ${at(0.1).padStart(8)}  median ${at(0.5).padStart(8)}  p90 ${at(0.9).padStart(8)} ms  ${(bytes / 1e6).toFixed(2)} MB`,
      )
    }
  } finally {
    await service.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

void main()
