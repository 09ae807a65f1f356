/**
 * How busy each kind of vehicle is through the local day: the simulation's model, not measurements. A
 * parked vehicle's dwell is drawn in "activity seconds" (its kind's dwell range, the dwell of the busiest
 * hour) and the clock runs slower for it where the day is quiet: a dwell of `b` activity seconds at an hour
 * of activity `a` lasts `b / a` seconds (a departure rate that follows the hour). Factors are of the busiest
 * hour (1), by local hour 0–23.
 */
export const DAY_PROFILES = {
  /** Cars and motorbikes: morning and evening peaks, a lull at midday, quiet nights. */
  commute: [
    0.05, 0.03, 0.02, 0.02, 0.04, 0.12, 0.45, 0.9, 1, 0.7, 0.6, 0.65, 0.7, 0.65, 0.65, 0.75, 0.95, 1, 0.8,
    0.55, 0.4, 0.3, 0.18, 0.1,
  ],
  /** Trucks: an early start, a working day, some night deliveries. */
  freight: [
    0.12, 0.1, 0.1, 0.12, 0.25, 0.5, 0.8, 0.95, 1, 1, 1, 0.95, 0.9, 0.95, 1, 0.95, 0.85, 0.7, 0.5, 0.35, 0.25,
    0.2, 0.15, 0.12,
  ],
  /** Buses: a timetable from five in the morning to past midnight. */
  transit: [
    0.08, 0.03, 0.02, 0.02, 0.15, 0.6, 0.95, 1, 1, 0.85, 0.8, 0.8, 0.8, 0.8, 0.85, 0.95, 1, 1, 0.9, 0.75, 0.6,
    0.5, 0.35, 0.2,
  ],
  /** Work machines: the site's day, seven to five, with a lunch break. */
  site: [
    0.02, 0.02, 0.02, 0.02, 0.03, 0.1, 0.5, 0.9, 1, 1, 1, 1, 0.8, 1, 1, 1, 0.8, 0.5, 0.2, 0.08, 0.04, 0.03,
    0.02, 0.02,
  ],
} as const satisfies Record<string, readonly number[]>

export type DayProfile = keyof typeof DAY_PROFILES

const DAY = 86_400
const HOUR = 3600

/** Local hour 0–23 of unix seconds `t` at a UTC offset of `offset` seconds. */
export function localHourOf(t: number, offset: number): number {
  const local = (((t + offset) % DAY) + DAY) % DAY
  return Math.floor(local / HOUR)
}

/** The activity factor of `profile` at unix seconds `t`. */
export function activityAt(profile: DayProfile, t: number, offset: number): number {
  return DAY_PROFILES[profile][localHourOf(t, offset)]!
}

/**
 * When a dwell of `base` activity seconds begun at `t` ends: hour by hour, each hour of activity `a` uses up
 * `a` activity seconds per second. The offset is the one at `t` (a clock change during a dwell is ignored).
 */
export function dwellEnd(profile: DayProfile, t: number, offset: number, base: number): number {
  const factors = DAY_PROFILES[profile]
  let left = base
  let s = t
  // Every factor is positive: a week of hours is far more than any dwell needs.
  for (let i = 0; i < 24 * 7; i++) {
    const local = (((s + offset) % DAY) + DAY) % DAY
    const a = factors[Math.floor(local / HOUR)]!
    const span = HOUR - (local % HOUR)
    if (a * span >= left) return Math.round(s + left / a)
    left -= a * span
    s += span
  }
  return Math.round(s)
}
