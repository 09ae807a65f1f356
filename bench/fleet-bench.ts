/**
 * Fleet benchmark (decision 015): the simulated fleet at 100, 1,000 and 5,000 vehicles on the bundled
 * Gothenburg network, with 100 alarm configurations of every kind. Prints medians side by side:
 *
 * - tick: one one-second step of every device (motion, CAN, geofences) and of the alarm engine, inside the
 *   service (its own clock; route planning runs in the worker pool and is not part of a tick);
 * - alarm evaluation: the alarm engine's share of a tick, per configuration and per bound device;
 * - full list: `GET /telematics/devices` of every device through HTTP (a real service on 127.0.0.1), in
 *   both forms side by side: the §2.6 records and the local extension `form=columns` (what the app and
 *   `telematics devices --watch` use against the local service), each the first call after a tick (built then);
 *   and the §2.6 list asked again in the same second (its text is kept until the next tick);
 * - read by the core: what the core's `telematics.poll` does with each answer before the app gets columns (§2.6:
 *   parse, check every record, turn the records into columns; columns: parse and check the arrays);
 * - poll: `GET /telematics/devices?state=…` after two seconds, through HTTP, in both forms;
 * - built: the service's own time for the full list (its Server-Timing header), from each device's record
 *   text (cached until the device changes), beside `JSON.stringify` of the same §2.6 records given as
 *   objects (the alternative decision 015 weighed).
 *
 * The machine may be shared: each figure is the median, with the best run beside it (the least disturbed).
 *
 *   npm run bench:fleet                  100, 1,000 and 5,000 devices
 *   npm run bench:fleet -- --sizes 100,1000
 */
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { devicesResponseSchema } from '../electron/contract/telematics/devices'
import { devicesColumnsResponseSchema } from '../electron/contract/telematics/fleet'
import { deviceColumns } from '../electron/core/telematics/handlers'
import { startLocalService, type LocalService } from '../electron/local-service'

const { values } = parseArgs({ options: { sizes: { type: 'string' }, ticks: { type: 'string' } } })
const SIZES = (values.sizes ?? '100,1000,5000').split(',').map(Number)
const TICKS = Number(values.ticks ?? 30)
const CONFIGURATIONS = 100
const TOKEN = 'bench-token-for-the-fleet'

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const fmt = (n: number, width = 9) =>
  (Number.isFinite(n) ? n.toFixed(n < 1 ? 3 : n < 10 ? 2 : 1) : '—').padStart(width)

/** 100 configurations over the fleet: every alarm type of §2.8, each naming a twentieth of the devices. */
function configurations(vehicles: number, geofenceIds: number[]): Array<Record<string, unknown>> {
  const kinds: Array<Record<string, unknown>> = [
    { alarmType: 22, limit: 60, duration: 10 },
    { alarmType: 27, duration: 300 },
    { alarmType: 28, duration: 120 },
    { alarmType: 29, duration: 30 },
    { alarmType: 21, type: 1 },
    { alarmType: 21, type: 5 },
    { alarmType: 126, duration: 120 },
    { alarmType: 146, duration: 60 },
    { alarmType: 129, limit: 11800, duration: 60 },
    { alarmType: 161, limit: 3600, duration: 60 },
    { alarmType: 133, type: 0, limit: 50 },
    { alarmType: 133, type: 1, limit: 1000 },
    { alarmType: 151, type: 1, limit: 5, duration: 3600 },
    { alarmType: 151, type: 2, limit: 1, duration: 1800 },
    { alarmType: 24 },
    { alarmType: 23 },
    ...(geofenceIds.length
      ? [
          { alarmType: 26, type: 1, geofenceId: geofenceIds },
          { alarmType: 26, type: 4, geofenceId: geofenceIds, duration: 600 },
        ]
      : []),
  ]
  const span = Math.max(1, Math.round(vehicles / 20))
  return Array.from({ length: CONFIGURATIONS }, (_, i) => {
    const first = ((i * 37) % vehicles) + 1
    const deviceId = Array.from({ length: span }, (_, k) => ((first - 1 + k) % vehicles) + 1)
    return { ...kinds[i % kinds.length], deviceId, severity: i % 2 }
  })
}

