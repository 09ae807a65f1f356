/**
 * Main-thread responsiveness benchmark (a benchmark, not a test): `npm run bench:main-thread [-- --runs N]`.
 *
 * The question of decision 005: does the host's own thread stay responsive while the local service answers
 * a 200,000-row join? The host here is this process (standing in for Electron's main process). Two ways
 * to run the service, same workspace, same join (200,000 generated points Intersects a polygon covering
 * them all, every row's `id` and geometry):
 *   in-process  the service in this process (the desktop app before decision 005; the browser host today)
 *   own process the service forked from its utility-process entry (what the desktop app does now)
 * For each run the event-loop delay of this process is sampled (perf_hooks, 10 ms resolution) while the
 * answer is received as bytes (`service`), and separately while it is also parsed as JSON the way the
 * core's client does (`+ parse`). Prints medians of the runs: p50, p99 and max delay, and the join's time.
 */
import { fork } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { startLocalService } from '../electron/local-service/index'
import { Workspace } from '../electron/local-service/workspace/workspace'
import { LocalServiceLauncher } from '../electron/main/local-service-launcher'
import { mulberry32, points, wholeBox } from './join-data'

const argv = process.argv.slice(2)
const runsAt = argv.indexOf('--runs')
const RUNS = runsAt >= 0 ? Number(argv[runsAt + 1]) : 5
const TOKEN = 'bench-token'
const ENTRY = path.resolve(import.meta.dirname, '../electron/local-service/process-entry.ts')

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

interface Sample {
  p50: number
  p99: number
  max: number
  ms: number
}

async function measure(mgisUrl: string, parse: boolean): Promise<Sample> {
  const query = new URLSearchParams({
    queryType: 'spatialOperation',
    datasetSource: 'many_points',
    operator: 'Intersects',
    sourceProperty: 'geom',
    selectionParamSource: 'id,geom',
    userGeom: 'true',
  })
  const body = JSON.stringify({
    type: 'FeatureCollection',
    features: [{ type: 'Feature', properties: {}, geometry: wholeBox() }],
  })
  const histogram = monitorEventLoopDelay({ resolution: 10 })
  histogram.enable()
  const t0 = performance.now()
  const response = await fetch(`${mgisUrl}/query_apply/join?${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body,
  })
  if (!response.ok)
    throw new Error(`join answered ${response.status}: ${(await response.text()).slice(0, 300)}`)
  if (parse) {
    const rows = ((await response.json()) as { result: unknown[] }).result.length
    if (rows !== 200_000) throw new Error(`expected 200,000 rows, got ${rows}`)
  } else await response.arrayBuffer()
  const ms = performance.now() - t0
  histogram.disable()
  const toMs = (ns: number) => ns / 1e6
  return {
    p50: toMs(histogram.percentile(50)),
    p99: toMs(histogram.percentile(99)),
    max: toMs(histogram.max),
    ms,
  }
}

async function series(mgisUrl: string, parse: boolean): Promise<Sample> {
  await measure(mgisUrl, parse) // warm-up: the worker loads the dataset
  const samples: Sample[] = []
  for (let i = 0; i < RUNS; i++) samples.push(await measure(mgisUrl, parse))
  return {
    p50: median(samples.map((s) => s.p50)),
    p99: median(samples.map((s) => s.p99)),
    max: median(samples.map((s) => s.max)),
    ms: median(samples.map((s) => s.ms)),
  }
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-bench-main-'))
  try {
    await new Workspace(dir).create('many_points', points(200_000, mulberry32(20260101)), { source: 'bench' })
    const results: Array<[string, Sample]> = []

    const inProcess = await startLocalService({ workspaceDir: dir, token: TOKEN, sampleData: false })
    results.push(['in-process   service', await series(inProcess.urls.mgis_url, false)])
    results.push(['in-process   + parse', await series(inProcess.urls.mgis_url, true)])
    await inProcess.close()

    const launcher = new LocalServiceLauncher({
      fork: () => {
        const child = fork(ENTRY, [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' })
        return {
          postMessage: (request) => void child.send(request),
          onMessage: (listener) => void child.on('message', listener),
          onExit: (listener) => void child.once('exit', (code) => listener(code)),
          kill: () => void child.kill('SIGKILL'),
        }
      },
      service: { workspaceDir: dir, token: TOKEN, sampleData: false },
    })
    const own = await launcher.start()
    results.push(['own process  service', await series(own.urls.mgis_url, false)])
    results.push(['own process  + parse', await series(own.urls.mgis_url, true)])
    await own.close()

    const base = results[0]![1]
    console.log(`200,000-row join, ${RUNS} runs each (median); event-loop delay of the host process in ms`)
    console.log('where the service runs       p50     p99     max   join ms   max / in-process')
    for (const [name, s] of results) {
      const ratio = name.endsWith('service') ? (s.max / base.max).toFixed(2) : ''
      console.log(
        `${name.padEnd(25)}${s.p50.toFixed(1).padStart(7)}${s.p99.toFixed(1).padStart(8)}${s.max.toFixed(1).padStart(8)}${s.ms.toFixed(0).padStart(10)}   ${ratio}`,
      )
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
