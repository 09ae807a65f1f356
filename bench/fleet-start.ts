/**
 * Fleet start-up benchmark (issue 27): how long a fresh simulated fleet takes to answer its first
 * `GET /telematics/devices`, and what it shows then — the share of active vehicles moving, beside the share
 * the model gives for the hour (`GET /telematics/local/fleet` → `model.movingShare`). The fleet starts in the
 * steady state of the hour: every vehicle's first trip is planned at the start and each vehicle is placed by
 * a draw from the model's stationary distribution. The alternative — fast-forwarding a day of one-second
 * ticks from a parked fleet — is measured by running the started fleet's clock forward one hour (ticks and
 * the trips planned meanwhile) and multiplying by 24.
 *
 * A real service on 127.0.0.1 with its clock at a weekday hour; the road network's contraction hierarchy is
 * built once beforehand (a workspace that has used the network before), so the figures are the fleet's own.
 * The machine may be shared: each figure is the median of the runs, with the best beside it.
 *
 * Then the drive model's estimate that the start relies on (`estimateDrive`), against the drive model itself:
 * vehicles of every kind stepped second by second along the same trips, their seconds driving and standing
 * in traffic beside the estimate; and the stationary share of cars driving (what the start draws from) beside
 * the share one trip per vehicle would give.
 *
 *   node --import tsx bench/fleet-start.ts                         25, 1,000 and 5,000 vehicles at 08:00
 *   node --import tsx bench/fleet-start.ts --sizes 25,1000 --hour 13 --runs 3 --forward 25,1000
 */
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { startLocalService } from '../electron/local-service'
import { listNetworks, SAMPLE_NETWORK } from '../electron/local-service/routing/data/networks'
import { DAY_PROFILES } from '../electron/local-service/telematics/engine/day-profile'
import { estimateDrive } from '../electron/local-service/telematics/engine/drive-estimate'
import { hardwareFor } from '../electron/local-service/telematics/engine/fleet'
import { hash32, Rng } from '../electron/local-service/telematics/engine/random'
import { phaseMeans, SAMPLED_TRIPS } from '../electron/local-service/telematics/engine/steady-state'
import { Vehicle } from '../electron/local-service/telematics/engine/vehicle'
import { VEHICLE_KINDS } from '../electron/local-service/telematics/engine/vehicle-types'
import { planPoints, planTrips } from '../electron/local-service/telematics/jobs'

const { values } = parseArgs({
  options: {
    sizes: { type: 'string' },
    hour: { type: 'string' },
    runs: { type: 'string' },
    forward: { type: 'string' },
    trips: { type: 'string' },
  },
})
const SIZES = (values.sizes ?? '25,1000,5000').split(',').map(Number)
/** Local hour in Gothenburg (CET in January: UTC + 1). */
const HOUR = Number(values.hour ?? 8)
const RUNS = Number(values.runs ?? 3)
const TRIPS = Number(values.trips ?? 100)
const FORWARD = new Set((values.forward ?? '25,1000').split(',').map(Number))
const TOKEN = 'bench-token-for-the-fleet-start'

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const both = (xs: number[]) => `${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)})`

