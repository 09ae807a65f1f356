import { ALARM_TYPES, LONG_STAY_DEFAULT_SECONDS } from '../../../../contract/telematics/alarm'
import type { StepTime, TrackedDevice } from '../device'

/** A stored alarm configuration (§4.8 body with its id). */
export interface AlarmRule {
  id: number
  alarmType: number
  deviceId: number[]
  type?: number
  duration?: number
  limit?: number
  geofenceId?: number[]
  severity?: 0 | 1
  /** Unix seconds when it was created (distance-covered windows start there). */
  createdAt: number
}

/** What an evaluator raises for one device; the engine turns it into a §2.6 alert. */
export interface Raised {
  actualLimit: number
  actualDuration: number
  data?: number
  geofenceId?: number
}

/** The fleet's local calendar, for "first ignition of the day" and the mileage periods. */
export interface Calendar {
  day: number
  month: number
}

/**
 * One evaluator per alarm configuration, of its kind, with its own state per device (a slot per device the
 * configuration names), fed every step in time order — traccar's event handlers, one per kind. `update`
 * returns what it raises for the device in this step, or undefined.
 */
export abstract class Evaluator {
  constructor(
    readonly rule: AlarmRule,
    readonly slots: number,
  ) {}

  abstract update(slot: number, d: TrackedDevice, time: StepTime, calendar: Calendar): Raised | undefined
}

/** Overspeed (22): reported speed above `limit` km/h in every report for at least `duration` seconds. */
export class OverspeedEvaluator extends Evaluator {
  /** Report time the breach began (0: none), and whether it has fired. */
  private readonly since = new Float64Array(this.slots)
  private readonly fired = new Uint8Array(this.slots)

  update(slot: number, d: TrackedDevice): Raised | undefined {
    if (!d.reported || !d.report.gpsFix) return undefined
    const r = d.report
    if (r.speed <= this.rule.limit!) {
      this.since[slot] = 0
      this.fired[slot] = 0
      return undefined
    }
    if (this.since[slot] === 0) this.since[slot] = r.gpsTime
    const lasted = r.gpsTime - this.since[slot]!
    if (this.fired[slot] || lasted < this.rule.duration!) return undefined
    this.fired[slot] = 1
    return { actualLimit: Math.round(r.speed), actualDuration: lasted }
  }
}

/**
 * A condition read from each report that must hold for `duration` seconds of the server's clock: stoppage
 * (27), idle (28), towing (29), no GPS fix (146), a low vehicle (129) or internal (161) battery. Fires once
 * per stretch; the condition ending re-arms it.
 */
export class ConditionEvaluator extends Evaluator {
  private readonly since = new Float64Array(this.slots)
  private readonly fired = new Uint8Array(this.slots)
  private readonly value = new Float64Array(this.slots)

  constructor(
    rule: AlarmRule,
    slots: number,
    /** The condition on the report, and the value to show as actualLimit; null when it does not hold. */
    private readonly holds: (d: TrackedDevice, limit: number) => number | null,
  ) {
    super(rule, slots)
  }

  update(slot: number, d: TrackedDevice, time: StepTime): Raised | undefined {
    if (d.reported) {
      const value = this.holds(d, this.rule.limit ?? 0)
      if (value === null) {
        this.since[slot] = 0
        this.fired[slot] = 0
        return undefined
      }
      this.value[slot] = value
      if (this.since[slot] === 0) this.since[slot] = d.report.gprsTime
    }
    const since = this.since[slot]!
    if (since === 0 || this.fired[slot]) return undefined
    const lasted = time.t - since
    if (lasted < (this.rule.duration ?? 0)) return undefined
    this.fired[slot] = 1
    return { actualLimit: Math.round(this.value[slot]!), actualDuration: lasted }
  }
}

/** GPRS connectivity (126): no report reached the server for `duration` seconds. */
export class GprsEvaluator extends Evaluator {
  private readonly fired = new Uint8Array(this.slots)

  update(slot: number, d: TrackedDevice, time: StepTime): Raised | undefined {
    if (d.reported) {
      this.fired[slot] = 0
      return undefined
    }
    const silent = time.t - d.report.gprsTime
    if (this.fired[slot] || d.report.gprsTime === 0 || silent < this.rule.duration!) return undefined
    this.fired[slot] = 1
    return { actualLimit: 0, actualDuration: silent }
  }
}

