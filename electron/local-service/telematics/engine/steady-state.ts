import { DAY_PROFILES, dwellEnd, localHourOf } from './day-profile'
import { estimateDrive, placeAlong, type DriveEstimate } from './drive-estimate'
import type { Rng } from './random'
import type { TripRoute } from './trip-route'
import {
  ARRIVAL_SECONDS,
  BRAKE_MS2,
  EVENT_MEANS,
  EVENT_SPANS,
  WARM_UP_SECONDS,
  type Phase,
  type TrackerKind,
  type VehicleKind,
} from './vehicle-types'

/**
 * Where a vehicle is when the fleet starts: a draw from the model's stationary distribution for the hour of
 * the start, as if the fleet had been running all day. A vehicle's day is a cycle — parked (its kind's dwell,
 * longer where the hour is quiet), engine on before moving off, driving a trip, engine on after arriving,
 * working on site for a work machine — and at a random instant it is in each phase with probability the
 * phase's mean length over the cycle's, somewhere uniformly within it; a phase drawn long is the more likely
 * to hold the instant (length-biased). The network's trips are real routes planned at the start (random
 * routable point to random routable point, the first legs of some of the vehicles): the mean over a sample
 * of them, driven by this vehicle, is its driving phase's mean; a vehicle drawn mid-trip is on one of them,
 * chosen in proportion to its length in time, at the point the drive model reaches after the elapsed
 * seconds; one warming up stands at the start of one of them, one arrived (or working) at the end of one. A
 * parked vehicle stands at its own parking place (its first leg next, planned when it is known or later in
 * the background). A power cut (parked vehicles only), a GPS loss and a GPRS loss may be in
 * progress, each with the share of time its model gives it. The counters of the day and the month are what
 * the same cycle gives from local midnight and the first of the month.
 *
 * It is the steady state of the hour's own rates: where the day's activity changes from one hour to the
 * next the running fleet lags it a little (a few per cent of the share moving for the first hour on a
 * morning ramp). Left out: a tow in progress (about 0.2 % of a vehicle's time), and where a vehicle out of
 * GPRS coverage was when its last report went out (it shows where it is now, dated when coverage was lost).
 */
export interface StartState {
  phase: Exclude<Phase, 'towed'>
  /** The trip it is on, at the start of, or at the end of (one of the network's trips); parked: its own
   * first leg when known. */
  trip: TripRoute | null
  /** Unix seconds when the phase ends (a parked vehicle's departure). */
  phaseEnd: number
  /** Metres along the trip (driving), its speed (m/s), and until when it stands in traffic. */
  dist: number
  speed: number
  stopUntil: number
  onTrip: boolean
  /** Seconds the engine has been running (0 when parked) or since it was switched off (parked). */
  engineOn: number
  engineOff: number
  /**
   * Unix seconds when a power cut, a GPS loss, a GPRS loss in progress ends (0: none), and when the GPRS
   * loss began (the server's last report).
   */
  powerBackAt: number
  gpsBackAt: number
  gprsBackAt: number
  silentSince: number
  today: { metres: number; moving: number; idle: number; drives: number }
  monthMetres: number
}

/** A trip of the network and what the drive model makes of it for one vehicle. */
export interface Trip {
  route: TripRoute
  drive: DriveEstimate
}

/** The mean of a vehicle's trips: seconds driving, of which standing in traffic, and metres. */
export interface TypicalTrip {
  seconds: number
  stopped: number
  metres: number
}

/** A vehicle as the sampler needs it: its kind, temperament, tracker, first leg and the network's trips. */
export interface StartInput {
  kind: VehicleKind
  tracker: TrackerKind
  /** The driver's temperament (`Vehicle.aggression`). */
  aggression: number
  /** Its first leg from its parking place when planned already (else it is planned later). */
  own: TripRoute | null
  /** Trips of the network driven by this vehicle (`sampleTrips`), and their mean; none: it stays parked. */
  trips: Trip[]
  typical: TypicalTrip | null
  /** Unix seconds of the start and the UTC offset of the network's time zone then. */
  t0: number
  offset: number
}

/**
 * Trips of the network each vehicle samples (with replacement) for its mean trip and, mid-trip, the trip it
 * is on. The phase's share is convex in the mean's error, so a sample of k leaves a bias of about 1/k of the
 * 3.5 % that one trip would (`bench/fleet-start.ts`): 0.4 % at 8, for 40,000 estimates at 5,000 vehicles.
 */
export const SAMPLED_TRIPS = 8

/**
 * A sample of the network's trips (the fleet's planned first legs) as this vehicle drives them, and their
 * mean: its typical trip.
 */
export function sampleTrips(
  routes: readonly TripRoute[],
  kind: VehicleKind,
  aggression: number,
  rng: Rng,
): { trips: Trip[]; typical: TypicalTrip | null } {
  if (routes.length === 0) return { trips: [], typical: null }
  const trips: Trip[] = []
  const typical = { seconds: 0, stopped: 0, metres: 0 }
  for (let k = 0; k < SAMPLED_TRIPS; k++) {
    const route = routes[Math.floor(rng.next() * routes.length)]!
    const drive = estimateDrive(route, kind, aggression)
    trips.push({ route, drive })
    typical.seconds += drive.seconds / SAMPLED_TRIPS
    typical.stopped += drive.stopped / SAMPLED_TRIPS
    typical.metres += route.cum[route.cum.length - 1]! / SAMPLED_TRIPS
  }
  return { trips, typical }
}