/** Median and best of a series. */
interface Figure {
  median: number
  best: number
}
const figure = (xs: number[]): Figure => ({ median: median(xs), best: Math.min(...xs) })

interface Measured {
  vehicles: number
  prepareS: number
  tickBare: Figure
  tick: Figure
  alarm: Figure
  bindings: number
  list: Figure
  listAgain: Figure
  listBytes: number
  columns: Figure
  columnsBuilt: Figure
  columnsBytes: number
  columnsPoll: Figure
  readRecords: Figure
  readColumns: Figure
  built: Figure
  stringify: Figure
  poll: Figure
  pollDevices: number
}

async function measure(vehicles: number): Promise<Measured> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'geo-fleet-bench-'))
  // A weekday morning in Gothenburg: vehicles leave their parking places.
  let clock = Date.UTC(2026, 0, 13, 6, 30, 0)
  let service: LocalService | undefined
  let serverMs = NaN
  try {
    service = await startLocalService({
      workspaceDir: dir,
      token: TOKEN,
      sampleData: false,
      now: () => clock,
    })
    const base = service.urls.telematics_url
    const call = async (method: string, pathname: string, body?: unknown) => {
      const response = await fetch(base + pathname, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await response.text()
      if (!response.ok)
        throw new Error(`${method} ${pathname}: HTTP ${response.status} ${text.slice(0, 300)}`)
      serverMs = Number(/dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '')?.[1] ?? NaN)
      return text
    }
    const stats = async () =>
      (
        JSON.parse(await call('GET', '/local/fleet')) as {
          stats: { stepMs: number; alarmMs: number; bindings: number }
        }
      ).stats
    const started = performance.now()
    await call('PUT', '/local/fleet', { vehicles, seed: 42 })
    await call('POST', '/local/fleet/zones')
    await call('GET', '/devices?id=1')
    // Ten minutes of the morning, so trips are under way (routes are planned in the worker pool meanwhile).
    for (let s = 0; s < 600; s += 10) {
      clock += 10_000
      await call('GET', '/devices?id=1')
    }
    const prepareS = (performance.now() - started) / 1000

    /** One second of the clock: the next call runs the step; the service reports what it took. */
    const tick = async () => {
      clock += 1000
      await call('GET', '/devices?id=1')
      return stats()
    }
    const bare: number[] = []
    for (let i = 0; i < TICKS; i++) bare.push((await tick()).stepMs)

    const fences = JSON.parse(await call('GET', '/local/geofences')) as { features: Array<{ id: number }> }
    for (const config of configurations(
      vehicles,
      fences.features.map((f) => f.id),
    ))
      await call('POST', '/alarm', config)

    const ticks: number[] = []
    const alarms: number[] = []
    const lists: number[] = []
    const listsAgain: number[] = []
    const columnLists: number[] = []
    const columnsBuilt: number[] = []
    const columnPolls: number[] = []
    let columnsBytes = 0
    const readRecords: number[] = []
    const readColumns: number[] = []
    const built: number[] = []
    const stringified: number[] = []
    const polls: number[] = []
    let bindings = 0
    let listBytes = 0
    let pollDevices = 0
    for (let i = 0; i < TICKS; i++) {
      const s = await tick()
      ticks.push(s.stepMs)
      alarms.push(s.alarmMs)
      bindings = s.bindings
      // The full list right after a tick: the records of the devices that reported are built again.
      let t = performance.now()
      const list = await call('GET', '/devices')
      lists.push(performance.now() - t)
      built.push(serverMs)
      listBytes = Buffer.byteLength(list)
      t = performance.now()
      const columns = await call('GET', '/devices?form=columns')
      columnLists.push(performance.now() - t)
      columnsBuilt.push(serverMs)
      columnsBytes = Buffer.byteLength(columns)
      t = performance.now()
      await call('GET', '/devices')
      listsAgain.push(performance.now() - t)
      t = performance.now()
      const fromRecords = deviceColumns(devicesResponseSchema.parse(JSON.parse(list)).data)
      readRecords.push(performance.now() - t)
      t = performance.now()
      const fromColumns = devicesColumnsResponseSchema.parse(JSON.parse(columns)).devices
      readColumns.push(performance.now() - t)
      if (fromColumns.id.length !== fromRecords.id.length)
        throw new Error(`columns list ${fromColumns.id.length} devices, §2.6 ${fromRecords.id.length}`)
      const parsed = JSON.parse(list) as { data: unknown[]; serverTime: number }
      t = performance.now()
      JSON.stringify(parsed.data)
      stringified.push(performance.now() - t)
      // Two seconds later, what changed since.
      clock += 2000
      await call('GET', '/devices?id=1')
      t = performance.now()
      const poll = await call('GET', `/devices?state=${parsed.serverTime}`)
      polls.push(performance.now() - t)
      pollDevices = (JSON.parse(poll) as { data: unknown[] }).data.length
      t = performance.now()
      const columnPoll = await call('GET', `/devices?form=columns&state=${parsed.serverTime}`)
      columnPolls.push(performance.now() - t)
      const polled = (JSON.parse(columnPoll) as { devices: { id: number[] } }).devices.id.length
      if (polled !== pollDevices)
        throw new Error(`the columns poll has ${polled} devices, the §2.6 poll ${pollDevices}`)
    }
    return {
      vehicles,
      prepareS,
      tickBare: figure(bare),
      tick: figure(ticks),
      alarm: figure(alarms),
      bindings,
      list: figure(lists),
      listAgain: figure(listsAgain),
      listBytes,
      columns: figure(columnLists),
      columnsBuilt: figure(columnsBuilt),
      columnsBytes,
      columnsPoll: figure(columnPolls),
      readRecords: figure(readRecords),
      readColumns: figure(readColumns),
      built: figure(built),
      stringify: figure(stringified),
      poll: figure(polls),
      pollDevices,
    }
  } finally {
    await service?.close()
    await rm(dir, { recursive: true, force: true })
  }
}

