import { DEVICE_TYPES, type DeviceType, type HardwareRecord } from '../../../contract/telematics/fleet'
import { utcOffsetSeconds } from '../../routing/data/speed-model'
import { addressLine, placeOfNetwork } from './address'
import { AlarmEngine } from './alarms/alarm-engine'
import type { AlarmRule, Calendar } from './alarms/evaluators'
import { activityAt, localHourOf } from './day-profile'
import type { StepTime, TrackedDevice } from './device'
import { GeofenceSet } from './geofences'
import { hash32, Rng } from './random'
import { deviceJson } from './record'
import { ReplayDevice, type StoredTrack } from './replay'
import { movingShare, sampleTrips, steadyStart } from './steady-state'
import type { TripRoute } from './trip-route'
import { Vehicle } from './vehicle'
import { TRACKERS, VEHICLE_KINDS, type TrackerKind } from './vehicle-types'

/** How the fleet gets its road positions and trips (the worker pool in the service, an engine in tests). */
export interface TripPlanner {
  /** One routable point per seed. */
  points(seeds: number[]): Promise<Array<[number, number]>>
  /** A route per leg: from a position to the routable point of `toSeed`; null when none. */
  trips(legs: Array<{ from: [number, number]; toSeed: number }>): Promise<Array<TripRoute | null>>
}

export interface FleetNetwork {
  id: string
  name: string
  timeZone: string
}

export interface FleetOptions {
  vehicles: number
  seed: number
  network: FleetNetwork | null
  planner: TripPlanner | null
  /** Unix milliseconds when the fleet starts (the service's clock). */
  startMs: number
  tracks?: StoredTrack[]
  geofences?: GeofenceSet
  rules?: AlarmRule[]
  /** Legs routed per pool job. */
  batch?: number
}

/** Hardware ids are the device id plus this (simulated 1–5,000, replayed from 10,001). */
export const HARDWARE_ID_OFFSET = 100_000
export const FIRST_REPLAY_ID = 10_001
/**
 * First legs planned before a fleet answers: the network's trips its start draws from (500 real routes keep a
 * large fleet's vehicles under way spread over many roads; planning them takes about a second in the pool).
 */
export const START_TRIPS = 500
const TYPE_LABEL: Readonly<Record<DeviceType, string>> = {
  car: 'Car',
  truck: 'Truck',
  bus: 'Bus',
  bike: 'Bike',
  tracktor: 'Tractor',
  'backhoe-loader': 'Backhoe loader',
  excavator: 'Excavator',
}
const DAY = 86_400
const YEAR = 365 * DAY

function pickShare<K extends string>(rng: Rng, shares: Readonly<Record<K, { share: number }>>): K {
  let x = rng.next()
  const keys = Object.keys(shares) as K[]
  for (const k of keys) {
    x -= shares[k].share
    if (x < 0) return k
  }
  return keys[keys.length - 1]!
}

/** A tracker's hardware record (§2.5a): ids, codes and dates follow from the fleet's seed and the device id. */
export function hardwareFor(
  deviceId: number,
  tracker: TrackerKind,
  seed: number,
  t0: number,
  active: boolean,
  label: string,
): HardwareRecord {
  const rng = new Rng(hash32(seed, deviceId, 11))
  const digits = Array.from({ length: 13 }, () => rng.int(0, 9)).join('')
  const code = `86${digits}`
  const installDate = t0 - rng.int(30, 3 * 365) * DAY
  const expiryDate = active
    ? Math.max(installDate + 3 * YEAR, t0 + rng.int(30, 365) * DAY)
    : t0 - rng.int(1, 90) * DAY
  const t = TRACKERS[tracker]
  return {
    id: HARDWARE_ID_OFFSET + deviceId,
    name: `${t.deviceType}-${code.slice(-6)} (${label})`,
    deviceType: t.deviceType,
    deviceTypeName: t.deviceTypeName,
    trackingCode: code,
    deviceCode: code,
    active,
    mappedDeviceIds: [deviceId],
    odometerType: t.odometerType,
    installDate,
    expiryDate,
  }
}

