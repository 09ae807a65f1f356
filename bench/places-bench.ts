/**
 * Places benchmark: the gazetteer's storage formats (load time, memory, size; decision 007), the
 * standardizer's accuracy per field on the labelled addresses (test/fixtures/places) and its latency, and
 * autosuggest's latency over generated queries (prefixes of 1–12 characters, typos, Hindi, several words,
 * with and without a location) with how often the intended place is among the first five.
 *
 *   npm run bench:places                 all of it
 *   npm run bench:places -- --misses     also list the standardizer's misses
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { gzipSync } from 'node:zlib'
import { decompress } from '../electron/local-service/places/data/columns-file'
import { Gazetteer, KINDS, type PlaceRow } from '../electron/local-service/places/data/gazetteer'
import { resolveGazetteerFile } from '../electron/local-service/places/data/resolve'
import { autosuggest, prepareAutosuggest } from '../electron/local-service/places/engine/autosuggest'
import { prepareStandardizer, standardize } from '../electron/local-service/places/engine/woodpecker'
import {
  generatedAddresses,
  loadLabelledAddresses,
  scoreAddresses,
  type GeneratedAddress,
} from '../test/support/places-fixtures'
import { makeQueries, type Category } from './places-bench-queries'

const root = path.resolve(import.meta.dirname, '..')
const dataDir = path.join(root, 'bench', '.data', 'places')
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] ?? NaN
}
const ms = (n: number) => n.toFixed(n < 10 ? 2 : 1).padStart(8)

function rowsOf(g: Gazetteer): PlaceRow[] {
  const rows: PlaceRow[] = []
  for (let i = 0; i < g.size; i++)
    rows.push({
      kind: g.kindOf(i),
      name: g.name(i),
      hi: g.hindi(i),
      alts: g.alts(i),
      lat: g.latitude(i),
      lon: g.longitude(i),
      state: g.state[i]!,
      district: g.district[i]!,
      subDistrict: g.subDistrict[i]!,
      city: g.city[i]!,
      pin: g.pin[i]!,
      population: g.population[i]!,
      importance: g.importance[i]!,
      eloc: g.eloc(i),
    })
  return rows
}

function formats(file: string, g: Gazetteer) {
  console.log('\n## Gazetteer storage (decision 007): load at service start, memory held, file size')
  mkdirSync(dataDir, { recursive: true })
  const raw = decompress(readFileSync(file))
  const files: Record<string, string> = {
    brotli: file,
    gzip: path.join(dataDir, 'gazetteer.gz'),
    raw: path.join(dataDir, 'gazetteer.raw'),
    json: path.join(dataDir, 'gazetteer-rows.json.gz'),
  }
  writeFileSync(files.gzip!, gzipSync(raw, { level: 9 }))
  writeFileSync(files.raw!, raw)
  writeFileSync(files.json!, gzipSync(JSON.stringify({ rows: rowsOf(g), meta: g.meta }), { level: 9 }))
  const labels: Record<string, string> = {
    brotli: 'columns + index, brotli (shipped)',
    gzip: 'columns + index, gzip',
    raw: 'columns + index, uncompressed',
    json: 'rows as JSON (gzip), index built at load',
  }
  console.log(
    'format                                      size MiB   load ms (median)  first ms  held MiB  rss MiB  load/shipped',
  )
  let prepare = ''
  let base = 0
  for (const [format, f] of Object.entries(files)) {
    const out = execFileSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', path.join(root, 'bench', 'places-load.ts'), format, f, '5'],
      { cwd: root, encoding: 'utf8' },
    )
    const r = JSON.parse(out.trim().split('\n').pop()!) as {
      medianMs: number
      firstMs: number
      heldMiB: number
      rssMiB: number
      prepareMs: number
      preparedMiB: number
    }
    if (format === 'brotli') {
      base = r.medianMs
      prepare = `then the engines' lookup tables: ${r.prepareMs.toFixed(0)} ms, ${r.preparedMiB.toFixed(1)} MiB more`
    }
    console.log(
      `${labels[format]!.padEnd(44)}${(statSync(f).size / 1048576).toFixed(2).padStart(8)}${ms(r.medianMs).padStart(18)}${ms(r.firstMs).padStart(10)}${r.heldMiB.toFixed(1).padStart(10)}${r.rssMiB.toFixed(1).padStart(9)}${(r.medianMs / base).toFixed(2).padStart(14)}`,
    )
  }
  console.log(prepare)
}

function accuracy(g: Gazetteer, showMisses: boolean) {
  const labelled = loadLabelledAddresses()
  const sets: Array<[string, typeof labelled]> = [
    ['all labelled addresses', labelled],
    ['the held-out ones (written after tuning)', loadLabelledAddresses(/holdout/)],
  ]
  for (const [label, items] of sets) {
    const { scores, misses } = scoreAddresses(items, (a) => standardize(g, a))
    console.log(`\n## Standardizer accuracy: ${label}, ${items.length} addresses (test/fixtures/places)`)
    console.log('field       labelled  predicted  correct  precision  recall')
    for (const s of scores)
      console.log(
        `${s.field.padEnd(12)}${String(s.labelled).padStart(8)}${String(s.predicted).padStart(11)}${String(s.correct).padStart(9)}${s.precision.toFixed(3).padStart(11)}${s.recall.toFixed(3).padStart(8)}`,
      )
    if (showMisses && items === labelled)
      for (const m of misses)
        console.log(`  miss ${m.field}: expected "${m.expected}", got "${m.got}" — ${m.address}`)
  }

  generated(g, showMisses)

  const times: number[] = []
  const cpu: number[] = []
  for (const item of labelled) standardize(g, item.address)
  for (let round = 0; round < 5; round++)
    for (const item of labelled) {
      const c = process.cpuUsage()
      const t = performance.now()
      standardize(g, item.address)
      times.push(performance.now() - t)
      const d = process.cpuUsage(c)
      cpu.push((d.user + d.system) / 1000)
    }
  console.log(
    `\nstandardizer latency (engine, ${times.length} calls): wall p50 ${pct(times, 50).toFixed(3)} ms  p95 ${pct(times, 95).toFixed(3)} ms  max ${Math.max(...times).toFixed(2)} ms; CPU time p50 ${pct(cpu, 50).toFixed(3)} ms  p95 ${pct(cpu, 95).toFixed(3)} ms`,
  )
}

/** Accuracy on addresses written from the gazetteer's places (test/support/places-fixtures.ts), by form. */
function generated(g: Gazetteer, showMisses: boolean) {
  // Seed 1 is the one the engine was tuned on; seed 2 was not looked at while tuning.
  for (const seed of [1, 2]) {
    const items = generatedAddresses(g, 2000, seed)
    const { scores, misses } = scoreAddresses(items, (a) => standardize(g, a))
    console.log(
      `\n## Standardizer accuracy: ${items.length} addresses written from the gazetteer's places (seed ${seed}${seed === 1 ? ', tuned on' : ', held out'})`,
    )
    console.log('field       labelled  predicted  correct  precision  recall')
    for (const s of scores.filter((s) => s.labelled))
      console.log(
        `${s.field.padEnd(12)}${String(s.labelled).padStart(8)}${String(s.predicted).padStart(11)}${String(s.correct).padStart(9)}${s.precision.toFixed(3).padStart(11)}${s.recall.toFixed(3).padStart(8)}`,
      )
    const form = new Map<string, GeneratedAddress['form']>(items.map((a) => [a.address, a.form]))
    const byForm = new Map<string, [number, number]>()
    for (const a of items) if (a.city) byForm.set(a.form, [0, (byForm.get(a.form)?.[1] ?? 0) + 1])
    for (const m of misses) if (m.field === 'city' && m.expected) byForm.get(form.get(m.address)!)![0]++
    console.log('city recall by form:')
    for (const [f, [missed, n]] of byForm)
      console.log(`  ${f.padEnd(46)}${String(n).padStart(5)}${(1 - missed / n).toFixed(3).padStart(8)}`)
    if (showMisses && seed === 1)
      for (const m of misses.filter((m) => m.field === 'city'))
        console.log(`  miss city: expected "${m.expected}", got "${m.got}" — ${m.address}`)
  }
}

