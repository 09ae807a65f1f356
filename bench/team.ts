/**
 * `npm run bench:team [-- --minutes 5 --analysts 50]`: a team server under a team's load (issue 32).
 *
 * A throw-away PostGIS cluster on 127.0.0.1 holds the shared workspace (200,000 points, 841 grid cells);
 * two server instances (`bench/team-serve.ts`, processes of their own: HTTPS with a throw-away CA, a users
 * file of 52 users) serve it, and every request goes to one or the other in turn, as a load balancer would.
 * 50 simulated analysts, each with a think time of 0.5–2.5 s, list datasets (40 %), autosuggest (25 %), run
 * a small join (20 %), export a dataset (whole, with geometry: 10 %) and save a join as a new dataset (5 %).
 * A probe user lists the datasets every 250 ms. Half the run is without, half with a heavy user running 50
 * large joins (200,000 rows each) at once, without pause, from a process of its own (another analyst's
 * machine: `team-heavy.ts`), in turns (`PHASES`: quiet, heavy, quiet, heavy, quiet in eighths 1, 2, 2, 2, 1,
 * so the datasets saved over the run weigh alike on both sides). `--heavy 0` is the A/A run: the same
 * phases with no heavy user, whose ratio is what the schedule itself adds.
 *
 * Prints: per operation, counts by outcome and p50/p95; the errors other than 429/503 with Retry-After (aim:
 * none); the dataset list's p95 while the heavy joins run (aim ≤ 50 ms); the probe's p95 list time without
 * and with the heavy user, and their ratio (aim ≤ 2×); each instance's resident memory over time.
 * A client answered 429/503 waits its Retry-After and goes on, as the app's transport does.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Agent } from 'undici'
import { addUser } from '../electron/local-service/team/users-file'
import { postgresMissing, startTestCluster } from '../test/support/postgres'
import { makeTestPki } from '../test/support/tls'
import { timedCall } from './team-client'

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const MINUTES = option('minutes', 5)
const ANALYSTS = option('analysts', 50)
const HEAVY_JOINS = option('heavy', 50)
/**
 * Quiet and heavy in turns, in eighths of the run: 1 quiet, 2 heavy, 2 quiet, 2 heavy, 1 quiet. What grows
 * over a run — the datasets the analysts save, which every list then lists (about 500 in 5 minutes) — weighs
 * the same on both sides: the quiet and the heavy samples' mean time is the run's middle in both. (A first
 * half quiet and a second heavy compared lists of ~250 more datasets with fewer: with no heavy user at all,
 * the probe's second half was decision 036's A/A ratio slower than its first.)
 */
const PHASES: ReadonlyArray<{ phase: 'quiet' | 'heavy'; eighths: number }> = [
  { phase: 'quiet', eighths: 1 },
  { phase: 'heavy', eighths: 2 },
  { phase: 'quiet', eighths: 2 },
  { phase: 'heavy', eighths: 2 },
  { phase: 'quiet', eighths: 1 },
]
const EIGHTH_MS = (MINUTES * 60_000) / 8

type Op = 'list' | 'autosuggest' | 'join' | 'export' | 'save' | 'heavy join'
interface Sample {
  op: Op
  user: string
  phase: 'quiet' | 'heavy'
  status: number
  ms: number
  retryAfter: boolean
}

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.ceil(s.length * p) - 1)]!
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const box = (lon: number, lat: number, size: number) => ({
  type: 'Polygon',
  coordinates: [
    [
      [lon, lat],
      [lon + size, lat],
      [lon + size, lat + size],
      [lon, lat + size],
      [lon, lat],
    ],
  ],
})
const WORDS = ['del', 'mum', 'ban', 'che', 'kol', 'hyd', 'pun', 'ahm', 'jai', 'luc', 'kan', 'nag']

interface Instance {
  child: ChildProcess
  urls: Record<string, string>
}

