import type { DeviceType, HardwareRecord } from '../../../contract/telematics/fleet'
import { HIGHWAY_CLASSES } from '../../routing/data/profiles'
import { AMBIENT_C, blankCan, readCan } from './can-bus'
import { dwellEnd, localHourOf } from './day-profile'
import { deviceStatus, TrackedDevice, type StepTime } from './device'
import { Rng } from './random'
import type { StartState, TypicalTrip } from './steady-state'
import type { TripRoute } from './trip-route'
import {
  ARRIVAL_SECONDS,
  BRAKE_MS2 as BRAKE,
  cornerKmh,
  EVENT_MEANS,
  EVENT_SPANS,
  FAULT_CODES,
  stopsInTraffic,
  VEHICLE_KINDS,
  WARM_UP_SECONDS,
  type Phase,
  type TrackerKind,
  type VehicleKind,
} from './vehicle-types'

export type { Phase } from './vehicle-types'

export interface VehicleSpec {
  id: number
  type: DeviceType
  tracker: TrackerKind
  active: boolean
  seed: number
  name: string
  registrationNumber: string
  hardware: HardwareRecord
  /** Its parking place (where it stands until `settle` places it in the fleet's steady state). */
  start: [number, number]
  /** Unix seconds when the simulation starts. */
  t0: number
  /** Odometer at the start (km). */
  odometer: number
}

const KMH = 3.6
/** A hard stop (m/s²), and what counts as harsh (HA, HB) and a harsh corner (HC). */
const HARD_BRAKE = 5
const HARSH_ACCEL = 2.5
const HARSH_BRAKE = 3.5
const HARSH_CORNER_RATIO = 1.3
const TOW_KMH = 25
/** Seconds between reports of a parked vehicle (a heartbeat); a running one reports every second. */
export const HEARTBEAT_SECONDS = 60

/**
 * One simulated vehicle: drives planned trips on the road network at speeds fitting the road class and its
 * kind, parks, idles, works on site; its tracker loses GPRS or GPS now and then, may be unplugged, and an OBD
 * tracker reads the CAN bus (RPM, gear, pedals, fuel, coolant, harsh events). One step is one second.
 */
export class Vehicle extends TrackedDevice {
  readonly kind: VehicleKind
  readonly tracker: TrackerKind
  private readonly rng: Rng
  /** The driver's temperament: > 1 drives faster than the road's speed and accelerates harder. */
  readonly aggression: number
  private readonly weakBattery: boolean

  phase: Phase = 'parked'
  /** Unix seconds when the current phase ends (departure, start of driving, engine off). */
  phaseEnd: number
  /** The leg being driven (or towed along), how far along it, and on which segment. */
  private leg: TripRoute | null = null
  private dist = 0
  private seg = 0
  /** The next leg, once planned (the fleet asks for it when the previous one starts). */
  nextLeg: TripRoute | null = null
  /** Metres of the next leg already covered (a tow moves the vehicle along it). */
  private nextLegStart = 0
  /** Legs started so far; the next leg is number `legs`. */
  legs = 0
  /** Whether the next leg has been asked for; plans that found no route in a row (5: it stays put). */
  nextLegRequested = false
  failedPlans = 0

  // What the vehicle is doing now (its truth; the server sees it when it reports).
  lon: number
  lat: number
  heading = 0
  /** m/s, and the change of speed of this second (m/s²). */
  v = 0
  accelNow = 0
  ignition = false
  onTrip = false
  private noise = 0
  private stopUntil = 0
  private hardBrakeUntil = 0
  private lastHarsh: { type: string; t: number } = { type: '', t: 0 }
  private road = ''
  odometer: number
  fuel: number
  coolant = AMBIENT_C
  private battery = 12.7
  private internal = 4.15
  private todayMetres = 0
  private monthMetres = 0
  private todayMoving = 0
  private todayIdle = 0
  private todayDrives = 0
  driverDoorUntil = 0
  blinkerUntil = 0
  consumedLitres = 0
  drivenMetres = 0

