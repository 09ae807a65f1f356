import type { Profile } from '../data/profiles'
import type { SpeedModel } from '../data/speed-model'
import type { RouteStep } from './route'

/**
 * The routing engine's entry points as serializable jobs and outcomes (plain data and arrays): what a
 * worker receives and answers, so a worker pool runs them unchanged. Networks are passed by reference
 * (id and file); the worker keeps loaded networks and their hierarchies in a bounded cache by id.
 */

export interface NetworkRef {
  id: string
  file: string
  /** [minLon, minLat, maxLon, maxLat], when known: networks that cannot contain a position are not loaded. */
  bbox?: [number, number, number, number]
}

/** Which speeds a matrix uses: free flow, the model's hour at a time (ETA), or typical traffic. */
export type TrafficSpec = { kind: 'free' } | { kind: 'eta'; time: number } | { kind: 'typical' }

export type LonLat = [number, number]

interface NetworkChoice {
  /** Candidate networks, in order of preference (imported ones first). */
  networks: NetworkRef[]
  /** A network chosen by id; otherwise the one that places most positions wins. */
  network?: string
  /** Folder where contraction hierarchies are kept between runs (the workspace's cache); none: memory only. */
  cacheDir?: string
}

export interface MatrixJob extends NetworkChoice {
  kind: 'matrix'
  profile: Profile
  rtype: 0 | 1
  traffic: TrafficSpec
  speedModel?: SpeedModel
  /** null for a position that could not be resolved (its cells are null). */
  positions: Array<LonLat | null>
  sources: number[]
  destinations: number[]
  /** Also return the integer weights minimised (for exactness checks). */
  includeWeights?: boolean
}

export interface SnappedPosition {
  lon: number
  lat: number
  /** Metres from the given position. */
  distance: number
}

export interface MatrixOutcome {
  kind: 'matrix'
  network: string | null
  code: 'Ok' | 'NoRoute'
  /** Metres and seconds, 0.1 precision; rows = sources, columns = destinations; null when no route. */
  distances: Array<Array<number | null>>
  durations: Array<Array<number | null>>
  weights?: Array<Array<number | null>>
  snapped: Array<SnappedPosition | null>
  /** Milliseconds: placing positions, building the hierarchy (0 when cached), searching. */
  timing: { snap: number; prepare: number; search: number }
}

export interface PredictiveJob extends NetworkChoice {
  kind: 'predictive'
  /** Start, vias, end. */
  positions: LonLat[]
  /** Departures (unix seconds) to evaluate; the first is the answer, more give a "when to leave" curve. */
  departures: number[]
  speedModel?: SpeedModel
}

export interface PredictiveOutcome {
  kind: 'predictive'
  network: string | null
  code: 'Ok' | 'NoRoute'
  /** Per departure: total metres and seconds through every via (null when some leg has no route). */
  results: Array<{ departure: number; distance: number | null; duration: number | null }>
  snapped: Array<SnappedPosition | null>
  /** Whether the speeds come from the built-in model rather than imported profiles. */
  model: boolean
  timeZone: string | null
}

export interface RouteJob extends NetworkChoice {
  kind: 'route'
  profile: Profile
  rtype?: 0 | 1
  from: LonLat
  to: LonLat
}

export interface RouteOutcome {
  kind: 'route'
  network: string | null
  route: {
    distance: number
    duration: number
    geometry: LonLat[]
    steps: RouteStep[]
  } | null
  snapped: Array<SnappedPosition | null>
}

export interface SnapJob extends NetworkChoice {
  kind: 'snap'
  profile: Profile
  positions: LonLat[]
}

export interface SnapOutcome {
  kind: 'snap'
  network: string | null
  snapped: Array<SnappedPosition | null>
}

export interface RandomPointsJob {
  kind: 'randomPoints'
  network: NetworkRef
  profile: Profile
  count: number
  seed: number
}

export interface RandomPointsOutcome {
  kind: 'randomPoints'
  network: string
  points: LonLat[]
}

export interface InfoJob {
  kind: 'info'
  network: NetworkRef
}

export interface InfoOutcome {
  kind: 'info'
  network: string
  name: string
  attribution: string
  bbox: [number, number, number, number]
  timeZone: string
  counts: { nodes: number; edges: number; coords: number; ways: number }
  /** Milliseconds to load the file (0 when it was cached), bytes of the loaded arrays. */
  loadMs: number
  bytes: number
}

export type RoutingJob = MatrixJob | PredictiveJob | RouteJob | SnapJob | RandomPointsJob | InfoJob
export type RoutingOutcome =
  MatrixOutcome | PredictiveOutcome | RouteOutcome | SnapOutcome | RandomPointsOutcome | InfoOutcome

export type OutcomeOf<J extends RoutingJob> = J extends MatrixJob
  ? MatrixOutcome
  : J extends PredictiveJob
    ? PredictiveOutcome
    : J extends RouteJob
      ? RouteOutcome
      : J extends SnapJob
        ? SnapOutcome
        : J extends RandomPointsJob
          ? RandomPointsOutcome
          : InfoOutcome