async function startInstance(args: string[], env: NodeJS.ProcessEnv): Promise<Instance> {
  const child = fork(path.join(import.meta.dirname, 'team-serve.ts'), args, {
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : []),
      // Node's own flags for the instances, e.g. `--trace-gc` (their output goes to this one's).
      ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
    ],
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const urls = await new Promise<Record<string, string>>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { urls: Record<string, string> }).urls))
    child.once('exit', (code) => reject(new Error(`a team server instance stopped at start (code ${code})`)))
  })
  return { child, urls }
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
}

async function main(): Promise<void> {
  const missing = postgresMissing()
  if (missing) {
    console.log(`bench:team skipped: ${missing}`)
    return
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-bench-team-'))
  const pki = await makeTestPki()
  const cluster = await startTestCluster()
  const instances: Instance[] = []
  const agent = new Agent({ connect: { ca: pki.caPem }, connections: 256 })
  try {
    await cluster.admin.query('CREATE DATABASE team')
    const db = await cluster.connect('team')
    await db.query('CREATE EXTENSION postgis; CREATE SCHEMA work')
    await db.query(`CREATE TABLE work.points AS SELECT g AS id, ST_SetSRID(ST_MakePoint(68 + random() * 29,
      8 + random() * 29), 4326)::geometry(Point, 4326) AS geom FROM generate_series(1, 200000) g`)
    await db.query(`CREATE TABLE work.cells AS SELECT row_number() OVER () AS id, ST_SetSRID(ST_MakeEnvelope(
      68 + x, 8 + y, 69 + x, 9 + y), 4326)::geometry(Polygon, 4326) AS geom
      FROM generate_series(0, 28) x, generate_series(0, 28) y`)
    await db.query(`CREATE INDEX ON work.points USING gist (geom); CREATE INDEX ON work.cells USING gist (geom);
      ANALYZE work.points; ANALYZE work.cells`)
    await db.end()

    const usersFile = path.join(dir, 'users.json')
    const tokens = new Map<string, string>()
    for (const name of [...Array.from({ length: ANALYSTS }, (_, i) => `analyst${i + 1}`), 'heavy', 'probe'])
      tokens.set(name, (await addUser(usersFile, { name })).token)
    const uri = cluster.uri('team', 'schema=work')
    const env = { ...process.env, PGPASSWORD: cluster.password }
    for (let i = 0; i < 2; i++)
      instances.push(await startInstance([uri, usersFile, pki.certFile, pki.keyFile], env))
    console.log(
      `Two instances over ${uri.replace(/\/\/[^@]*@/, '//')}: ${instances.map((s) => s.urls.mgis_url).join(', ')}`,
    )

    const samples: Sample[] = []
    let phase: Sample['phase'] = 'quiet'
    const loops: Array<{ phase: Sample['phase']; p99: number; max: number; cpuPercent: number }> = []
    for (const s of instances)
      s.child.on('message', (m) => {
        const loop = (m as { loop?: { p99: number; max: number; cpuPercent: number } }).loop
        if (loop) loops.push({ phase, ...loop })
      })
    let turn = 0
    let saved = 0
    let stopping = false
    const call = async (
      op: Op,
      user: string,
      url: (urls: Record<string, string>) => string,
      init: { method?: string; body?: string } = {},
    ): Promise<void> => {
      const instance = instances[turn++ % instances.length]!
      const answer = await timedCall(agent, url(instance.urls), tokens.get(user)!, init)
      samples.push({ op, user, phase, ...answer })
    }
    const join = (params: Record<string, string>, geometry: unknown) => ({
      url: (u: Record<string, string>) =>
        `${u.mgis_url}/query_apply/join?${new URLSearchParams({
          queryType: 'spatialOperation',
          sourceProperty: 'geom',
          userGeom: 'true',
          operator: 'Intersects',
          ...params,
        })}`,
      body: JSON.stringify({
        type: 'FeatureCollection',
        features: [{ type: 'Feature', properties: {}, geometry }],
      }),
    })
    const list = (user: string) => call('list', user, (u) => `${u.mgis_v2_url}/getLayersList`)

    async function analyst(user: string, seed: number): Promise<void> {
      let r = seed
      const random = () => (r = (r * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
      await sleep(random() * 2000)
      while (!stopping) {
        const pick = random()
        if (pick < 0.4) await list(user)
        else if (pick < 0.65) {
          const word = WORDS[Math.floor(random() * WORDS.length)]!
          await call('autosuggest', user, (u) => `${u.atlas_url}/api/places/search/json?query=${word}`)
        } else if (pick < 0.85) {
          const j = join(
            { datasetSource: 'points', selectionParamSource: 'id' },
            box(70 + random() * 24, 10 + random() * 24, 1),
          )
          await call('join', user, j.url, { method: 'POST', body: j.body })
        } else if (pick < 0.95) {
          const j = join({ datasetSource: 'cells', selectionParamSource: 'id,geom' }, box(67, 7, 31))
          await call('export', user, j.url, { method: 'POST', body: j.body })
        } else {
          const name = `saved_${user}_${++saved}`
          const j = join(
            {
              datasetSource: 'points',
              selectionParamSource: 'id',
              saveAsNewDataset: 'true',
              newDatasetNme: name,
            },
            box(70 + random() * 24, 10 + random() * 24, 0.5),
          )
          await call('save', user, j.url, { method: 'POST', body: j.body })
        }
        await sleep(500 + random() * 2000)
      }
    }
    // The heavy user is another analyst's machine: a process of its own (`team-heavy.ts`), for one heavy
    // phase: it leaves its joins in flight when the phase ends.
    let heavyOver = false
    async function heavy(): Promise<void> {
      const j = join({ datasetSource: 'points', selectionParamSource: 'id,geom' }, box(67, 7, 31))
      const child = fork(path.join(import.meta.dirname, 'team-heavy.ts'), [], {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      })
      const base = instances[0]!.urls.mgis_url!
      child.send({
        start: {
          urls: instances.map((s) => s.urls),
          token: tokens.get('heavy')!,
          caPem: pki.caPem,
          joins: HEAVY_JOINS,
          url: j.url(instances[0]!.urls).slice(base.length),
          body: j.body,
        },
      })
      const done = new Promise<{ status: number; ms: number; retryAfter: boolean }[]>((resolve, reject) => {
        child.once('message', (m) => resolve((m as { samples: [] }).samples))
        child.once('exit', (code) => reject(new Error(`the heavy user's process stopped (code ${code})`)))
      })
      while (!stopping && !heavyOver) await sleep(100)
      child.send({ stop: true })
      for (const s of await done) samples.push({ op: 'heavy join', user: 'heavy', phase: 'heavy', ...s })
    }
    async function probe(): Promise<void> {
      while (!stopping) {
        await list('probe')
        await sleep(250)
      }
    }

    const rss: Array<{ at: number; mib: number[] }> = []
    const started = performance.now()
    const sampler = setInterval(
      () =>
        rss.push({
          at: (performance.now() - started) / 1000,
          mib: instances.map((s) => rssMiB(s.child.pid!)),
        }),
      15_000,
    )
    const workers = [
      ...Array.from({ length: ANALYSTS }, (_, i) => analyst(`analyst${i + 1}`, i * 7919 + 1)),
      probe(),
    ]
    for (const step of PHASES) {
      phase = step.phase
      heavyOver = false
      const heavyUser = step.phase === 'heavy' ? heavy() : undefined
      await sleep(step.eighths * EIGHTH_MS)
      heavyOver = true
      await heavyUser
    }
    stopping = true
    await Promise.all(workers)
    clearInterval(sampler)
    rss.push({ at: (performance.now() - started) / 1000, mib: instances.map((s) => rssMiB(s.child.pid!)) })

    console.log(
      `\n${ANALYSTS} analysts, ${MINUTES} min: without and with the heavy user's ${HEAVY_JOINS} joins at once in turns (${PHASES.map((p) => `${((p.eighths * EIGHTH_MS) / 1000).toFixed(0)} s ${p.phase}`).join(', ')}), two instances, HTTPS keep-alive; ${samples.filter((x) => x.op === 'save' && x.status === 200).length} datasets saved in the run (each list lists them):`,
    )
    console.log(
      [
        'operation'.padEnd(11),
        'phase'.padEnd(6),
        'count',
        '2xx',
        '429',
        '503',
        'other',
        'p50 ms',
        'p95 ms',
      ].join(' | '),
    )
    for (const op of ['list', 'autosuggest', 'join', 'export', 'save', 'heavy join'] as const)
      for (const ph of ['quiet', 'heavy'] as const) {
        const of = samples.filter((s) => s.op === op && s.phase === ph)
        if (of.length === 0) continue
        const ok = of.filter((s) => s.status >= 200 && s.status < 300)
        console.log(
          [
            op.padEnd(11),
            ph.padEnd(6),
            String(of.length).padStart(5),
            String(ok.length).padStart(3),
            String(of.filter((s) => s.status === 429).length).padStart(3),
            String(of.filter((s) => s.status === 503).length).padStart(3),
            String(
              of.filter((s) => !(s.status >= 200 && s.status < 300) && s.status !== 429 && s.status !== 503)
                .length,
            ).padStart(5),
            pct(
              ok.map((s) => s.ms),
              0.5,
            )
              .toFixed(1)
              .padStart(6),
            pct(
              ok.map((s) => s.ms),
              0.95,
            )
              .toFixed(1)
              .padStart(6),
          ].join(' | '),
        )
      }
    const bad = samples.filter(
      (s) =>
        !(s.status >= 200 && s.status < 300) && !((s.status === 429 || s.status === 503) && s.retryAfter),
    )
    const statuses = [...new Set(bad.map((s) => `${s.op} ${s.status}`))].join(', ')
    console.log(
      `\nErrors other than 429/503 with Retry-After: ${bad.length}${bad.length ? ` (${statuses})` : ''} (aim: 0)`,
    )
    const listsUnderJoins = samples.filter((s) => s.op === 'list' && s.phase === 'heavy' && s.status === 200)
    console.log(
      `Dataset list p95 while the heavy joins run (all users): ${pct(
        listsUnderJoins.map((s) => s.ms),
        0.95,
      ).toFixed(1)} ms (aim ≤ 50 ms)`,
    )
    const probeP95 = (ph: Sample['phase']) =>
      pct(
        samples.filter((s) => s.user === 'probe' && s.phase === ph && s.status === 200).map((s) => s.ms),
        0.95,
      )
    const quiet = probeP95('quiet')
    const loaded = probeP95('heavy')
    console.log(
      `Probe user's list p95: ${quiet.toFixed(1)} ms without the heavy user, ${loaded.toFixed(1)} ms with: ${(loaded / quiet).toFixed(2)}× (aim ≤ 2×)`,
    )
    for (const ph of ['quiet', 'heavy'] as const) {
      const of = loops.filter((l) => l.phase === ph)
      console.log(
        `Instances' event-loop delay, ${ph}: p99 of 5 s windows median ${pct(
          of.map((l) => l.p99),
          0.5,
        ).toFixed(
          1,
        )} ms, worst ${Math.max(...of.map((l) => l.p99)).toFixed(1)} ms; longest ${Math.max(...of.map((l) => l.max)).toFixed(1)} ms; CPU median ${pct(
          of.map((l) => l.cpuPercent),
          0.5,
        ).toFixed(0)} % of a core`,
      )
    }
    console.log('Resident memory (MiB) of the instances over time:')
    for (const r of rss)
      console.log(
        `  ${r.at.toFixed(0).padStart(4)} s  ${r.mib.map((m) => m.toFixed(0).padStart(5)).join('  ')}`,
      )
  } finally {
    for (const s of instances) s.child.disconnect()
    await Promise.all(
      instances.map(
        (s) => new Promise((r) => (s.child.exitCode !== null ? r(null) : s.child.once('exit', r))),
      ),
    )
    await agent.close()
    await cluster.stop()
    await pki.remove()
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