  // When the rare events happen next (unix seconds), and until when the current ones last.
  private nextGprsLoss: number
  private nextGpsLoss: number
  private nextPowerCut: number
  private nextTow: number
  private nextPanic: number
  private nextFault: number
  private nextTrafficStop: number
  private nextHardBrake: number
  private gprsBackAt = 0
  private gpsBackAt = 0
  private powerBackAt = 0
  private towEndMetres = 0
  private heartbeatPhase: number
  private lastStatus = -1
  localHour = 12
  /** The UTC offset of the network's time zone (seconds), for the hours of a dwell. */
  private offset = 0
  /** The mean of the network's trips as this vehicle drives them (the model's shares follow from it). */
  typicalDrive: TypicalTrip | null = null
  /** When each open fault closes (parallel to `faults`). */
  private faultCloseAt: number[] = []

  constructor(spec: VehicleSpec) {
    super(
      spec.id,
      'simulation',
      { name: spec.name, registrationNumber: spec.registrationNumber, deviceType: spec.type },
      spec.hardware,
      spec.active,
    )
    this.kind = VEHICLE_KINDS[spec.type]
    this.tracker = spec.tracker
    this.rng = new Rng(spec.seed)
    const r = this.rng
    this.aggression = r.between(0.88, 1.22)
    this.weakBattery = r.next() < 0.12
    this.lon = spec.start[0]
    this.lat = spec.start[1]
    this.odometer = spec.odometer
    this.fuel = this.kind.tankLitres * r.between(0.3, 0.95)
    this.battery = this.weakBattery ? 12.0 : 12.6
    this.heartbeatPhase = spec.id % HEARTBEAT_SECONDS
    const t0 = spec.t0
    // Parked until `settle` says where the vehicle is in its day.
    this.phaseEnd = t0
    this.nextGprsLoss = t0 + r.wait(EVENT_MEANS.gprsLoss)
    this.nextGpsLoss = t0 + r.wait(EVENT_MEANS.gpsLoss)
    this.nextPowerCut = t0 + r.wait(EVENT_MEANS.powerCut)
    this.nextTow = t0 + r.wait(EVENT_MEANS.towing)
    this.nextPanic = t0 + r.wait(EVENT_MEANS.panic)
    this.nextFault = t0 + r.wait(EVENT_MEANS.fault)
    this.nextTrafficStop = t0 + r.wait(EVENT_MEANS.trafficStop)
    this.nextHardBrake = t0 + r.wait(EVENT_MEANS.hardBrake)
    if (spec.tracker === 'obd') this.can = blankCan()
    this.sendReport(t0, true)
  }

  /** Where the next leg starts: the end of the leg being driven, or where the vehicle stands. */
  get legStart(): [number, number] {
    const leg = this.leg
    if (leg && this.phase !== 'towed') {
      const n = leg.coords.length
      return [leg.coords[n - 2]!, leg.coords[n - 1]!]
    }
    return [this.lon, this.lat]
  }

  /** Whether the vehicle needs its next leg at or before `t` (a departure or a tow is due). */
  needsLegBy(t: number): boolean {
    if (!this.active || this.nextLeg || this.failedPlans >= 5) return false
    return this.phase === 'parked' && (this.phaseEnd <= t || this.nextTow <= t)
  }

  /** The next leg's plan arrived; null when no route reaches its point (the next one gets another point). */
  setNextLeg(route: TripRoute | null): void {
    this.nextLegRequested = false
    if (route) {
      this.nextLeg = route
      this.nextLegStart = 0
      this.failedPlans = 0
    } else {
      this.legs++
      this.failedPlans++
    }
  }