const mean = (range: readonly [number, number]) => (range[0] + range[1]) / 2
const share = (span: readonly [number, number], gap: number) => mean(span) / (gap + mean(span))
/** The share of time a tracker spends in a power cut, a GPS loss, a GPRS loss. */
const POWER_CUT_SHARE = share(EVENT_SPANS.powerCut, EVENT_MEANS.powerCut)
const GPS_LOSS_SHARE = share(EVENT_SPANS.gpsLoss, EVENT_MEANS.gpsLoss)
const GPRS_LOSS_SHARE = share(EVENT_SPANS.gprsLoss, EVENT_MEANS.gprsLoss)

/** Mean seconds of each phase of the cycle at an hour of `activity` (its day profile's factor). */
export function phaseMeans(kind: VehicleKind, activity: number, drive: TypicalTrip | null) {
  return {
    parked: mean(kind.dwell) / activity,
    starting: drive ? mean(WARM_UP_SECONDS) : 0,
    driving: drive?.seconds ?? 0,
    arrived: drive ? mean(ARRIVAL_SECONDS) : 0,
    working: drive && kind.work ? mean(kind.work) : 0,
  }
}

function cycleSeconds(m: ReturnType<typeof phaseMeans>): number {
  return m.parked + m.starting + m.driving + m.arrived + m.working
}

/**
 * The share of time the model has this vehicle moving (speed above 0) at an hour of `activity`: driving and
 * not standing in traffic, outside power cuts (which keep a vehicle parked).
 */
export function movingShare(
  kind: VehicleKind,
  tracker: TrackerKind,
  activity: number,
  drive: TypicalTrip | null,
): number {
  if (!drive) return 0
  const cut = tracker === 'beacon' ? 0 : POWER_CUT_SHARE
  return ((1 - cut) * (drive.seconds - drive.stopped)) / cycleSeconds(phaseMeans(kind, activity, drive))
}

/** A phase of uniform length between the bounds as the stationary process meets it: elapsed and left. */
function within(rng: Rng, lo: number, hi: number): { elapsed: number; left: number } {
  // Length-biased: a long phase is more likely to contain the instant (rejection against the longest).
  let length = hi
  for (let i = 0; i < 64; i++) {
    length = rng.between(lo, hi)
    if (rng.next() * hi <= length) break
  }
  const elapsed = rng.next() * length
  return { elapsed, left: Math.max(1, length - elapsed) }
}

/** A Poisson count of mean `lambda` (Knuth's method; the means here are below a hundred). */
function poisson(rng: Rng, lambda: number): number {
  const limit = Math.exp(-Math.min(lambda, 500))
  let k = 0
  let p = rng.next()
  while (p > limit && k < 1000) {
    k++
    p *= rng.next()
  }
  return k
}

const HOUR = 3600

/** Expected cycles between unix seconds `from` and `to`, hour by hour of the day profile. */
function cyclesBetween(input: StartInput, from: number, to: number): number {
  const factors = DAY_PROFILES[input.kind.day]
  let n = 0
  for (let s = from; s < to;) {
    const end = Math.min(to, s + HOUR - ((((s + input.offset) % HOUR) + HOUR) % HOUR))
    const a = factors[localHourOf(s, input.offset)]!
    n += (end - s) / cycleSeconds(phaseMeans(input.kind, a, input.typical))
    s = end
  }
  return n
}

/** One of the trips, in proportion to its seconds: the trip a random instant of driving falls in. */
function tripInProgress(trips: readonly Trip[], rng: Rng): Trip {
  let x = rng.next() * trips.reduce((sum, trip) => sum + trip.drive.seconds, 0)
  for (const trip of trips) if ((x -= trip.drive.seconds) < 0) return trip
  return trips[trips.length - 1]!
}