function registration(rng: Rng): string {
  const letters = 'ABCDEFGHJKLMNOPRSTUWXYZ'
  const l = () => letters[rng.int(0, letters.length - 1)]
  return `${l()}${l()}${l()} ${rng.int(100, 999)}`
}

/**
 * The local service's fleet: simulated vehicles on a road network and replayed tracks, their geofences, and
 * the alarm configurations evaluated on every one-second step of the service's clock. Deterministic: the same
 * seed, settings and clock give the same devices, positions and alerts, whenever the trips' routes arrive.
 */
export class Fleet {
  readonly vehicles: Vehicle[] = []
  readonly replays: ReplayDevice[] = []
  private devices: TrackedDevice[] = []
  private byId = new Map<number, TrackedDevice>()
  readonly alarms: AlarmEngine
  geofences: GeofenceSet
  /** Unix seconds of the last step. */
  step: number
  private readonly seed: number
  private readonly place: string
  private readonly timeZone: string
  private readonly planner: TripPlanner | null
  private readonly batch: number
  private ready: Promise<void>
  private preparing = true
  private chain: Promise<void> = Promise.resolve()
  private queue: Array<{ v: Vehicle; legNo: number; urgent: boolean }> = []
  private inFlight: Promise<void> | undefined
  private offset = 0
  private offsetUntil = -Infinity
  private calendar: Calendar = { day: -1, month: -1 }
  private readonly time: StepTime = { t: 0, localHour: 0, offset: 0, dayChanged: false, monthChanged: false }
  /** Wall-clock milliseconds the last step took, and its alarm evaluation (for `npm run bench:fleet`). */
  lastStepMs = 0
  lastAlarmMs = 0
  private failure: Error | undefined

  constructor(options: FleetOptions) {
    this.seed = options.seed
    this.step = Math.floor(options.startMs / 1000)
    this.place = placeOfNetwork(options.network?.name ?? 'Simulated fleet')
    this.timeZone = options.network?.timeZone ?? 'UTC'
    this.planner = options.planner
    this.batch = options.batch ?? 100
    this.geofences = options.geofences ?? new GeofenceSet([])
    this.alarms = new AlarmEngine(this.byId, (road) => this.address(road))
    for (const track of options.tracks ?? []) this.addReplay(track, false)
    this.ready = this.createVehicles(options.network && options.planner ? options.vehicles : 0)
    this.ready.catch((error: unknown) => (this.failure = error as Error))
    for (const rule of options.rules ?? []) this.alarms.add(rule)
  }

  address(road: string): string {
    return addressLine(road, this.place)
  }

  get isPreparing(): boolean {
    return this.preparing
  }

  get size(): number {
    return this.devices.length
  }

  device(id: number): TrackedDevice | undefined {
    return this.byId.get(id)
  }

  get all(): readonly TrackedDevice[] {
    return this.devices
  }

  private reindex(): void {
    this.devices = [...this.vehicles, ...this.replays]
    this.byId = new Map(this.devices.map((d) => [d.id, d]))
  }

  private async createVehicles(count: number): Promise<void> {
    if (count > 0 && this.planner) {
      const t0 = this.step
      const starts = await this.planner.points(
        Array.from({ length: count }, (_, i) => hash32(this.seed, i + 1, -1)),
      )
      for (let i = 0; i < count; i++) {
        const id = i + 1
        const rng = new Rng(hash32(this.seed, id, 7))
        const type = pickShare(rng, VEHICLE_KINDS)
        const work = VEHICLE_KINDS[type].work !== null
        let tracker = pickShare(rng, TRACKERS)
        if (work && tracker === 'beacon') tracker = 'gps'
        const active = rng.next() >= 0.04
        const label = `${TYPE_LABEL[type]} ${id}`
        this.vehicles.push(
          new Vehicle({
            id,
            type,
            tracker,
            active,
            seed: hash32(this.seed, id, 3),
            name: label,
            registrationNumber: registration(rng),
            hardware: hardwareFor(id, tracker, this.seed, t0, active, label),
            start: starts[i] ?? [0, 0],
            t0,
            odometer: rng.int(2_000, type === 'truck' || type === 'bus' ? 600_000 : 200_000),
          }),
        )
      }
    }
    await this.settle(this.step)
    this.reindex()
    this.alarms.rebind(this.byId, false)
    this.refreshGeofences()
    this.preparing = false
    // Plan the next trip of every vehicle that has none yet, soonest departures first (those under way last).
    const due = (v: Vehicle) => (v.phase === 'parked' ? v.phaseEnd : Number.MAX_SAFE_INTEGER)
    const order = [...this.vehicles].filter((v) => v.active).sort((a, b) => due(a) - due(b))
    for (const v of order) this.request(v, false)
  }

