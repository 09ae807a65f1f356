/**
 * The core's `gis.join` with a large result (a leg of `npm run bench:join`; alone:
 * `node --import tsx bench/join-core.ts --rows 200000`): the time from the host's call to the answer it hands
 * to the renderer, and the peak memory of the process that runs the core.
 *
 * The local service runs in a child process (as in the desktop app, where it runs in a utility process) that
 * also writes the workspace, so this process's peak RSS is the core's alone: the HTTP answer, its parsing, the run history, the dispatch's
 * contract check. The dataset is N points and one polygon covering them; the join returns every point with
 * its id and its geometry as WKT (what the results map and table need). Also timed: what crosses to the
 * renderer — the web host's framing of the answer (`encodeFrames`), and `v8.serialize` of it (a stand-in for Electron's
 * structured clone) — and the same request as plain bytes over HTTP ("service ms"): the rest ("core only")
 * is the core's own work on the answer.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import v8 from 'node:v8'
import { encodeFrames } from '../electron/contract/frames'
import { createCore } from '../electron/core/app-core'
import type { LocalServiceHandle } from '../electron/core/area'
import { MemorySecretStore } from '../electron/core/secrets/memory-secret-store'
import { Workspace } from '../electron/local-service/workspace/workspace'
import { mulberry32, points, wholeBox } from './join-data'

const argv = process.argv.slice(2)
const option = (name: string, fallback: number) => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? Number(argv[i + 1]) : fallback
}

/** A local service in a process of its own (as the desktop app runs it), over an existing workspace. */
export interface ServiceProcess {
  urls: LocalServiceHandle['urls']
  token: string
  licenceKey: string
  /** The service process's id (its CPU time is read from /proc, see `processCpuMs`). */
  pid: number | undefined
  close(): Promise<void>
}

/**
 * Start the local service in a child process over `dir` (with `rows` > 0, first write the core leg's
 * workspace there: that many points and one polygon over them); resolves once it answers.
 */
export async function serviceProcess(
  dir: string,
  options: { rows?: number; rowCap?: number; token?: string } = {},
): Promise<ServiceProcess> {
  const child: ChildProcess = fork(
    fileURLToPath(import.meta.url),
    ['--serve', dir, JSON.stringify(options)],
    {
      // GEO_BENCH_CPU_PROF=DIR: a CPU profile of the service's process and its workers, written at its end.
      execArgv: [
        '--import',
        'tsx',
        ...(process.env.GEO_BENCH_CPU_PROF
          ? ['--cpu-prof', `--cpu-prof-dir=${process.env.GEO_BENCH_CPU_PROF}`]
          : []),
      ],
      stdio: 'inherit',
    },
  )
  const started = await new Promise<Omit<ServiceProcess, 'close' | 'pid'>>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Omit<ServiceProcess, 'close' | 'pid'>))
    child.once('exit', (code) => reject(new Error(`the service process exited with ${code}`)))
  })
  return {
    ...started,
    pid: child.pid,
    close: async () => {
      child.disconnect()
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve))
    },
  }
}

/**
 * CPU time (ms) a process has run so far, all its threads together, from Linux's per-thread scheduler
 * statistics (`/proc/PID/task/TID/schedstat`, nanoseconds); undefined where they cannot be read. Work,
 * not waiting: on a machine shared with other runs it tells an order that does more work from one that
 * only waited longer for a core.
 */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined
  try {
    let ns = 0
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0])
      } catch {
        // A thread that ended between the listing and the read.
      }
    }
    return ns / 1e6
  } catch {
    return undefined
  }
}

/** The service's process (see `serviceProcess`). */
async function serve(dir: string, options: { rows?: number; rowCap?: number; token?: string }) {
  if (options.rows) {
    const workspace = new Workspace(dir)
    await workspace.create('pts', points(options.rows, mulberry32(5)), { source: 'bench' })
    await workspace.create('area', [{ geometry: wholeBox(), properties: { name: 'all' } }], {
      source: 'bench',
    })
  }
  const { startLocalService } = await import('../electron/local-service/index')
  const service = await startLocalService({
    workspaceDir: dir,
    sampleData: false,
    rowCap: options.rowCap ?? 2_000_000,
    ...(options.token ? { token: options.token } : {}),
  })
  process.send!({ urls: service.urls, token: service.token, licenceKey: service.licenceKey })
  process.on('disconnect', () => void service.close().then(() => process.exit(0)))
}

/** POST with an empty FeatureCollection on a fresh connection; resolves with the answer's byte count. */
function rawPost(url: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (res) => {
        let bytes = 0
        res.on('data', (chunk: Buffer) => (bytes += chunk.length))
        res.on('end', () =>
          res.statusCode === 200 ? resolve(bytes) : reject(new Error(`HTTP ${res.statusCode}`)),
        )
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end('{"type":"FeatureCollection","features":[]}')
  })
}