  /**
   * Put the vehicle where the steady state of the hour has it (`steadyStart`): parked (with its first leg
   * next when planned), or warming up at the start of a trip, part of the way along one, arrived at its end.
   */
  settle(s: StartState, t0: number, offset: number): void {
    const route = s.trip
    this.offset = offset
    this.localHour = localHourOf(t0, offset)
    this.phase = s.phase
    this.phaseEnd = s.phaseEnd
    if (route && s.phase === 'parked') {
      this.nextLeg = route
      this.nextLegStart = 0
    } else if (route) {
      this.legs++
      this.leg = route
      this.seg = 0
      this.dist =
        s.phase === 'driving' ? s.dist : s.phase === 'starting' ? 0 : route.cum[route.cum.length - 1]!
      this.place()
      if (s.phase === 'arrived' || s.phase === 'working') this.leg = null
    }
    this.v = s.speed
    this.stopUntil = s.stopUntil
    this.ignition = s.phase !== 'parked'
    this.onTrip = s.onTrip
    this.todayDrives = s.today.drives
    this.todayMetres = s.today.metres
    this.todayMoving = s.today.moving
    this.todayIdle = s.today.idle
    this.monthMetres = s.monthMetres
    // The engine warms up while it runs and cools down once off; the alternator charges the battery.
    const rest = this.weakBattery ? 11.35 : 12.45
    if (this.ignition) {
      this.coolant = 90 - (90 - AMBIENT_C) * Math.exp(-s.engineOn / 240)
      this.battery = 14.1 - (14.1 - 10.8) * Math.exp(-s.engineOn / 5)
    } else {
      this.coolant = AMBIENT_C + (90 - AMBIENT_C) * Math.exp(-s.engineOff / 1800)
      this.battery = rest + (14.1 - rest) * Math.exp(-s.engineOff / 7200)
    }
    const r = this.rng
    if (s.powerBackAt > t0) {
      this.powerBackAt = s.powerBackAt
      this.nextPowerCut = s.powerBackAt + r.wait(EVENT_MEANS.powerCut)
    }
    if (s.gpsBackAt > t0) {
      this.gpsBackAt = s.gpsBackAt
      this.nextGpsLoss = s.gpsBackAt + r.wait(EVENT_MEANS.gpsLoss)
    }
    this.sendReport(t0, true)
    if (s.gprsBackAt > t0) {
      // Out of GPRS coverage: the server's last report is dated when it was lost (at where it is now).
      this.gprsBackAt = s.gprsBackAt
      this.nextGprsLoss = s.gprsBackAt + r.wait(EVENT_MEANS.gprsLoss)
      this.report.gprsTime = this.report.gpsTime = s.silentSince
    }
  }

  step(time: StepTime): void {
    if (!this.active) return
    const t = time.t
    if (time.dayChanged) {
      this.todayMetres = 0
      this.todayMoving = 0
      this.todayIdle = 0
      this.todayDrives = 0
    }
    if (time.monthChanged) this.monthMetres = 0
    this.localHour = time.localHour
    this.offset = time.offset
    const wasIgnition = this.ignition
    const wasPowerCut = this.powerBackAt > t - 1
    this.events(t)
    // A tow happens to a parked vehicle only.
    if (this.phase !== 'parked' && t >= this.nextTow) this.nextTow = t + this.rng.wait(EVENT_MEANS.towing)
    switch (this.phase) {
      case 'parked':
        this.parked(t)
        break
      case 'starting':
        if (t >= this.phaseEnd) this.phase = 'driving'
        break
      case 'driving':
        this.drive(t)
        break
      case 'arrived':
        if (t >= this.phaseEnd) this.endRun(t)
        break
      case 'working':
        if (t >= this.phaseEnd) this.endRun(t)
        break
      case 'towed':
        this.tow(t)
        break
    }
    this.physics(t)
    const moving = this.v > 0.05
    if (moving) this.todayMoving++
    else if (this.ignition) this.todayIdle++
    const changed =
      wasIgnition !== this.ignition || wasPowerCut !== this.powerBackAt > t || this.gprsBackAt === t
    this.maybeReport(t, changed)
  }