  /**
   * Start in the steady state of the hour, as if the fleet had been running all day. The first legs of up to
   * `START_TRIPS` vehicles are planned now (two batches at a time in the pool): they are the network's trips
   * the start draws from. Each vehicle is placed by a draw from the model's stationary distribution for the
   * hour (`steadyStart`), seeded by the fleet's seed, the vehicle and the start time — part of the way along
   * one of those trips, warming up at the start of one or arrived at the end of one, or parked with a dwell
   * left (its own first leg planned in the background, soonest departures first, like every next leg). Far
   * cheaper than running a day of steps (`node --import tsx bench/fleet-start.ts`).
   */
  private async settle(t0: number): Promise<void> {
    const planner = this.planner
    const active = this.vehicles.filter((v) => v.active)
    if (!planner || active.length === 0) return
    const first = active.slice(0, START_TRIPS)
    const legs = first.map((v) => ({ from: v.legStart, toSeed: hash32(this.seed, v.id, v.legs) }))
    const routes: Array<TripRoute | null> = []
    let next = 0
    // Two batches in flight (the pool's two workers), so other areas' jobs still get a turn.
    const lane = async () => {
      for (let at = next; at < legs.length; at = next) {
        next += this.batch
        const planned = await planner.trips(legs.slice(at, at + this.batch))
        planned.forEach((route, k) => (routes[at + k] = route))
      }
    }
    await Promise.all([lane(), lane()])
    const offset = utcOffsetSeconds(this.timeZone, t0)
    const network = routes.filter((r): r is TripRoute => r !== null)
    for (const [i, v] of active.entries()) {
      // A large fleet takes a while: the service answers others meanwhile.
      if (i % 200 === 199) await new Promise((resolve) => setImmediate(resolve))
      const own = routes[i] ?? null
      // No route to that point: it asks for another destination.
      if (i < first.length && !own) v.setNextLeg(null)
      const rng = new Rng(hash32(this.seed, v.id, t0, 29))
      const { trips, typical } = sampleTrips(network, v.kind, v.aggression, rng)
      v.typicalDrive = typical
      const { kind, tracker, aggression } = v
      v.settle(steadyStart({ kind, tracker, aggression, own, trips, typical, t0, offset }, rng), t0, offset)
    }
  }

  /**
   * The share of the active simulated vehicles the model has moving at the hour of `t` (the fleet's clock
   * when omitted): its steady state for that hour, what the devices list shows right after the start.
   */
  modelMovingShare(t = this.step): number {
    const offset = utcOffsetSeconds(this.timeZone, t)
    let sum = 0
    let n = 0
    for (const v of this.vehicles) {
      if (!v.active) continue
      n++
      sum += movingShare(v.kind, v.tracker, activityAt(v.kind.day, t, offset), v.typicalDrive)
    }
    return n > 0 ? sum / n : 0
  }

  /** The local hour (0–23, the network's time zone) of `t`, the fleet's clock when omitted. */
  localHour(t = this.step): number {
    return localHourOf(t, utcOffsetSeconds(this.timeZone, t))
  }

  /** Device types of the simulation, for documentation and tests. */
  static readonly deviceTypes = DEVICE_TYPES

