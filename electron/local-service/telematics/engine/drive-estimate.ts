import type { TripRoute } from './trip-route'
import {
  BRAKE_MS2,
  cornerKmh,
  EVENT_MEANS,
  EVENT_SPANS,
  stopsInTraffic,
  type VehicleKind,
} from './vehicle-types'

const KMH = 3.6
const STOP_SECONDS = (EVENT_SPANS.trafficStop[0] + EVENT_SPANS.trafficStop[1]) / 2
/** Stops in traffic per second of driving on a road that has them. */
const STOP_RATE = 1 / EVENT_MEANS.trafficStop

/**
 * What the drive model (`Vehicle.drive`) makes of a route, in expectation: how long a vehicle of a kind and
 * temperament takes to drive it, and how much of that it stands still in traffic. Per segment: its length at
 * the cruising speed (the road's speed times the temperament, up to the kind's top speed), the time lost
 * braking for sharp turns and accelerating out of them, and on roads with traffic stops their expected number
 * times their length and the time lost stopping and starting. A model of a model: on the sample network's
 * trips its mean is within 2.5 % of stepping the vehicles second by second, for every kind
 * (`node --import tsx bench/fleet-start.ts`).
 */
export interface DriveEstimate {
  /** Seconds from moving off to arriving. */
  seconds: number
  /** Seconds of those standing in traffic (speed 0). */
  stopped: number
}

/** km/h of a turn of 0–180 degrees (`cornerKmh`), looked up: an estimate runs over thousands of segments. */
const CORNER_KMH = Float64Array.from({ length: 181 }, (_, turn) => cornerKmh(turn))

function lossAt(from: number, to: number, accel: number): number {
  // Braking from `from` to `to` and accelerating back, against keeping `from` (metres at from m/s).
  if (to >= from) return 0
  const d = from - to
  return ((d * d) / (2 * from)) * (1 / accel + 1 / BRAKE_MS2)
}

interface Walked extends DriveEstimate {
  /**
   * The segment where `until` seconds were reached (the last one when never), how far into it (0–1), and
   * the share of that segment's time spent standing in traffic.
   */
  segment: number
  into: number
  standingShare: number
}

/** Add up the segments' expected seconds, stopping once `until` seconds are reached. */
function walk(route: TripRoute, kind: VehicleKind, aggression: number, until: number): Walked {
  const n = route.cum.length - 1
  const accel = kind.accel * aggression
  const cornerFactor = Math.min(1, aggression) / KMH
  const first = n > 0 ? Math.max(1, Math.min(route.speed[0]! * aggression, kind.maxKmh) / KMH) : 1
  // Moving off at the start, braking to a stop at the end: half on the first segment, half on the last.
  const ends = first / (2 * accel) + first / (2 * BRAKE_MS2)
  let seconds = 0
  let stopped = 0
  for (let i = 0; i < n; i++) {
    const cruise = Math.max(1, Math.min(route.speed[i]! * aggression, kind.maxKmh) / KMH)
    const metres = route.cum[i + 1]! - route.cum[i]!
    let s = metres / cruise
    if (i > 0 && route.turn[i]! >= 25) s += lossAt(cruise, CORNER_KMH[route.turn[i]!]! * cornerFactor, accel)
    let standing = 0
    if (stopsInTraffic(route.cls[i]!) && cruise > 3) {
      const stops = (metres / cruise) * STOP_RATE
      standing = stops * STOP_SECONDS
      s += standing + stops * lossAt(cruise, 0, accel)
    }
    if (i === 0) s += ends / 2
    if (i === n - 1) s += ends / 2
    if (seconds + s > until) {
      return {
        seconds: seconds + s,
        stopped: stopped + standing,
        segment: i,
        into: s > 0 ? (until - seconds) / s : 0,
        standingShare: s > 0 ? standing / s : 0,
      }
    }
    seconds += s
    stopped += standing
  }
  return { seconds, stopped, segment: Math.max(0, n - 1), into: 1, standingShare: 0 }
}

export function estimateDrive(route: TripRoute, kind: VehicleKind, aggression: number): DriveEstimate {
  const { seconds, stopped } = walk(route, kind, aggression, Infinity)
  return { seconds, stopped }
}

/**
 * Where a vehicle of the kind and temperament is `elapsed` seconds into driving the route: metres along it,
 * on which segment, and whether it stands in traffic there (`chance`, a uniform draw, against the segment's
 * share of time standing).
 */
export function placeAlong(
  route: TripRoute,
  kind: VehicleKind,
  aggression: number,
  elapsed: number,
  chance: number,
): { dist: number; segment: number; standing: boolean } {
  const at = walk(route, kind, aggression, Math.max(0, elapsed))
  const a = route.cum[at.segment]!
  const b = route.cum[at.segment + 1] ?? a
  return { dist: a + (b - a) * at.into, segment: at.segment, standing: chance < at.standingShare }
}