  private events(t: number): void {
    const r = this.rng
    if (t >= this.nextGprsLoss) {
      this.gprsBackAt = t + r.int(...EVENT_SPANS.gprsLoss)
      this.nextGprsLoss = this.gprsBackAt + r.wait(EVENT_MEANS.gprsLoss)
    }
    if (t >= this.nextGpsLoss) {
      this.gpsBackAt = t + r.int(...EVENT_SPANS.gpsLoss)
      this.nextGpsLoss = this.gpsBackAt + r.wait(EVENT_MEANS.gpsLoss)
    }
    if (t >= this.nextPanic) {
      this.panicPressed = true
      this.nextPanic = t + r.wait(EVENT_MEANS.panic)
    }
    if (this.can && t >= this.nextFault) {
      this.openFault(t)
      this.nextFault = t + r.wait(EVENT_MEANS.fault)
    }
    for (let i = 0; i < this.faults.length; i++) {
      const f = this.faults[i]!
      if (f.status === 0 && t >= this.faultCloseAt[i]!) {
        f.status = 1
        f.closedOn = t
        this.touch()
      }
    }
  }

  private openFault(t: number): void {
    const r = this.rng
    const code = r.pick(FAULT_CODES)
    if (this.faults.some((f) => f.code === code && f.status === 0)) return
    this.faults.push({ code, timetamp: t, status: 0 })
    this.faultCloseAt.push(t + r.int(600, 3 * 3600))
    if (this.faults.length > 10) {
      this.faults.shift()
      this.faultCloseAt.shift()
    }
    this.touch()
  }

  private parked(t: number): void {
    const r = this.rng
    if (this.powerBackAt > t) return
    if (t >= this.nextPowerCut && this.tracker !== 'beacon') {
      // Someone disconnects the tracker (or the battery): it runs on its own battery until reconnected.
      this.powerBackAt = t + r.int(...EVENT_SPANS.powerCut)
      this.nextPowerCut = this.powerBackAt + r.wait(EVENT_MEANS.powerCut)
      this.unplugged = true
      return
    }
    if (t >= this.nextTow && this.nextLeg) {
      this.nextTow = t + r.wait(EVENT_MEANS.towing)
      const leg = this.nextLeg
      const total = leg.cum[leg.cum.length - 1]!
      // Towed a few kilometres along the way it was going to drive next, ignition off.
      this.towEndMetres = Math.min(total * 0.8, r.between(800, 4000))
      this.leg = leg
      this.dist = this.nextLegStart
      this.seg = 0
      this.phase = 'towed'
      return
    }
    if (t >= this.nextTow) this.nextTow = t + r.wait(EVENT_MEANS.towing)
    if (t >= this.phaseEnd && this.nextLeg) {
      // Depart: engine on, a short warm-up at idle, then drive.
      this.leg = this.nextLeg
      this.dist = this.nextLegStart
      this.seg = 0
      this.nextLeg = null
      this.nextLegStart = 0
      this.legs++
      this.ignition = true
      this.battery = 10.8 // the starter's dip
      this.onTrip = r.next() < this.kind.tripShare
      this.todayDrives++
      this.phase = 'starting'
      this.phaseEnd = t + r.int(...WARM_UP_SECONDS)
      this.driverDoorUntil = t + 3
      this.stopUntil = 0
    }
  }

  private endRun(t: number): void {
    const r = this.rng
    if (this.phase === 'arrived' && this.kind.work) {
      this.phase = 'working'
      this.phaseEnd = t + r.int(this.kind.work[0], this.kind.work[1])
      return
    }
    this.ignition = false
    this.phase = 'parked'
    // The dwell of the busiest hour, longer where the day is quiet.
    this.phaseEnd = dwellEnd(this.kind.day, t, this.offset, r.int(this.kind.dwell[0], this.kind.dwell[1]))
    this.driverDoorUntil = t + 4
  }