console.log(
  `# bench:fleet — simulated fleet on the Gothenburg sample, ${CONFIGURATIONS} alarm configurations`,
)
console.log(
  `${new Date().toISOString()}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${os.cpus().length} cores`,
)
console.log(`milliseconds, median of ${TICKS} (best in brackets); HTTP through a real service on 127.0.0.1\n`)
const rows: Measured[] = []
for (const size of SIZES) {
  const m = await measure(size)
  rows.push(m)
  console.log(`prepared ${size} vehicles and ten minutes of driving in ${m.prepareS.toFixed(1)} s`)
}
const both = (f: Figure) => `${fmt(f.median, 7)} (${fmt(f.best, 0)})`.padStart(16)
const columns: Array<[string, (m: Measured) => string]> = [
  ['devices', (m) => String(m.vehicles)],
  ['tick, no alarms', (m) => both(m.tickBare)],
  ['tick, 100 alarms', (m) => both(m.tick)],
  ['alarm evaluation', (m) => both(m.alarm)],
  ['µs/configuration', (m) => fmt((m.alarm.median * 1000) / CONFIGURATIONS)],
  ['ns/bound device', (m) => fmt((m.alarm.median * 1e6) / Math.max(1, m.bindings))],
  ['full list §2.6', (m) => both(m.list)],
  ['  built (service)', (m) => both(m.built)],
  ['  JSON.stringify', (m) => both(m.stringify)],
  ['  again, same s', (m) => both(m.listAgain)],
  ['  KiB', (m) => fmt(m.listBytes / 1024)],
  ['full list columns', (m) => both(m.columns)],
  ['  built (service)', (m) => both(m.columnsBuilt)],
  ['  KiB', (m) => fmt(m.columnsBytes / 1024)],
  ['core reads §2.6', (m) => both(m.readRecords)],
  ['core reads columns', (m) => both(m.readColumns)],
  ['state poll §2.6', (m) => both(m.poll)],
  ['state poll columns', (m) => both(m.columnsPoll)],
  ['  devices polled', (m) => String(m.pollDevices)],
]
console.log('')
for (const [name, cell] of columns)
  console.log(name.padEnd(18) + rows.map((m) => cell(m).padStart(18)).join(''))
const last = rows.at(-1)
if (last)
  console.log(
    `\nat ${last.vehicles}: tick ${last.tick.median.toFixed(1)} ms (target ≤ 20); full list through HTTP: columns ${last.columns.median.toFixed(1)} ms (target ≤ 30), §2.6 ${last.list.median.toFixed(1)} ms (target ≤ 60)`,
  )
