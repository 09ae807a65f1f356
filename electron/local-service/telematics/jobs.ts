import type { WorkerPart } from '../pool/job'
import type { LonLat, NetworkRef } from '../routing/engine/jobs'
import { routingEngine } from '../routing/jobs'
import { compactRoute, type TripRoute } from './engine/trip-route'

/**
 * Trips of the simulated fleet on one network (driving profile): each leg starts at a position and ends at a
 * random routable point chosen by its own seed, so a leg depends on nothing but its inputs.
 */
export interface TripsJob {
  network: NetworkRef
  cacheDir?: string
  legs: Array<{ from: LonLat; toSeed: number }>
}

export interface TripsOutcome {
  /** One per leg, in order; null when the network has no route to the chosen point. */
  routes: Array<TripRoute | null>
}

export async function planTrips(job: TripsJob): Promise<TripsOutcome> {
  const engine = routingEngine()
  const { points } = await planPoints({ network: job.network, seeds: job.legs.map((l) => l.toSeed) })
  const routes: Array<TripRoute | null> = []
  for (const [i, leg] of job.legs.entries()) {
    const to = points[i]
    if (!to) {
      routes.push(null)
      continue
    }
    const outcome = await engine.route({
      kind: 'route',
      networks: [job.network],
      network: job.network.id,
      profile: 'driving',
      from: leg.from,
      to,
      cacheDir: job.cacheDir,
    })
    const r = outcome.route
    routes.push(r ? compactRoute(r.geometry, r.steps, r.distance, r.duration) : null)
  }
  return { routes }
}

/** Points of the fleet: one routable point per seed (the vehicles' parking places at the start). */
export interface PointsJob {
  network: NetworkRef
  seeds: number[]
}

export function planPoints(job: PointsJob): Promise<{ points: LonLat[] }> {
  const { points } = routingEngine().randomPoints({
    kind: 'randomPoints',
    network: job.network,
    profile: 'driving',
    count: 0,
    seed: 0,
    seeds: job.seeds,
  })
  return Promise.resolve({ points })
}

/**
 * The telematics area's job kinds: trips are routed in the worker pool with the worker's routing engine (the
 * network and its hierarchy are loaded once per worker, shared with the routing area's jobs).
 */
export const telematicsJobs = {
  'telematics.trips': (job: TripsJob) => planTrips(job),
  'telematics.points': (job: PointsJob) => planPoints(job),
}

/** The telematics area's part of a pool worker, listed in `../job-list.ts`. */
export const telematicsWorker = { jobs: telematicsJobs } satisfies WorkerPart
