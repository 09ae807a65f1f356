import { HIGHWAY_CLASSES } from '../../routing/data/profiles'
import type { RouteStep } from '../../routing/engine/route'

/**
 * A route as a vehicle drives it: flat typed arrays (a few kB per trip), built in the worker from the routing
 * engine's path and steps. Segment i runs from vertex i to vertex i + 1.
 */
export interface TripRoute {
  /** lon, lat of each vertex. */
  coords: Float32Array
  /** Metres from the start at each vertex. */
  cum: Float32Array
  /** km/h of each segment under the routing profile (the road class's speed, or its maxspeed). */
  speed: Float32Array
  /** Highway class of each segment (index into HIGHWAY_CLASSES). */
  cls: Uint8Array
  /** Degrees the path turns at each vertex (0 at both ends). */
  turn: Uint8Array
  /** Metres and seconds of the whole route, as the routing engine gives them. */
  distance: number
  duration: number
}

const RAD = Math.PI / 180
const M_PER_DEG = 6_371_008.8 * RAD

/** Metres between two lon/lat points (equirectangular: exact enough for segments of a city street). */
export function segmentMetres(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const x = (lon2 - lon1) * Math.cos(((lat1 + lat2) / 2) * RAD)
  const y = lat2 - lat1
  return Math.sqrt(x * x + y * y) * M_PER_DEG
}

/** Compass bearing in degrees (0 north, clockwise) from one point to the next. */
export function bearing(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const x = (lon2 - lon1) * Math.cos(((lat1 + lat2) / 2) * RAD)
  const y = lat2 - lat1
  const deg = Math.atan2(x, y) / RAD
  return deg < 0 ? deg + 360 : deg
}

/** The smallest angle between two bearings, 0–180. */
export function turnBetween(a: number, b: number): number {
  const d = Math.abs(a - b) % 360
  return d > 180 ? 360 - d : d
}

/** Compact a routing-engine route (geometry and steps) into a TripRoute; null for a route without length. */
export function compactRoute(
  geometry: ReadonlyArray<readonly [number, number]>,
  steps: readonly RouteStep[],
  distance: number,
  duration: number,
): TripRoute | null {
  // Drop repeated vertices so every segment has a direction.
  const points: Array<readonly [number, number]> = []
  const stepAt: number[] = []
  let step = 0
  for (let i = 0; i < geometry.length; i++) {
    while (step + 1 < steps.length && steps[step + 1]!.start <= i) step++
    const p = geometry[i]!
    const last = points[points.length - 1]
    if (last && segmentMetres(last[0], last[1], p[0], p[1]) < 0.05) continue
    points.push(p)
    stepAt.push(step)
  }
  const n = points.length
  if (n < 2) return null
  const coords = new Float32Array(n * 2)
  const cum = new Float32Array(n)
  const speed = new Float32Array(n - 1)
  const cls = new Uint8Array(n - 1)
  const turn = new Uint8Array(n)
  const heading = new Float32Array(n - 1)
  for (let i = 0; i < n; i++) {
    coords[i * 2] = points[i]![0]
    coords[i * 2 + 1] = points[i]![1]
    if (i === 0) continue
    const [x0, y0] = points[i - 1]!
    const [x1, y1] = points[i]!
    cum[i] = cum[i - 1]! + segmentMetres(x0, y0, x1, y1)
    // A segment belongs to the step of its end vertex, unless that vertex starts the next step.
    const s = steps[Math.min(stepAt[i - 1]!, steps.length - 1)]
    speed[i - 1] = Math.max(5, s?.speedKmh ?? 20)
    cls[i - 1] = Math.max(0, HIGHWAY_CLASSES.indexOf((s?.cls ?? 'residential') as never))
    heading[i - 1] = bearing(x0, y0, x1, y1)
  }
  for (let i = 1; i < n - 1; i++) turn[i] = Math.round(turnBetween(heading[i - 1]!, heading[i]!))
  return { coords, cum, speed, cls, turn, distance, duration }
}
