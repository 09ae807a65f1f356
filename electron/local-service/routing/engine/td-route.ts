import { ACCESS_PENALTY_FACTOR, Access, PROFILES } from '../data/profiles'
import { hourOfWeekLocal, type SpeedModel } from '../data/speed-model'
import { forwardGraph, type ForwardGraph } from './dijkstra'
import { IndexedHeap } from './heap'
import type { Metric, Snap } from './network'

/**
 * Time-dependent shortest paths for the predictive matrix (§4.4): Dijkstra on arrival times, where the
 * time to travel an edge depends on when it is entered. Speeds change at each local hour boundary by the
 * speed model's factor for the edge's class; an edge entered before a boundary is travelled at the old
 * speed up to the boundary and at the new one after it, so leaving later never means arriving earlier
 * (FIFO) and the label-setting search is exact for this model.
 */
export class TimeDependentRouter {
  private readonly graph: ForwardGraph
  /** Free-flow seconds and class id per arc. */
  private readonly arcSeconds: Float64Array
  private readonly arcClass: Uint8Array
  private readonly arcPenalty: Float64Array
  private readonly heap: IndexedHeap
  private readonly key: Float64Array
  private readonly real: Float64Array
  private readonly len: Float64Array
  private readonly touched: number[] = []

  constructor(
    readonly metric: Metric,
    private readonly model: SpeedModel,
    /** Seconds to add to UTC for local time (the network's zone at departure). */
    readonly utcOffset: number,
  ) {
    const net = metric.network
    this.graph = forwardGraph(metric)
    const m = this.graph.head.length
    this.arcSeconds = new Float64Array(m)
    this.arcClass = new Uint8Array(m)
    this.arcPenalty = new Float64Array(m)
    const p = PROFILES.indexOf(metric.spec.profile)
    for (let i = 0; i < m; i++) {
      const e = this.graph.edge[i]! >> 1
      const backward = (this.graph.edge[i]! & 1) === 1
      const attr = net.header.attributes[net.arrays.edgeAttr[e]!]!
      const view = attr.views[p]!
      this.arcSeconds[i] = net.arrays.edgeLenDm[e]! / 10 / (view[2] / 3.6)
      this.arcClass[i] = attr.cls
      this.arcPenalty[i] = (backward ? view[1] : view[0]) === Access.Penalized ? ACCESS_PENALTY_FACTOR : 1
    }
    const n = net.nodeCount
    this.heap = new IndexedHeap(n)
    this.key = new Float64Array(n).fill(Infinity)
    this.real = new Float64Array(n)
    this.len = new Float64Array(n)
  }

  /** Seconds to travel `freeSeconds` of free-flow time on class `cls`, entering at unix time `t`. */
  traverse(t: number, freeSeconds: number, cls: number): number {
    const factors = this.model.factors[cls]!
    let left = freeSeconds
    let time = t
    for (let guard = 0; guard < 400; guard++) {
      const local = time + this.utcOffset
      const factor = Math.max(0.05, factors[hourOfWeekLocal(local)] ?? 1)
      const boundary = time + (3600 - (((local % 3600) + 3600) % 3600))
      const need = left / factor
      if (time + need <= boundary) return time + need - t
      left -= (boundary - time) * factor
      time = boundary
    }
    return time - t + left
  }

  /** Free-flow seconds of edge e in a direction, its penalty factor; undefined when closed that way. */
  private edgeCost(e: number, forward: boolean): { seconds: number; penalty: number } | undefined {
    const net = this.metric.network
    if ((forward ? this.metric.wF[e]! : this.metric.wB[e]!) < 0) return undefined
    const p = PROFILES.indexOf(this.metric.spec.profile)
    const view = net.header.attributes[net.arrays.edgeAttr[e]!]!.views[p]!
    return {
      seconds: net.arrays.edgeLenDm[e]! / 10 / (view[2] / 3.6),
      penalty: (forward ? view[0] : view[1]) === Access.Penalized ? ACCESS_PENALTY_FACTOR : 1,
    }
  }