  /** The segment and position at `dist` along the current leg. */
  private place(): void {
    const leg = this.leg!
    const cum = leg.cum
    const last = cum.length - 1
    while (this.seg < last - 1 && cum[this.seg + 1]! <= this.dist) this.seg++
    const i = this.seg
    const a = cum[i]!
    const b = cum[i + 1]!
    const f = b > a ? Math.min(1, Math.max(0, (this.dist - a) / (b - a))) : 1
    const c = leg.coords
    const x0 = c[i * 2]!
    const y0 = c[i * 2 + 1]!
    const x1 = c[i * 2 + 2]!
    const y1 = c[i * 2 + 3]!
    this.lon = x0 + (x1 - x0) * f
    this.lat = y0 + (y1 - y0) * f
    const dx = (x1 - x0) * Math.cos((y0 * Math.PI) / 180)
    const dy = y1 - y0
    if (dx !== 0 || dy !== 0) {
      const deg = (Math.atan2(dx, dy) * 180) / Math.PI
      this.heading = deg < 0 ? deg + 360 : deg
    }
    this.road = HIGHWAY_CLASSES[leg.cls[i]!] ?? ''
  }

  private drive(t: number): void {
    const leg = this.leg!
    const r = this.rng
    const total = leg.cum[leg.cum.length - 1]!
    const remaining = total - this.dist
    const seg = this.seg
    const cls = leg.cls[seg]!
    // The noise of a real driver around the speed they aim at.
    this.noise = Math.max(-0.08, Math.min(0.08, this.noise * 0.97 + (r.next() - 0.5) * 0.02))
    let target = (Math.min(leg.speed[seg]! * this.aggression * (1 + this.noise), this.kind.maxKmh) /
      KMH) as number
    // Slow down for slower roads and turns ahead, and to stop at the end of the leg.
    for (let k = seg + 1; k <= Math.min(seg + 3, leg.cum.length - 1); k++) {
      const d = Math.max(0, leg.cum[k]! - this.dist)
      if (d > 80) break
      const turn = leg.turn[k]!
      let limit = k < leg.speed.length ? leg.speed[k]! * this.aggression : target * KMH
      if (turn >= 25) limit = Math.min(limit, cornerKmh(turn) * Math.min(1, this.aggression))
      target = Math.min(target, Math.sqrt((limit / KMH) ** 2 + 2 * BRAKE * d))
    }
    target = Math.min(target, Math.sqrt(2 * BRAKE * Math.max(0, remaining - 1)))
    // Stops in traffic (lights, queues) on city roads, and now and then a sudden hard stop.
    if (t >= this.nextTrafficStop) {
      if (stopsInTraffic(cls) && this.v > 3) this.stopUntil = t + r.int(...EVENT_SPANS.trafficStop)
      this.nextTrafficStop = t + r.wait(EVENT_MEANS.trafficStop)
    }
    if (t >= this.nextHardBrake) {
      if (this.v > 8) this.hardBrakeUntil = t + 2
      this.nextHardBrake = t + r.wait(EVENT_MEANS.hardBrake)
    }
    if (this.stopUntil > t) target = 0
    let a: number
    if (this.hardBrakeUntil > t) a = -HARD_BRAKE
    else {
      const up = this.kind.accel * this.aggression
      a = Math.max(-3, Math.min(up, target - this.v))
    }
    let v = Math.max(0, this.v + a)
    if (v < 0.3 && target < 0.3) v = 0
    this.accelNow = v - this.v
    this.dist = Math.min(total, this.dist + (this.v + v) / 2)
    const before = this.seg
    this.place()
    // A turn taken faster than it allows is a harsh corner.
    for (let k = before + 1; k <= this.seg; k++) {
      const turn = leg.turn[k]!
      if (turn >= 45 && v * KMH > HARSH_CORNER_RATIO * cornerKmh(turn)) this.lastHarsh = { type: 'HC', t }
      if (turn >= 30) this.blinkerUntil = t + 4
    }
    if (this.accelNow > HARSH_ACCEL) this.lastHarsh = { type: 'HA', t }
    if (this.accelNow < -HARSH_BRAKE) this.lastHarsh = { type: 'HB', t }
    this.v = v
    if (total - this.dist < 1.5 && v < 1.5) {
      this.dist = total
      this.place()
      this.v = 0
      this.accelNow = 0
      this.leg = null
      this.onTrip = false
      this.phase = 'arrived'
      this.phaseEnd = t + r.int(...ARRIVAL_SECONDS)
    }
  }