async function measure(rows: number, runs: number) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-bench-core-'))
  const service = await serviceProcess(dir, { rows })
  const handle: LocalServiceHandle = { ...service, close: async () => undefined }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'geo-bench-core-data-'))
  const core = await createCore({
    configDir: mkdtempSync(path.join(os.tmpdir(), 'geo-bench-core-config-')),
    dataDir,
    host: 'web',
    version: '0',
    secretStore: new MemorySecretStore(),
    startLocalService: async () => handle,
  })
  const params = {
    queryType: 'spatialOperation',
    datasetSource: 'pts',
    datasetRef: 'area',
    operator: 'Within',
    sourceProperty: 'geom',
    selectionParamSource: 'id,geom',
  }
  const times: number[] = []
  const raw: number[] = []
  const web: number[] = []
  const ipc: number[] = []
  let count = 0
  const baseRss = process.memoryUsage().rss
  for (let run = 0; run <= runs; run++) {
    const start = performance.now()
    const result = await core.call('gis.join', { runId: `bench-${run}`, params })
    const took = performance.now() - start
    if (!result.ok) throw new Error(`gis.join: ${result.error.failureClass} ${result.error.message}`)
    const value = result.value as { rowCount: number }
    count = value.rowCount
    const t1 = performance.now()
    // What the web host writes: the JSON with the rows' bytes taken out, then the bytes.
    const text = encodeFrames(result).json
    const t2 = performance.now()
    v8.serialize(result)
    const t3 = performance.now()
    // The same request as plain bytes over HTTP: the service's share of the time. A connection of its own:
    // a kept-alive one may be closed by the server's idle timeout just as it is reused.
    const query = new URLSearchParams(params)
    const t4 = performance.now()
    await rawPost(`${handle.urls.mgis_url}/query_apply/join?${query}`, handle.token)
    const t5 = performance.now()
    if (run > 0) {
      raw.push(t5 - t4)
      times.push(took)
      web.push(t2 - t1)
      ipc.push(t3 - t2)
    }
    if (text.length === 0 || count === 0) throw new Error('empty answer')
  }
  await core.close()
  await service.close()
  for (const d of [dir, dataDir]) rmSync(d, { recursive: true, force: true })
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  return {
    rows: count,
    ms: median(times),
    serviceMs: median(raw),
    webMs: median(web),
    ipcMs: median(ipc),
    peakMiB: process.resourceUsage().maxRSS / 1024,
    baseMiB: baseRss / 1024 / 1024,
  }
}

const isMain =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (!isMain) {
  // Imported by join-bench.ts for its legs.
} else if (argv[0] === '--serve') void serve(argv[1]!, JSON.parse(argv[2]!) as { rows?: number })
else if (argv.includes('--child')) {
  measure(option('rows', 200_000), option('runs', 3)).then(
    (r) => process.send!(r),
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
} else {
  // Alone: one leg per size, each in a process of its own so that its peak memory is its own.
  void runCoreLegs([option('rows', 200_000)], option('runs', 3)).then(printCoreLegs)
}

export interface CoreLeg {
  rows: number
  ms: number
  serviceMs: number
  webMs: number
  ipcMs: number
  peakMiB: number
  baseMiB: number
}

/** Run the leg for each size in a child process; resolves with the figures of each. */
export async function runCoreLegs(sizes: number[], runs: number): Promise<CoreLeg[]> {
  const out: CoreLeg[] = []
  for (const rows of sizes) {
    const child = fork(
      fileURLToPath(import.meta.url),
      ['--child', '--rows', String(rows), '--runs', String(runs)],
      {
        execArgv: ['--import', 'tsx', '--max-old-space-size=8192'],
        stdio: 'inherit',
      },
    )
    const leg = await new Promise<CoreLeg>((resolve, reject) => {
      child.once('message', (m) => resolve(m as CoreLeg))
      child.once('exit', (code) => reject(new Error(`the ${rows}-row leg exited with ${code}`)))
    })
    out.push(leg)
  }
  return out
}

export function printCoreLegs(legs: CoreLeg[]): void {
  console.log(
    `\ncore gis.join (host call → answer for the renderer; service in its own process)\n${'rows'.padStart(9)}${'core ms'.padStart(10)}${'service ms'.padStart(12)}${'core only'.padStart(11)}${'web frame ms'.padStart(13)}${'IPC clone ms'.padStart(14)}${'RSS MiB before'.padStart(16)}${'peak'.padStart(7)}`,
  )
  for (const l of legs)
    console.log(
      `${String(l.rows).padStart(9)}${l.ms.toFixed(0).padStart(10)}${l.serviceMs.toFixed(0).padStart(12)}${(l.ms - l.serviceMs).toFixed(0).padStart(11)}${l.webMs.toFixed(0).padStart(13)}${l.ipcMs.toFixed(0).padStart(14)}${l.baseMiB.toFixed(0).padStart(16)}${l.peakMiB.toFixed(0).padStart(7)}`,
    )
}