  // ---- Replays ----

  addReplay(track: StoredTrack, rebind = true): ReplayDevice {
    const hardware = hardwareFor(track.deviceId, 'gps', this.seed, this.step, true, track.name)
    const device = new ReplayDevice(track, { ...hardware, deviceTypeName: 'Recorded track (replay)' })
    this.replays.push(device)
    if (rebind) {
      this.reindex()
      this.alarms.rebind(this.byId, false)
    }
    return device
  }

  removeReplay(id: string): boolean {
    const at = this.replays.findIndex((r) => r.track.id === id)
    if (at < 0) return false
    this.replays.splice(at, 1)
    this.reindex()
    this.alarms.rebind(this.byId, false)
    return true
  }

  nextReplayId(): number {
    let id = FIRST_REPLAY_ID
    for (const r of this.replays) id = Math.max(id, r.id + 1)
    return id
  }

  // ---- Geofences ----

  setGeofences(set: GeofenceSet): void {
    this.geofences = set
    this.refreshGeofences()
  }

  private refreshGeofences(): void {
    for (const d of this.devices) {
      const next = this.geofences.containing(d.report.lon, d.report.lat)
      if (next.join() !== d.currentGeofence.join()) {
        d.currentGeofence = next
        d.touch()
      }
    }
  }

  // ---- Trips ----

  private request(v: Vehicle, urgent: boolean): void {
    if (v.nextLegRequested || v.nextLeg || !this.planner) return
    v.nextLegRequested = true
    this.queue.push({ v, legNo: v.legs, urgent })
    this.pump()
  }

  /** Send the queued legs to the planner, one batch at a time, urgent ones first. */
  private pump(): void {
    if (this.inFlight || this.queue.length === 0 || !this.planner) return
    this.queue.sort((a, b) => Number(b.urgent) - Number(a.urgent))
    const batch = this.queue.splice(0, this.batch)
    const planner = this.planner
    this.inFlight = planner
      .trips(batch.map(({ v, legNo }) => ({ from: v.legStart, toSeed: hash32(this.seed, v.id, legNo) })))
      .then(
        (routes) => {
          batch.forEach(({ v, legNo }, i) => {
            if (this.byId.get(v.id) !== v || v.legs !== legNo) return
            v.setNextLeg(routes[i] ?? null)
            // No route to that point: another destination (a new seed), asked for at once.
            if (!routes[i] && v.failedPlans < 5) this.request(v, true)
          })
        },
        (error: unknown) => {
          this.failure = error as Error
          for (const { v } of batch) v.nextLegRequested = false
        },
      )
      .finally(() => {
        this.inFlight = undefined
        this.pump()
      })
  }

  /** Wait until the vehicles that depart (or are towed) at `t` have their next leg. */
  private async legsFor(t: number): Promise<void> {
    for (;;) {
      let missing = false
      for (const v of this.vehicles) {
        if (v.needsLegBy(t)) {
          missing = true
          if (!v.nextLegRequested) this.request(v, true)
          else {
            const queued = this.queue.find((q) => q.v === v)
            if (queued) queued.urgent = true
          }
        } else if (!v.nextLeg && !v.nextLegRequested && v.active) this.request(v, false)
      }
      if (!missing) return
      if (this.failure) throw this.failure
      this.pump()
      await (this.inFlight ?? new Promise((resolve) => setTimeout(resolve, 5)))
    }
  }

  // ---- The clock ----

  /** The local calendar of step `t` (the network's time zone). */
  private stepTime(t: number): StepTime {
    if (t >= this.offsetUntil) {
      this.offset = utcOffsetSeconds(this.timeZone, t)
      this.offsetUntil = (Math.floor(t / 3600) + 1) * 3600
    }
    const local = t + this.offset
    const day = Math.floor(local / DAY)
    const time = this.time
    time.t = t
    time.localHour = Math.floor((local % DAY) / 3600)
    time.offset = this.offset
    time.dayChanged = this.calendar.day !== -1 && day !== this.calendar.day
    time.monthChanged = false
    if (day !== this.calendar.day) {
      const date = new Date(local * 1000)
      const month = date.getUTCFullYear() * 12 + date.getUTCMonth()
      time.monthChanged = this.calendar.month !== -1 && month !== this.calendar.month
      this.calendar = { day, month }
    }
    return time
  }