/** Ignition (21): type 1 on and off, 2 on, 3 off, 5 the first ignition on of the local day; data 1 on, 0 off. */
export class IgnitionEvaluator extends Evaluator {
  /** -1 unknown, 0 off, 1 on. */
  private readonly state = new Int8Array(this.slots).fill(-1)
  private readonly lastDay = new Float64Array(this.slots).fill(-1)

  update(slot: number, d: TrackedDevice, _time: StepTime, calendar: Calendar): Raised | undefined {
    if (!d.reported) return undefined
    const on = d.report.ignition ? 1 : 0
    const before = this.state[slot]!
    this.state[slot] = on
    if (before === -1 || before === on) return undefined
    const type = this.rule.type
    if (on === 1 && type === 5) {
      if (this.lastDay[slot] === calendar.day) return undefined
      this.lastDay[slot] = calendar.day
      return { actualLimit: 0, actualDuration: 0, data: 1 }
    }
    if (on === 1 && (type === 1 || type === 2)) return { actualLimit: 0, actualDuration: 0, data: 1 }
    if (on === 0 && (type === 1 || type === 3)) return { actualLimit: 0, actualDuration: 0, data: 0 }
    return undefined
  }
}

/**
 * Geofence (26): type 1 entry and exit, 2 entry, 3 exit, 4 long stay (inside for `duration` seconds, one
 * hour when not given). data 2 entry, 3 leaving, 4 long stay; geofenceId names the fence. A device seen
 * inside when the configuration starts has not entered it.
 */
export class GeofenceEvaluator extends Evaluator {
  private readonly fences: number[]
  /** Per slot and fence: -1 unknown, 0 outside, 1 inside; and since when inside. */
  private readonly inside: Int8Array
  private readonly since: Float64Array
  private readonly stayed: Uint8Array

  constructor(rule: AlarmRule, slots: number) {
    super(rule, slots)
    this.fences = rule.geofenceId ?? []
    const n = slots * this.fences.length
    this.inside = new Int8Array(n).fill(-1)
    this.since = new Float64Array(n)
    this.stayed = new Uint8Array(n)
  }

  update(slot: number, d: TrackedDevice, time: StepTime): Raised | undefined {
    const type = this.rule.type
    const base = slot * this.fences.length
    let raised: Raised | undefined
    for (let f = 0; f < this.fences.length; f++) {
      const id = this.fences[f]!
      const k = base + f
      if (d.reported && d.report.gpsFix) {
        const now = d.currentGeofence.includes(id) ? 1 : 0
        const before = this.inside[k]!
        this.inside[k] = now
        if (now === 1 && before !== 1) {
          this.since[k] = d.report.gpsTime
          this.stayed[k] = 0
        }
        if (before !== -1 && before !== now && !raised) {
          if (now === 1 && (type === 1 || type === 2))
            raised = { actualLimit: 0, actualDuration: 0, data: 2, geofenceId: id }
          if (now === 0 && (type === 1 || type === 3))
            raised = { actualLimit: 0, actualDuration: time.t - this.since[k]!, data: 3, geofenceId: id }
        }
      }
      if (type === 4 && this.inside[k] === 1 && !this.stayed[k] && !raised) {
        const lasted = time.t - this.since[k]!
        if (lasted >= (this.rule.duration ?? LONG_STAY_DEFAULT_SECONDS)) {
          this.stayed[k] = 1
          raised = { actualLimit: 0, actualDuration: lasted, data: 4, geofenceId: id }
        }
      }
    }
    return raised
  }
}

/** Mileage (133): the day's (type 0) or the month's (type 1) kilometres reach `limit`; once per period. */
export class MileageEvaluator extends Evaluator {
  private readonly firedIn = new Float64Array(this.slots).fill(-1)

  update(slot: number, d: TrackedDevice, _time: StepTime, calendar: Calendar): Raised | undefined {
    if (!d.reported) return undefined
    const period = this.rule.type === 1 ? calendar.month : calendar.day
    const km = this.rule.type === 1 ? d.report.monthKms : d.report.todayKms
    if (this.firedIn[slot] === period || km < this.rule.limit!) return undefined
    this.firedIn[slot] = period
    return { actualLimit: Math.floor(km), actualDuration: 0 }
  }
}