interface Devices {
  data: Array<{ location: { speedKph: number } }>
  serverTime: number
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'geo-fleet-start-'))
let clock = Date.UTC(2026, 0, 13, HOUR - 1, 0, 0)
const service = await startLocalService({
  workspaceDir: dir,
  token: TOKEN,
  sampleData: false,
  now: () => clock,
})
const call = async (method: string, pathname: string, body?: unknown) => {
  const response = await fetch(service.urls.telematics_url + pathname, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${pathname}: HTTP ${response.status} ${text.slice(0, 300)}`)
  return JSON.parse(text) as unknown
}
const moving = (d: Devices) =>
  d.data.filter((x) => x.location.speedKph > 0).length / Math.max(1, d.data.length)

try {
  // The network and its hierarchy, loaded and built once (as in a workspace that has used it before).
  await call('PUT', '/local/fleet', { vehicles: 5, seed: 999 })
  await call('GET', '/devices')
  console.log(`# fleet start-up — Gothenburg sample, ${String(HOUR).padStart(2, '0')}:00 local, seconds`)
  console.log(
    'vehicles   first list: median (best)   first minute   moving at start   model says   one hour forward   a day (×24)',
  )
  let seed = 1
  for (const size of SIZES) {
    const starts: number[] = []
    const minutes: number[] = []
    const shares: number[] = []
    const models: number[] = []
    let forward = NaN
    for (let run = 0; run < (size >= 5000 ? 1 : RUNS); run++) {
      // A new seed: a new fleet (the answer to the change is the new fleet's status, once it is ready).
      const t = performance.now()
      await call('PUT', '/local/fleet', { vehicles: size, seed: seed++ })
      const first = (await call('GET', '/devices')) as Devices
      starts.push((performance.now() - t) / 1000)
      shares.push(moving(first))
      // The fleet's first minute: the next answer after a minute of its clock.
      clock += 60_000
      await call('GET', '/devices?id=1')
      minutes.push((performance.now() - t) / 1000)
      const status = (await call('GET', '/local/fleet')) as { model?: { movingShare: number } }
      models.push(status.model?.movingShare ?? NaN)
      if (run === 0 && FORWARD.has(size)) {
        const from = performance.now()
        // Ten-minute catch-ups (a catch-up runs at most 1,000 steps at 5,000 vehicles).
        for (let s = 0; s < 6; s++) {
          clock += 600_000
          await call('GET', '/devices?id=1')
        }
        forward = (performance.now() - from) / 1000
      }
      clock = Date.UTC(2026, 0, 13, HOUR - 1, 0, 0)
    }
    console.log(
      [
        String(size).padStart(8),
        both(starts).padStart(28),
        median(minutes).toFixed(2).padStart(15),
        median(shares).toFixed(3).padStart(17),
        median(models).toFixed(3).padStart(12),
        (Number.isFinite(forward) ? forward.toFixed(1) : '—').padStart(18),
        (Number.isFinite(forward) ? (forward * 24).toFixed(0) : '—').padStart(13),
      ].join(''),
    )
  }
} finally {
  await service.close()
  await rm(dir, { recursive: true, force: true })
}

// ---- The drive estimate against stepping the drive model ----

const network = (await listNetworks(undefined)).find((n) => n.id === SAMPLE_NETWORK.id)
if (!network) throw new Error('the bundled sample network is missing: npm run data:routing')
const ref = { id: network.id, file: network.file, bbox: network.bbox }
const cacheDir = await mkdtemp(path.join(os.tmpdir(), 'geo-fleet-start-ch-'))
try {
  const seeds = Array.from({ length: TRIPS }, (_, i) => hash32(9, i + 1, -1))
  const { points } = await planPoints({ network: ref, seeds })
  const legs = points.map((from, i) => ({ from, toSeed: hash32(9, i + 1, 0) }))
  const routes = (await planTrips({ network: ref, cacheDir, legs })).routes
  const t0 = Math.floor(Date.UTC(2026, 0, 13, 9) / 1000)
  console.log(`\n# drive model stepped vs estimated, ${TRIPS} trips of the sample network, mean seconds`)
  console.log('kind              driving: stepped  estimated   ratio   standing: stepped  estimated')
  for (const type of Object.keys(VEHICLE_KINDS) as Array<keyof typeof VEHICLE_KINDS>) {
    let stepped = 0
    let estimated = 0
    let standing = 0
    let standingEstimate = 0
    let n = 0
    for (const [i, route] of routes.entries()) {
      if (!route) continue
      const hardware = hardwareFor(i + 1, 'gps', 1, t0, true, type)
      const v = new Vehicle({
        ...{ id: i + 1, type, tracker: 'gps', active: true, seed: hash32(3, i, type.length) },
        ...{ name: type, registrationNumber: 'BENCH', hardware, start: points[i]!, t0, odometer: 1000 },
      })
      v.setNextLeg(route)
      v.phaseEnd = t0 + 1
      const estimate = estimateDrive(route, v.kind, v.aggression)
      estimated += estimate.seconds
      standingEstimate += estimate.stopped
      for (let t = t0 + 1; t < t0 + 20_000 && v.phase !== 'arrived'; t++) {
        v.beginStep()
        v.step({ t, localHour: 10, offset: 3600, dayChanged: false, monthChanged: false })
        if (v.phase === 'driving') {
          stepped++
          if (v.v <= 0.05) standing++
        }
      }
      n++
    }
    console.log(
      [
        type.padEnd(16),
        (stepped / n).toFixed(0).padStart(18),
        (estimated / n).toFixed(0).padStart(11),
        (stepped / estimated).toFixed(3).padStart(8),
        (standing / n).toFixed(0).padStart(19),
        (standingEstimate / n).toFixed(0).padStart(11),
      ].join(''),
    )
  }
  // The start weighs the driving phase by the mean trip (the stationary share) and picks the trip in
  // progress in proportion to its length; weighing each vehicle by one trip of its own would be cheaper in
  // thought but biased low (a trip's share of its cycle is concave in its length).
  const car = VEHICLE_KINDS.car
  const drives = routes.flatMap((r) => (r ? [estimateDrive(r, car, 1)] : []))
  const trip = (seconds: number) => ({ seconds, stopped: 0, metres: 0 })
  const cycle = (m: ReturnType<typeof phaseMeans>) =>
    m.parked + m.starting + m.driving + m.arrived + m.working
  const meanDrive = drives.reduce((a, d) => a + d.seconds, 0) / drives.length
  const lengthBiased = drives.reduce((a, d) => a + d.seconds ** 2, 0) / drives.length / meanDrive
  console.log(
    `\ncars' trips: mean ${meanDrive.toFixed(0)} s; a trip in progress is ${lengthBiased.toFixed(0)} s on average (length-biased)`,
  )
  for (const hour of [8, 13, 22]) {
    const activity = DAY_PROFILES[car.day][hour]!
    const own =
      drives.reduce((a, d) => a + d.seconds / cycle(phaseMeans(car, activity, trip(d.seconds))), 0) /
      drives.length
    const exact = meanDrive / cycle(phaseMeans(car, activity, trip(meanDrive)))
    // What the start does: each vehicle's mean over a sample of SAMPLED_TRIPS trips.
    const rng = new Rng(hour)
    let sampled = 0
    for (let i = 0; i < 10_000; i++) {
      let sum = 0
      for (let k = 0; k < SAMPLED_TRIPS; k++) sum += drives[Math.floor(rng.next() * drives.length)]!.seconds
      sampled += sum / SAMPLED_TRIPS / cycle(phaseMeans(car, activity, trip(sum / SAMPLED_TRIPS))) / 10_000
    }
    const off = (x: number) => `${(((x - exact) / exact) * 100).toFixed(1)} %`
    console.log(
      `cars driving at ${hour}:00 — stationary ${exact.toFixed(4)}; a mean of ${SAMPLED_TRIPS} trips each ${sampled.toFixed(4)} (${off(sampled)}); one trip of their own ${own.toFixed(4)} (${off(own)})`,
    )
  }
} finally {
  await rm(cacheDir, { recursive: true, force: true })
}