  /** One second of every device, then geofences, then the alarm configurations. */
  private stepOnce(t: number): void {
    const time = this.stepTime(t)
    const devices = this.devices
    for (let i = 0; i < devices.length; i++) {
      const d = devices[i]!
      d.beginStep()
      d.step(time)
    }
    if (this.geofences.fences.length > 0) {
      for (let i = 0; i < devices.length; i++) {
        const d = devices[i]!
        if (!d.moved) continue
        const next = this.geofences.containing(d.report.lon, d.report.lat)
        const before = d.currentGeofence
        if (next.length !== before.length || next.some((id, k) => id !== before[k])) {
          d.currentGeofence = next
          d.touch()
        }
      }
    }
    const alarmsFrom = performance.now()
    this.alarms.evaluate(time, this.calendar)
    this.lastAlarmMs = performance.now() - alarmsFrom
    this.step = t
  }

  /**
   * Run every step up to `ms` of the clock. Steps are whole seconds; a jump of more than `maxCatchUp`
   * steps (the machine slept) skips the time between, so the fleet resumes where it was.
   */
  advanceTo(ms: number): Promise<void> {
    const run = this.chain.then(() => this.advance(Math.floor(ms / 1000)))
    this.chain = run.catch(() => undefined)
    return run
  }

  /** Steps a catch-up may run at most: more for a small fleet (5·10⁶ vehicle-seconds, at least 10 minutes). */
  get maxCatchUp(): number {
    return Math.max(600, Math.floor(5_000_000 / Math.max(1, this.devices.length)))
  }

  private async advance(target: number): Promise<void> {
    await this.ready
    if (target - this.step > this.maxCatchUp) this.step = target - this.maxCatchUp
    let yielded = performance.now()
    while (this.step < target) {
      const t = this.step + 1
      await this.legsFor(t)
      const started = performance.now()
      this.stepOnce(t)
      this.lastStepMs = performance.now() - started
      if (performance.now() - yielded > 40) {
        // A long catch-up lets the server answer others meanwhile.
        await new Promise((resolve) => setImmediate(resolve))
        yielded = performance.now()
      }
    }
  }

  /** Wait for the fleet's first positions (the road network loads in the worker pool). */
  whenReady(): Promise<void> {
    return this.ready
  }

  // ---- Answers ----

  /** The §2.6 records as one JSON array text, built from each device's cached JSON. */
  listJson(filter: {
    id?: number
    includeInActive?: boolean
    ignoreBeacon?: boolean
    state?: number
  }): string {
    const t = this.step
    const parts: string[] = []
    const consider = (d: TrackedDevice) => {
      if (filter.state !== undefined) {
        if (!d.active || d.report.gprsTime <= filter.state) return
      } else if (!d.active && !filter.includeInActive && filter.id === undefined) return
      if (filter.ignoreBeacon && d.hardware.deviceType === 'BEACON') return
      parts.push(deviceJson(d, t, (road) => this.address(road)))
    }
    if (filter.id !== undefined) {
      const d = this.byId.get(filter.id)
      if (d) consider(d)
    } else for (const d of this.devices) consider(d)
    return `[${parts.join(',')}]`
  }

  /** §2.5a of every device whose tracker is active, or of one tracker by its id. */
  hardware(id?: number): HardwareRecord[] {
    if (id !== undefined) {
      const d = this.byId.get(id - HARDWARE_ID_OFFSET)
      return d && d.hardware.id === id ? [d.hardware] : []
    }
    return this.devices.filter((d) => d.hardware.active).map((d) => d.hardware)
  }

  /** Stop waiting for trips (the service is stopping or the fleet is replaced). */
  close(): void {
    this.queue = []
  }
}