/** The vehicle's state at `input.t0`, drawn with `rng` from the steady state of that hour (see `StartState`). */
export function steadyStart(input: StartInput, rng: Rng): StartState {
  const { kind, t0, own, typical } = input
  const activity = DAY_PROFILES[kind.day][localHourOf(t0, input.offset)]!
  const m = phaseMeans(kind, activity, input.trips.length > 0 ? typical : null)
  const state: StartState = {
    phase: 'parked',
    trip: own,
    phaseEnd: t0,
    dist: 0,
    speed: 0,
    stopUntil: 0,
    onTrip: false,
    engineOn: 0,
    engineOff: 0,
    powerBackAt: 0,
    gpsBackAt: 0,
    gprsBackAt: 0,
    silentSince: 0,
    today: { metres: 0, moving: 0, idle: 0, drives: 0 },
    monthMetres: 0,
  }
  const cut = input.tracker !== 'beacon' && rng.next() < POWER_CUT_SHARE
  let x = rng.next() * cycleSeconds(m)
  const phase: StartState['phase'] =
    cut || (x -= m.parked) < 0
      ? 'parked'
      : (x -= m.starting) < 0
        ? 'starting'
        : (x -= m.driving) < 0
          ? 'driving'
          : (x -= m.arrived) < 0
            ? 'arrived'
            : 'working'
  state.phase = phase
  if (phase === 'parked') {
    // The dwell in activity seconds (the busiest hour's), its remainder run on the day's clock from now.
    const dwell = within(rng, kind.dwell[0], kind.dwell[1])
    state.phaseEnd = dwellEnd(kind.day, t0, input.offset, dwell.left)
    state.engineOff = dwell.elapsed / activity
    if (cut) state.powerBackAt = t0 + Math.round(within(rng, ...EVENT_SPANS.powerCut).left)
  } else if (phase === 'starting') {
    // About to drive one of the network's trips, at its start.
    state.trip = input.trips[Math.floor(rng.next() * input.trips.length)]!.route
    const warm = within(rng, ...WARM_UP_SECONDS)
    state.phaseEnd = t0 + Math.round(warm.left)
    state.engineOn = warm.elapsed
  } else if (phase === 'driving') {
    const { route, drive } = tripInProgress(input.trips, rng)
    const elapsed = rng.next() * drive.seconds
    const at = placeAlong(route, kind, input.aggression, elapsed, rng.next())
    const total = route.cum[route.cum.length - 1]!
    const cruise = Math.min(route.speed[at.segment]! * input.aggression, kind.maxKmh) / 3.6
    // At its cruising speed, or braking for the end of the trip; still rolling at a walking pace at least.
    const braking = Math.sqrt(2 * BRAKE_MS2 * Math.max(0, total - at.dist))
    state.trip = route
    state.dist = at.dist
    state.speed = at.standing ? 0 : Math.max(1.5, Math.min(cruise, braking))
    if (at.standing) state.stopUntil = t0 + Math.round(within(rng, ...EVENT_SPANS.trafficStop).left)
    state.engineOn = m.starting + elapsed
    state.phaseEnd = t0
  } else {
    // Arrived at the end of one of the network's trips.
    state.trip = input.trips[Math.floor(rng.next() * input.trips.length)]!.route
    const span = phase === 'working' && kind.work ? kind.work : ARRIVAL_SECONDS
    const stay = within(rng, span[0], span[1])
    state.phaseEnd = t0 + Math.round(stay.left)
    state.engineOn = m.starting + m.driving + (phase === 'working' ? m.arrived : 0) + stay.elapsed
  }
  state.onTrip = (phase === 'starting' || phase === 'driving') && rng.next() < kind.tripShare
  if (rng.next() < GPS_LOSS_SHARE) state.gpsBackAt = t0 + Math.round(within(rng, ...EVENT_SPANS.gpsLoss).left)
  if (rng.next() < GPRS_LOSS_SHARE) {
    const loss = within(rng, ...EVENT_SPANS.gprsLoss)
    state.gprsBackAt = t0 + Math.round(loss.left)
    state.silentSince = t0 - Math.round(loss.elapsed)
  }
  dayCounters(input, state, rng)
  return state
}

/** Today's and this month's driving as the cycle gives it from local midnight and the first of the month. */
function dayCounters(input: StartInput, state: StartState, rng: Rng): void {
  const { t0, offset, typical } = input
  if (!typical) return
  const sinceMidnight = (((t0 + offset) % 86_400) + 86_400) % 86_400
  // The run under way counts today when it began after midnight.
  const current = state.phase !== 'parked' && state.engineOn < sinceMidnight
  const before = Math.max(0, sinceMidnight - (current ? state.engineOn : state.engineOff))
  const done = poisson(rng, cyclesBetween(input, t0 - sinceMidnight, t0 - sinceMidnight + before))
  const moving = typical.seconds - typical.stopped
  const idle = mean(WARM_UP_SECONDS) + mean(ARRIVAL_SECONDS) + (input.kind.work ? mean(input.kind.work) : 0)
  const today = state.today
  today.drives = done + (current ? 1 : 0)
  today.metres = done * typical.metres * rng.between(0.8, 1.2)
  today.moving = done * moving
  today.idle = done * (idle + typical.stopped)
  if (current && state.trip) {
    const length = state.trip.cum[state.trip.cum.length - 1]!
    const driven = state.phase === 'driving' ? state.dist : state.phase === 'starting' ? 0 : length
    const movedFor = moving * (driven / Math.max(1, typical.metres))
    today.metres += driven
    today.moving += movedFor
    today.idle += Math.max(0, state.engineOn - movedFor)
  }
  today.moving = Math.round(today.moving)
  today.idle = Math.round(today.idle)
  const dayOfMonth = new Date((t0 + offset) * 1000).getUTCDate()
  const perDay = cyclesBetween(input, t0 - sinceMidnight - 86_400, t0 - sinceMidnight) * typical.metres
  state.monthMetres = today.metres + (dayOfMonth - 1) * perDay * rng.between(0.85, 1.15)
}