  private tow(t: number): void {
    const leg = this.leg!
    const speed = TOW_KMH / KMH
    this.v = speed
    this.accelNow = 0
    this.dist = Math.min(this.towEndMetres, this.dist + speed)
    this.place()
    if (this.dist >= this.towEndMetres) {
      // Left where the tow ended: the rest of that leg is its next trip.
      this.v = 0
      this.nextLeg = leg
      this.nextLegStart = this.dist
      this.leg = null
      this.phase = 'parked'
      this.phaseEnd = Math.max(this.phaseEnd, t + this.rng.int(600, 1800))
    }
  }

  /** Fuel, temperatures, batteries, distance counters: what follows from the motion of this second. */
  private physics(t: number): void {
    const metres = this.v
    if (metres > 0) {
      this.odometer += metres / 1000
      this.todayMetres += metres
      this.monthMetres += metres
      this.drivenMetres += metres
    }
    if (this.ignition) {
      const burn = (metres / 100_000) * this.kind.litresPer100 + this.kind.idleLitresPerHour / 3600
      this.fuel = Math.max(0, this.fuel - burn)
      this.consumedLitres += burn
      if (this.fuel < this.kind.tankLitres * 0.08) this.fuel = this.kind.tankLitres * 0.95 // refuelled
      this.coolant += (90 - this.coolant) / 240
      this.battery += (14.1 - this.battery) * 0.2
    } else {
      this.coolant += (AMBIENT_C - this.coolant) / 1800
      const rest = this.weakBattery ? 11.35 : 12.45
      this.battery += (rest - this.battery) / 7200
    }
    const powered = this.powerBackAt <= t
    this.internal = powered ? Math.min(4.15, this.internal + 0.0004) : Math.max(3.3, this.internal - 0.00018)
  }

  /** A running vehicle reports every second, a parked one every minute; any change of status at once. */
  private maybeReport(t: number, changed: boolean): void {
    if (this.gprsBackAt > t) return
    const running = this.ignition || this.v > 0
    const heartbeat = (t - this.heartbeatPhase) % HEARTBEAT_SECONDS === 0
    if (running || heartbeat || changed || this.currentStatus(t) !== this.lastStatus)
      this.sendReport(t, false)
  }

  private currentStatus(t: number): number {
    return deviceStatus({
      powerCut: this.powerBackAt > t,
      gpsFix: this.gpsBackAt <= t,
      ignition: this.ignition,
      speed: Math.round(this.v * KMH * 10) / 10,
      onTrip: this.onTrip,
    })
  }

  private sendReport(t: number, first: boolean): void {
    const r = this.report
    const fix = first || this.gpsBackAt <= t
    const powered = this.powerBackAt <= t
    const status = this.currentStatus(t)
    r.gprsTime = t
    r.gpsFix = fix
    if (fix) {
      if (r.lat !== this.lat || r.lon !== this.lon) this.moved = true
      r.gpsTime = t
      r.lat = this.lat
      r.lon = this.lon
      r.heading = Math.round(this.heading)
      r.speed = Math.round(this.v * KMH * 10) / 10
      r.road = this.road
    }
    r.ignition = this.ignition
    r.powerCut = !powered
    r.status = status
    r.vehicleBattery = powered && this.tracker !== 'beacon' ? Math.round(this.battery * 100) / 100 : 0
    r.internalBattery = Math.round(this.internal * 100) / 100
    r.odometer = Math.round(this.odometer * 10) / 10
    r.todayKms = Math.round(this.todayMetres / 10) / 100
    r.todayMovementTime = this.todayMoving
    r.todayIdleTime = this.todayIdle
    r.todayDriveCount = this.todayDrives
    r.monthKms = this.monthMetres / 1000
    r.greenDriveType = t - this.lastHarsh.t <= 10 ? this.lastHarsh.type : ''
    if (this.can) readCan(this.can, this, t, this.rng)
    this.lastStatus = status
    this.reported = true
    this.version++
  }

  /** Beacons (phone apps) cannot read the vehicle's battery. */
  override get measuresVehicleBattery(): boolean {
    return this.tracker !== 'beacon'
  }
}