  /**
   * Earliest arrival at `to` leaving `from` at unix time `depart`: seconds and metres, or null when
   * unreachable. The route minimises time with access penalties as rtype 0 does (a penalized road's time
   * counts ACCESS_PENALTY_FACTOR times in the choice); the seconds reported are the real ones.
   */
  leg(from: Snap, to: Snap, depart: number): { seconds: number; metres: number } | null {
    const net = this.metric.network
    const a = net.arrays
    const cls = (e: number) => net.header.attributes[a.edgeAttr[e]!]!.cls
    const lenM = (e: number) => a.edgeLenDm[e]! / 10
    const { key, real, len, heap, touched } = this
    for (const x of touched) key[x] = Infinity
    touched.length = 0
    heap.clear()
    const label = (node: number, k: number, t: number, metres: number) => {
      if (k < key[node]!) {
        if (key[node] === Infinity) touched.push(node)
        key[node] = k
        real[node] = t
        len[node] = metres
        heap.push(node, k)
      }
    }
    /** Travel share `share` of edge e in a direction from time t (key k): [key, time, metres] or undefined. */
    const along = (e: number, forward: boolean, share: number, k: number, t: number) => {
      const c = this.edgeCost(e, forward)
      if (!c) return undefined
      const dt = this.traverse(t, c.seconds * share, cls(e))
      return [k + dt * c.penalty, t + dt, lenM(e) * share] as const
    }
    // Leave the start position along its edge or against it (a position on a node is that node).
    if (from.t <= 0) label(a.edgeU[from.edge]!, depart, depart, 0)
    else if (from.t >= 1) label(a.edgeV[from.edge]!, depart, depart, 0)
    else {
      const f = along(from.edge, true, 1 - from.t, depart, depart)
      if (f) label(a.edgeV[from.edge]!, f[0], f[1], f[2])
      const b = along(from.edge, false, from.t, depart, depart)
      if (b) label(a.edgeU[from.edge]!, b[0], b[1], b[2])
    }
    let bestKey = Infinity
    let bestTime = Infinity
    let bestMetres = 0
    const offer = (k: number, t: number, metres: number) => {
      if (k < bestKey) {
        bestKey = k
        bestTime = t
        bestMetres = metres
      }
    }
    // Both on one edge, in a direction it allows: along the edge.
    if (from.edge === to.edge) {
      const d = along(from.edge, to.t >= from.t, Math.abs(to.t - from.t), depart, depart)
      if (d) offer(d[0], d[1], d[2])
    }
    const toU = a.edgeU[to.edge]!
    const toV = a.edgeV[to.edge]!
    const g = this.graph
    while (heap.size > 0 && heap.peekKey() < bestKey) {
      const x = heap.pop()
      const k = key[x]!
      const t = real[x]!
      // At an end of the target's edge: finish along it (or stop, when the target is that node).
      if (x === toU) {
        if (to.t <= 0) offer(k, t, len[x]!)
        else {
          const f = along(to.edge, true, Math.min(1, to.t), k, t)
          if (f) offer(f[0], f[1], len[x]! + f[2])
        }
      }
      if (x === toV) {
        if (to.t >= 1) offer(k, t, len[x]!)
        else {
          const b = along(to.edge, false, 1 - Math.max(0, to.t), k, t)
          if (b) offer(b[0], b[1], len[x]! + b[2])
        }
      }
      for (let i = g.start[x]!, end = g.start[x + 1]!; i < end; i++) {
        const dt = this.traverse(t, this.arcSeconds[i]!, this.arcClass[i]!)
        label(g.head[i]!, k + dt * this.arcPenalty[i]!, t + dt, len[x]! + lenM(g.edge[i]! >> 1))
      }
    }
    return bestKey === Infinity ? null : { seconds: bestTime - depart, metres: bestMetres }
  }
}