/**
 * Distance covered (151) in windows of `duration` seconds from the configuration's creation: type 1 "at
 * least" fires when the window's kilometres reach `limit`; type 2 "at most" fires at the end of a window
 * whose kilometres stayed at or below it.
 */
export class DistanceCoveredEvaluator extends Evaluator {
  private readonly window = new Float64Array(this.slots).fill(-1)
  private readonly startKm = new Float64Array(this.slots)
  private readonly fired = new Uint8Array(this.slots)

  update(slot: number, d: TrackedDevice, time: StepTime): Raised | undefined {
    const span = Math.max(1, this.rule.duration!)
    const w = Math.floor((time.t - this.rule.createdAt) / span)
    const km = d.report.odometer
    if (this.window[slot] === -1) {
      this.window[slot] = w
      this.startKm[slot] = km
      return undefined
    }
    let raised: Raised | undefined
    if (w !== this.window[slot]) {
      const covered = km - this.startKm[slot]!
      if (this.rule.type === 2 && covered <= this.rule.limit!)
        raised = { actualLimit: Math.round(covered), actualDuration: span }
      this.window[slot] = w
      this.startKm[slot] = km
      this.fired[slot] = 0
      return raised
    }
    const covered = km - this.startKm[slot]!
    if (this.rule.type === 1 && !this.fired[slot] && covered >= this.rule.limit!) {
      this.fired[slot] = 1
      return { actualLimit: Math.round(covered), actualDuration: time.t - (this.rule.createdAt + w * span) }
    }
    return undefined
  }
}

/** An event the device raises itself: panic button (24), tracker unplugged from power (23). */
export class DeviceEventEvaluator extends Evaluator {
  constructor(
    rule: AlarmRule,
    slots: number,
    private readonly happened: (d: TrackedDevice) => boolean,
  ) {
    super(rule, slots)
  }

  update(_slot: number, d: TrackedDevice): Raised | undefined {
    return this.happened(d) ? { actualLimit: 0, actualDuration: 0 } : undefined
  }
}

/** The evaluator of a configuration's kind. */
export function evaluatorFor(rule: AlarmRule, slots: number): Evaluator {
  const T = ALARM_TYPES
  const mv = (volts: number) => Math.round(volts * 1000)
  switch (rule.alarmType) {
    case T.OVERSPEED:
      return new OverspeedEvaluator(rule, slots)
    case T.STOPPAGE:
      return new ConditionEvaluator(rule, slots, (d) =>
        !d.report.ignition && d.report.speed === 0 ? 0 : null,
      )
    case T.IDLE:
      return new ConditionEvaluator(rule, slots, (d) =>
        d.report.ignition && d.report.speed === 0 ? 0 : null,
      )
    case T.TOWING:
      return new ConditionEvaluator(rule, slots, (d) =>
        !d.report.ignition && d.report.speed > 5 ? d.report.speed : null,
      )
    case T.GPS_CONNECTIVITY:
      return new ConditionEvaluator(rule, slots, (d) => (d.report.gpsFix ? null : 0))
    case T.VEHICLE_BATTERY:
      return new ConditionEvaluator(rule, slots, (d, limit) =>
        d.measuresVehicleBattery && !d.report.powerCut && mv(d.report.vehicleBattery) < limit
          ? mv(d.report.vehicleBattery)
          : null,
      )
    case T.INTERNAL_BATTERY_VOLTAGE:
      return new ConditionEvaluator(rule, slots, (d, limit) =>
        d.source === 'simulation' && mv(d.report.internalBattery) < limit
          ? mv(d.report.internalBattery)
          : null,
      )
    case T.GPRS_CONNECTIVITY:
      return new GprsEvaluator(rule, slots)
    case T.IGNITION:
      return new IgnitionEvaluator(rule, slots)
    case T.GEOFENCE:
      return new GeofenceEvaluator(rule, slots)
    case T.MILEAGE:
      return new MileageEvaluator(rule, slots)
    case T.DISTANCE_COVERED:
      return new DistanceCoveredEvaluator(rule, slots)
    case T.PANIC:
      return new DeviceEventEvaluator(rule, slots, (d) => d.panicPressed)
    case T.UNPLUGGED:
      return new DeviceEventEvaluator(rule, slots, (d) => d.unplugged)
    default:
      throw new Error(`no evaluator for alarm type ${rule.alarmType}`)
  }
}