function suggestBench(g: Gazetteer) {
  const queries = makeQueries(g, 1500)
  for (const q of queries.slice(0, 300)) autosuggest(g, q.params)
  const times: number[] = []
  const byCategory = new Map<Category, number[]>()
  const found = new Map<Category, [number, number]>()
  const cpu: number[] = []
  for (const q of queries) {
    const c = process.cpuUsage()
    const t = performance.now()
    const r = autosuggest(g, q.params)
    const dt = performance.now() - t
    const d = process.cpuUsage(c)
    cpu.push((d.user + d.system) / 1000)
    times.push(dt)
    byCategory.set(q.category, [...(byCategory.get(q.category) ?? []), dt])
    if (q.complete || q.category === 'near') {
      const [hit, all] = found.get(q.category) ?? [0, 0]
      const top = r?.suggestedLocations.slice(0, 5).map((s) => s.eLoc) ?? []
      found.set(q.category, [hit + (q.target && top.includes(q.target) ? 1 : 0), all + 1])
    }
  }
  console.log(`\n## Autosuggest (engine, ${queries.length} queries, after 300 warm-up queries)`)
  console.log('queries     count     p50 ms     p95 ms     p99 ms   intended place in top 5 (complete names)')
  const line = (label: string, xs: number[], f?: [number, number]) =>
    console.log(
      `${label.padEnd(10)}${String(xs.length).padStart(6)}${ms(pct(xs, 50)).padStart(11)}${ms(pct(xs, 95)).padStart(11)}${ms(pct(xs, 99)).padStart(11)}   ${f ? `${((100 * f[0]) / f[1]).toFixed(1)} % of ${f[1]}` : ''}`,
    )
  for (const [c, xs] of byCategory) line(c, xs, found.get(c))
  line('all', times)
  line('all (CPU)', cpu)
  console.log('(wall time includes waiting for a core on a shared machine; CPU time is the work itself)')
}

