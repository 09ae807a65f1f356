import type { DeviceAlert } from '../../../../contract/telematics/fleet'
import type { StepTime, TrackedDevice } from '../device'
import { evaluatorFor, type AlarmRule, type Calendar, type Evaluator } from './evaluators'

interface Bound {
  evaluator: Evaluator
  /** The devices of the configuration, by slot; undefined for an id the fleet does not have (now). */
  devices: Array<TrackedDevice | undefined>
}

/** Alerts kept for the history extension: the newest this many. */
export const ALERT_HISTORY_LIMIT = 50_000

/**
 * Runs every configuration's evaluator on every step, in time order, and keeps what they raise: the latest
 * alert on the device (§2.6 alerts) and a bounded history, newest last.
 */
export class AlarmEngine {
  private bound: Bound[] = []
  private readonly history: DeviceAlert[] = []
  private seq = 0

  constructor(
    private devicesById: ReadonlyMap<number, TrackedDevice>,
    /** The address line of a position on a road of this class (the fleet knows its network). */
    private readonly addressOf: (road: string) => string,
  ) {}

  /** Start evaluating a configuration (its state starts empty: what happened before does not count). */
  add(rule: AlarmRule): void {
    this.bound.push({
      evaluator: evaluatorFor(rule, rule.deviceId.length),
      devices: rule.deviceId.map((id) => this.devicesById.get(id)),
    })
  }

  /**
   * The devices changed: configurations follow their device ids. `reset` (a new fleet) starts every
   * evaluator afresh; otherwise (a track added or removed) what they were following stays.
   */
  rebind(devicesById: ReadonlyMap<number, TrackedDevice>, reset: boolean): void {
    this.devicesById = devicesById
    this.bound = this.bound.map((b) => {
      const rule = b.evaluator.rule
      return {
        evaluator: reset ? evaluatorFor(rule, rule.deviceId.length) : b.evaluator,
        devices: rule.deviceId.map((id) => devicesById.get(id)),
      }
    })
  }

  get rules(): AlarmRule[] {
    return this.bound.map((b) => b.evaluator.rule)
  }

  /** Evaluate one step; returns how many alerts it raised. */
  evaluate(time: StepTime, calendar: Calendar): number {
    let raisedCount = 0
    for (const b of this.bound) {
      const { evaluator, devices } = b
      const rule = evaluator.rule
      for (let slot = 0; slot < devices.length; slot++) {
        const d = devices[slot]
        if (!d || !d.active) continue
        const raised = evaluator.update(slot, d, time, calendar)
        if (!raised) continue
        const r = d.report
        const alert: DeviceAlert = {
          deviceId: d.id,
          timestamp: time.t,
          latitude: Math.round(r.lat * 1e6) / 1e6,
          longitude: Math.round(r.lon * 1e6) / 1e6,
          address: this.addressOf(r.road),
          alarmType: rule.alarmType,
          limit: rule.limit ?? 0,
          duration: rule.duration ?? 0,
          actualLimit: raised.actualLimit,
          actualDuration: raised.actualDuration,
          severity: rule.severity ?? 0,
          ...(raised.data !== undefined ? { data: raised.data } : {}),
          ...(raised.geofenceId !== undefined ? { geofenceId: raised.geofenceId } : {}),
          alarmId: rule.id,
          seq: ++this.seq,
        }
        d.latestAlert = alert
        d.touch()
        this.history.push(alert)
        raisedCount++
      }
    }
    if (this.history.length > ALERT_HISTORY_LIMIT * 1.1)
      this.history.splice(0, this.history.length - ALERT_HISTORY_LIMIT)
    return raisedCount
  }

  /** Alerts raised after `since` (unix seconds), newest first, at most `limit`. */
  alerts(filter: { since?: number; deviceId?: number; alarmType?: number; limit: number }): DeviceAlert[] {
    const out: DeviceAlert[] = []
    for (let i = this.history.length - 1; i >= 0 && out.length < filter.limit; i--) {
      const a = this.history[i]!
      if (filter.since !== undefined && a.timestamp <= filter.since) break
      if (filter.deviceId !== undefined && a.deviceId !== filter.deviceId) continue
      if (filter.alarmType !== undefined && a.alarmType !== filter.alarmType) continue
      out.push(a)
    }
    return out
  }

  /** How many device slots all configurations bind (the cost of a step grows with it). */
  get bindings(): number {
    return this.bound.reduce((n, b) => n + b.devices.length, 0)
  }
}
