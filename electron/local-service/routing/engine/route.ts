import { PROFILES } from '../data/profiles'
import { unpackArc, UpwardSearch, type ContractionHierarchy } from './ch'
import { sameEdge, seeds } from './matrix'
import type { Metric, Snap } from './network'

/** One stretch of a route along one edge, for callers that move along it (the simulated fleet). */
export interface RouteStep {
  edge: number
  /** Highway class of the edge. */
  cls: string
  /** Speed on it in km/h under the metric (free flow or with the metric's factors). */
  speedKmh: number
  /** Metres and seconds of this stretch. */
  distance: number
  duration: number
  /** Index in the route's geometry where the stretch starts. */
  start: number
}

export interface RouteResult {
  /** Metres and seconds (0.1 precision as the matrix gives them). */
  distance: number
  duration: number
  /** The weight the route minimises (integer; duration or length in tenths, penalties included). */
  weight: number
  geometry: Array<[number, number]>
  steps: RouteStep[]
}

/** One edge travelled from fraction `from` to `to` (from > to: against its direction). */
interface Piece {
  edge: number
  from: number
  to: number
}

/** The shortest route between two snapped positions on a metric's hierarchy; null when none. */
export function routeBetween(
  metric: Metric,
  ch: ContractionHierarchy,
  from: Snap,
  to: Snap,
): RouteResult | null {
  const fwd = new UpwardSearch(ch, true)
  const bwd = new UpwardSearch(ch, false)
  const fSeeds = seeds(metric, from, true)
  const bSeeds = seeds(metric, to, false)
  fwd.run(fSeeds)
  bwd.run(bSeeds)
  let best = Infinity
  let meet = -1
  for (const x of bwd.settled) {
    const w = fwd.w[x]! + bwd.w[x]!
    if (w < best) {
      best = w
      meet = x
    }
  }
  const direct = sameEdge(metric, from, to)
  const pieces: Piece[] = []
  if (direct && direct.w <= best) {
    pieces.push({ edge: from.edge, from: from.t, to: to.t })
  } else {
    if (meet < 0) return null
    const edges: number[] = []
    for (const arc of fwd.arcsTo(meet)) unpackArc(ch, arc, edges)
    for (const arc of bwd.arcsTo(meet)) unpackArc(ch, arc, edges)
    const a = metric.network.arrays
    // The first piece: from the position to the end of its edge the search left by.
    const startSeed = fSeeds[fwd.seedOf[meet]!]
    if (startSeed && from.t > 0 && from.t < 1)
      pieces.push({ edge: from.edge, from: from.t, to: startSeed.node === a.edgeV[from.edge] ? 1 : 0 })
    for (const e2 of edges) pieces.push({ edge: e2 >> 1, from: e2 & 1 ? 1 : 0, to: e2 & 1 ? 0 : 1 })
    const endSeed = bSeeds[bwd.seedOf[meet]!]
    if (endSeed && to.t > 0 && to.t < 1)
      pieces.push({ edge: to.edge, from: endSeed.node === a.edgeU[to.edge] ? 0 : 1, to: to.t })
  }
  return assemble(metric, pieces)
}

function assemble(metric: Metric, pieces: Piece[]): RouteResult {
  const net = metric.network
  const p = PROFILES.indexOf(metric.spec.profile)
  const geometry: Array<[number, number]> = []
  const steps: RouteStep[] = []
  let distance = 0
  let duration = 0
  let weight = 0
  for (const piece of pieces) {
    const e = piece.edge
    const share = Math.abs(piece.to - piece.from)
    const forward = piece.to >= piece.from
    const lenDm = net.arrays.edgeLenDm[e]! * share
    const durDs = (forward ? metric.durF[e]! : metric.durB[e]!) * share
    const w = (forward ? metric.wF[e]! : metric.wB[e]!) * share
    const line = net.edgeGeometry(e, piece.from, piece.to)
    const start = Math.max(0, geometry.length - 1)
    for (const point of geometry.length > 0 ? line.slice(1) : line) geometry.push(point)
    const attr = net.header.attributes[net.arrays.edgeAttr[e]!]!
    const factor = metric.spec.factors?.[attr.cls] ?? 1
    steps.push({
      edge: e,
      cls: net.edgeClass(e),
      speedKmh: Math.round(attr.views[p]![2] * factor * 10) / 10,
      distance: Math.round(lenDm) / 10,
      duration: Math.round(durDs) / 10,
      start,
    })
    distance += lenDm
    duration += durDs
    weight += w
  }
  if (geometry.length === 1) geometry.push(geometry[0]!)
  return {
    distance: Math.round(distance) / 10,
    duration: Math.round(duration) / 10,
    weight: Math.round(weight),
    geometry,
    steps,
  }
}