/** The same work through the local service's HTTP interface (a real server on 127.0.0.1, keep-alive client). */
async function httpBench(g: Gazetteer) {
  const { mkdtemp, rm } = await import('node:fs/promises')
  const os = await import('node:os')
  const { startLocalService } = await import('../electron/local-service/index')
  const dir = await mkdtemp(path.join(os.tmpdir(), 'geo-places-bench-'))
  const t0 = performance.now()
  const service = await startLocalService({ workspaceDir: dir, sampleData: false, token: 'bench' })
  const started = performance.now() - t0
  const headers = { authorization: 'Bearer bench' }
  try {
    const status = (await (
      await fetch(`${service.urls.atlas_url}/local/places/status`, { headers })
    ).json()) as {
      loadMs: number
      prepareMs: number
      heldBytes: number
      places: number
    }
    console.log('\n## Through HTTP (the local service on 127.0.0.1)')
    console.log(
      `service start ${started.toFixed(0)} ms (the gazetteer loads in the background); gazetteer load ${status.loadMs.toFixed(0)} ms + engines' tables ${status.prepareMs.toFixed(0)} ms, ${(status.heldBytes / 1048576).toFixed(0)} MiB held (heap + external growth, indicative), ${status.places} places`,
    )
    const queries = makeQueries(g, 1500)
    const url = (params: Record<string, unknown>) => {
      const q = new URLSearchParams()
      for (const [k, v] of Object.entries(params))
        if (v !== undefined && v !== false) q.set(k, v === true ? '' : String(v))
      return `${service.urls.atlas_url}/api/places/search/json?${q}`
    }
    for (const q of queries.slice(0, 300))
      await (await fetch(url(q.params as never), { headers })).arrayBuffer()
    const times: number[] = []
    const statuses = new Map<number, number>()
    for (const q of queries) {
      const t = performance.now()
      const r = await fetch(url(q.params as never), { headers })
      await r.arrayBuffer()
      times.push(performance.now() - t)
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1)
    }
    console.log(
      `autosuggest over HTTP, ${times.length} queries: p50 ${pct(times, 50).toFixed(2)} ms  p95 ${pct(times, 95).toFixed(2)} ms  p99 ${pct(times, 99).toFixed(2)} ms  (statuses ${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ')})`,
    )
    const addresses = loadLabelledAddresses().map((a) => a.address)
    for (const a of addresses)
      await (
        await fetch(
          `${service.urls.atlas_url}/api/places/woodpecker?${new URLSearchParams({ address: a })}`,
          { headers },
        )
      ).arrayBuffer()
    const wp: number[] = []
    for (let round = 0; round < 3; round++)
      for (const a of addresses) {
        const t = performance.now()
        const r = await fetch(
          `${service.urls.atlas_url}/api/places/woodpecker?${new URLSearchParams({ address: a })}`,
          {
            headers,
          },
        )
        await r.arrayBuffer()
        wp.push(performance.now() - t)
      }
    console.log(
      `woodpecker over HTTP, ${wp.length} calls: p50 ${pct(wp, 50).toFixed(2)} ms  p95 ${pct(wp, 95).toFixed(2)} ms  p99 ${pct(wp, 99).toFixed(2)} ms`,
    )
  } finally {
    await service.close()
    await rm(dir, { recursive: true, force: true })
  }
}

async function main() {
  const file = resolveGazetteerFile()
  if (!file) throw new Error('resources/data/places/gazetteer.bin not found: run npm run data:places')
  const t = performance.now()
  const g = Gazetteer.load(file)
  prepareStandardizer(g)
  prepareAutosuggest(g)
  console.log(
    `gazetteer: ${g.size} places (${KINDS.map((k) => `${k} ${(g.meta.counts as Record<string, number>)[k] ?? 0}`).join(', ')}), loaded and prepared in ${(performance.now() - t).toFixed(0)} ms`,
  )
  console.log('Machine: 2 shared cores (other work running); figures are indicative.')
  formats(file, g)
  accuracy(g, process.argv.includes('--misses'))
  suggestBench(g)
  if (!process.argv.includes('--no-http')) await httpBench(g)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
