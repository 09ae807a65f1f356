import Flatbush from 'flatbush'
import {
  decodeNetwork,
  readNetworkFile,
  type NetworkArrays,
  type NetworkData,
  type NetworkHeader,
} from '../data/graph-file'
import { ACCESS_PENALTY_FACTOR, Access, HIGHWAY_CLASSES, PROFILES, type Profile } from '../data/profiles'
import { boxCovers, SNAP_LIMIT_M } from '../../../contract/routing/coverage'
import { contract, type ContractionHierarchy, type InputArcs } from './ch'
import { lastAtMost } from './numeric'

const E7 = 1e7
const RAD = Math.PI / 180
const EARTH_RADIUS_M = 6_371_008.8
const M_PER_DEG = EARTH_RADIUS_M * RAD

/** Positions farther than this from every road are not snapped (the rule the renderer checks too). */
export { SNAP_LIMIT_M }

/** rtype of §4.3: 0 least time (optimal), 1 least distance (shortest). */
export type RouteType = 0 | 1

/**
 * What a metric minimises and how fast each class goes. `factors` (per highway class id) scale free-flow
 * speeds: absent for free flow, the hour's factors for an ETA, typical-traffic factors for traffic.
 */
export interface MetricSpec {
  profile: Profile
  rtype: RouteType
  factors?: readonly number[]
  /** Identifies the factors in caches ("free", "how:37", "typical", …). */
  factorKey?: string
}

export function metricKey(spec: MetricSpec): string {
  return `${spec.profile}:${spec.rtype}:${spec.factors ? (spec.factorKey ?? spec.factors.join(',')) : 'free'}`
}

/**
 * A profile's view of the network as integer weights: per edge the weight of travelling it forward and
 * backward (-1 when closed), with duration (0.1 s) and length (dm) beside it. rtype 0 weighs duration
 * (penalized access counts ACCESS_PENALTY_FACTOR times); rtype 1 weighs length and leaves penalized ways out.
 */
export class Metric {
  readonly wF: Int32Array
  readonly wB: Int32Array
  readonly durF: Int32Array
  readonly durB: Int32Array
  /** 1 for nodes of the largest strongly connected component: positions snap only onto edges between them. */
  readonly main: Uint8Array
  readonly mainSize: number
  private hierarchy: ContractionHierarchy | undefined
  /** Milliseconds the contraction took (0 until built). */
  contractMs = 0

  constructor(
    readonly network: RoadNetwork,
    readonly spec: MetricSpec,
  ) {
    const { edgeAttr, edgeLenDm } = network.arrays
    const attrs = network.header.attributes
    const p = PROFILES.indexOf(spec.profile)
    const e = edgeAttr.length
    this.wF = new Int32Array(e)
    this.wB = new Int32Array(e)
    this.durF = new Int32Array(e)
    this.durB = new Int32Array(e)
    for (let i = 0; i < e; i++) {
      const attr = attrs[edgeAttr[i]!]!
      const [fwd, bwd, speed] = attr.views[p]!
      const factor = spec.factors?.[attr.cls] ?? 1
      const metresPerDs = (speed * factor) / 36
      const dur = metresPerDs > 0 ? Math.round(edgeLenDm[i]! / 10 / metresPerDs) : 0
      const weigh = (access: number) => {
        if (access === Access.No || speed <= 0) return -1
        if (spec.rtype === 1) return access === Access.Penalized ? -1 : edgeLenDm[i]!
        return access === Access.Penalized ? dur * ACCESS_PENALTY_FACTOR : dur
      }
      this.wF[i] = weigh(fwd)
      this.wB[i] = weigh(bwd)
      this.durF[i] = dur
      this.durB[i] = dur
    }
    const { main, size } = largestComponent(network, this.wF, this.wB)
    this.main = main
    this.mainSize = size
  }

  /** Whether positions may snap onto edge e. */
  usable(e: number): boolean {
    const a = this.network.arrays
    return (
      (this.wF[e]! >= 0 || this.wB[e]! >= 0) && this.main[a.edgeU[e]!] === 1 && this.main[a.edgeV[e]!] === 1
    )
  }

  /** The directed arcs of this metric. */
  arcs(): InputArcs {
    const a = this.network.arrays
    const e = this.wF.length
    let m = 0
    for (let i = 0; i < e; i++) m += (this.wF[i]! >= 0 ? 1 : 0) + (this.wB[i]! >= 0 ? 1 : 0)
    const out: InputArcs = {
      tail: new Int32Array(m),
      head: new Int32Array(m),
      weight: new Int32Array(m),
      dur: new Int32Array(m),
      dist: new Int32Array(m),
      edge: new Int32Array(m),
    }
    let k = 0
    for (let i = 0; i < e; i++) {
      const u = a.edgeU[i]!
      const v = a.edgeV[i]!
      if (this.wF[i]! >= 0) {
        out.tail[k] = u
        out.head[k] = v
        out.weight[k] = this.wF[i]!
        out.dur[k] = this.durF[i]!
        out.dist[k] = a.edgeLenDm[i]!
        out.edge[k++] = i * 2
      }
      if (this.wB[i]! >= 0) {
        out.tail[k] = v
        out.head[k] = u
        out.weight[k] = this.wB[i]!
        out.dur[k] = this.durB[i]!
        out.dist[k] = a.edgeLenDm[i]!
        out.edge[k++] = i * 2 + 1
      }
    }
    return out
  }

  /** The contraction hierarchy of this metric, built on first use. */
  ch(): ContractionHierarchy {
    if (!this.hierarchy) {
      const started = performance.now()
      this.hierarchy = contract(this.network.nodeCount, this.arcs())
      this.contractMs = performance.now() - started
    }
    return this.hierarchy
  }

  /** Bytes of the weights and the hierarchy. */
  get bytes(): number {
    let total = this.wF.byteLength * 4 + this.main.byteLength
    const ch = this.hierarchy
    if (ch)
      for (const v of Object.values(ch)) if (ArrayBuffer.isView(v)) total += (v as Int32Array).byteLength
    return total
  }

  /** Adopt a hierarchy read from the cache folder. */
  useHierarchy(ch: ContractionHierarchy): void {
    this.hierarchy = ch
  }

  get hasHierarchy(): boolean {
    return this.hierarchy !== undefined
  }
}

/** Tarjan's strongly connected components (iterative); the largest one as a node mask. */
function largestComponent(
  network: RoadNetwork,
  wF: Int32Array,
  wB: Int32Array,
): { main: Uint8Array; size: number } {
  const n = network.nodeCount
  const { adjStart, adjEdge } = network
  const { edgeU, edgeV } = network.arrays
  const index = new Int32Array(n).fill(-1)
  const low = new Int32Array(n)
  const onStack = new Uint8Array(n)
  const comp = new Int32Array(n).fill(-1)
  const stack: number[] = []
  const callNode: number[] = []
  const callPos: number[] = []
  let counter = 0
  let comps = 0
  const sizes: number[] = []
  // Out-neighbour j of x via adjacency slot i, or -1 when the edge is closed in that direction.
  const next = (x: number, i: number) => {
    const e = adjEdge[i]!
    if (edgeU[e] === x && wF[e]! >= 0) return edgeV[e]!
    if (edgeV[e] === x && wB[e]! >= 0) return edgeU[e]!
    return -1
  }
  for (let s = 0; s < n; s++) {
    if (index[s] !== -1) continue
    callNode.push(s)
    callPos.push(adjStart[s]!)
    index[s] = low[s] = counter++
    stack.push(s)
    onStack[s] = 1
    while (callNode.length > 0) {
      const x = callNode[callNode.length - 1]!
      const i = callPos[callPos.length - 1]!
      if (i < adjStart[x + 1]!) {
        callPos[callPos.length - 1] = i + 1
        const y = next(x, i)
        if (y < 0) continue
        if (index[y] === -1) {
          index[y] = low[y] = counter++
          stack.push(y)
          onStack[y] = 1
          callNode.push(y)
          callPos.push(adjStart[y]!)
        } else if (onStack[y]) low[x] = Math.min(low[x]!, index[y]!)
        continue
      }
      callNode.pop()
      callPos.pop()
      if (callNode.length > 0) {
        const parent = callNode[callNode.length - 1]!
        low[parent] = Math.min(low[parent]!, low[x]!)
      }
      if (low[x] === index[x]) {
        let size = 0
        let y: number
        do {
          y = stack.pop()!
          onStack[y] = 0
          comp[y] = comps
          size++
        } while (y !== x)
        sizes.push(size)
        comps++
      }
    }
  }
  let best = 0
  for (let c = 1; c < comps; c++) if (sizes[c]! > sizes[best]!) best = c
  const main = new Uint8Array(n)
  // A single node with no usable edge is not a component worth snapping to.
  let size = 0
  if (comps > 0 && sizes[best]! > 1)
    for (let v = 0; v < n; v++)
      if (comp[v] === best) {
        main[v] = 1
        size++
      }
  return { main, size }
}

/** A position placed on the network: on edge `edge` at fraction `t` of its length from edgeU. */
export interface Snap {
  edge: number
  t: number
  /** The point on the edge. */
  lon: number
  lat: number
  /** Metres from the given position to the point. */
  distance: number
}

/** A loaded road network: typed arrays of the file, node adjacency, snapping index, metrics by key. */
export class RoadNetwork {
  readonly header: NetworkHeader
  readonly arrays: NetworkArrays
  readonly nodeCount: number
  readonly edgeCount: number
  /** Undirected adjacency: the edges at node x are adjEdge[adjStart[x] .. adjStart[x+1]-1]. */
  readonly adjStart: Int32Array
  readonly adjEdge: Int32Array
  private readonly index: Flatbush
  private readonly xScale: number
  private readonly metrics = new Map<string, Metric>()

  constructor(data: NetworkData) {
    this.header = data.header
    this.arrays = data.arrays
    this.nodeCount = data.arrays.nodeLon.length
    this.edgeCount = data.arrays.edgeU.length
    const { edgeU, edgeV } = data.arrays
    const count = new Int32Array(this.nodeCount + 1)
    for (let e = 0; e < this.edgeCount; e++) {
      count[edgeU[e]! + 1]!++
      if (edgeV[e] !== edgeU[e]) count[edgeV[e]! + 1]!++
    }
    for (let i = 0; i < this.nodeCount; i++) count[i + 1]! += count[i]!
    this.adjStart = count.slice()
    this.adjEdge = new Int32Array(count[this.nodeCount]!)
    for (let e = 0; e < this.edgeCount; e++) {
      this.adjEdge[count[edgeU[e]!]!++] = e
      if (edgeV[e] !== edgeU[e]) this.adjEdge[count[edgeV[e]!]!++] = e
    }
    const idx = data.arrays.edgeIndex
    this.index = Flatbush.from(idx.buffer as ArrayBuffer, idx.byteOffset)
    this.xScale = Math.cos(data.header.indexLat * RAD)
  }

  static load(file: string): RoadNetwork {
    return new RoadNetwork(readNetworkFile(file))
  }

  static fromBytes(bytes: Uint8Array): RoadNetwork {
    return new RoadNetwork(decodeNetwork(bytes))
  }

  get id(): string {
    return this.header.id
  }

  /** The metric for a spec, created on first use (its hierarchy is built on the first query that needs it). */
  metric(spec: MetricSpec): Metric {
    const key = metricKey(spec)
    let m = this.metrics.get(key)
    if (!m) m = new Metric(this, spec)
    // Most recently used last.
    this.metrics.delete(key)
    this.metrics.set(key, m)
    return m
  }

  /** Forget metrics (their hierarchies) except the ones kept; bounded caches call this. */
  dropMetrics(keep: (key: string) => boolean): void {
    for (const key of [...this.metrics.keys()]) if (!keep(key)) this.metrics.delete(key)
  }

  get metricKeys(): string[] {
    return [...this.metrics.keys()]
  }

  /** Whether a position is within the network's box widened by the snap limit. */
  covers(lon: number, lat: number, limit = SNAP_LIMIT_M): boolean {
    return boxCovers(this.header.bbox, lon, lat, limit)
  }

  /** The edge whose geometry holds coordinate index c. */
  edgeOfCoord(c: number): number {
    return lastAtMost(this.arrays.geomOffset, c, this.edgeCount)
  }

  /**
   * The nearest point on an edge the metric may use, within `limit` metres; null beyond. Distances are
   * measured in a local equirectangular frame at the position (exact to well under a metre at these
   * ranges). Exact nearest: the few nearest edge boxes give a first distance d, then every edge whose box
   * lies within d is measured.
   */
  snap(lon: number, lat: number, metric: Metric, limit = SNAP_LIMIT_M): Snap | null {
    if (!this.covers(lon, lat, limit)) return null
    const kx = Math.cos(lat * RAD) * M_PER_DEG
    const probe = { kx, ky: M_PER_DEG, px: lon * kx, py: lat * M_PER_DEG }
    // Metres to index units at this latitude (x = lon·cos(indexLat), y = lat).
    const toX = this.xScale / kx
    const toY = 1 / M_PER_DEG
    const qx = lon * this.xScale
    const usable = (e: number) => metric.usable(e)
    let best: Snap | null = null
    let bestD = limit
    const consider = (e: number) => {
      const s = this.nearestOnEdge(e, probe, bestD)
      if (s && (s.distance < bestD || (best === null && s.distance <= limit))) {
        best = s
        bestD = s.distance
      }
    }
    const maxUnits = limit * Math.max(toX, toY) * 1.01
    for (const e of this.index.neighbors(qx, lat, 8, maxUnits, usable)) consider(e)
    if (best === null) return null
    const r = bestD
    for (const e of this.index.search(qx - r * toX, lat - r * toY, qx + r * toX, lat + r * toY, usable))
      consider(e)
    return best
  }

  /** The nearest point of edge e to the probe, when nearer than `within` metres. */
  private nearestOnEdge(
    e: number,
    p: { kx: number; ky: number; px: number; py: number },
    within: number,
  ): Snap | null {
    const a = this.arrays
    const start = a.geomOffset[e]!
    const end = a.geomOffset[e + 1]!
    let bestD = Infinity
    let bestC = start
    let bestS = 0
    let bx = 0
    let by = 0
    for (let c = start; c < end - 1; c++) {
      const x1 = (a.coordLon[c]! / E7) * p.kx
      const y1 = (a.coordLat[c]! / E7) * p.ky
      const dx = (a.coordLon[c + 1]! / E7) * p.kx - x1
      const dy = (a.coordLat[c + 1]! / E7) * p.ky - y1
      const len2 = dx * dx + dy * dy
      const s = len2 > 0 ? Math.max(0, Math.min(1, ((p.px - x1) * dx + (p.py - y1) * dy) / len2)) : 0
      const qx = x1 + s * dx
      const qy = y1 + s * dy
      const d = Math.hypot(p.px - qx, p.py - qy)
      if (d < bestD) {
        bestD = d
        bestC = c
        bestS = s
        bx = qx
        by = qy
      }
    }
    if (bestD > within) return null
    return { edge: e, t: this.fractionAt(e, bestC, bestS), lon: bx / p.kx, lat: by / p.ky, distance: bestD }
  }

  /** Fraction of edge e's length at segment (coord c, c+1) position s. */
  private fractionAt(e: number, c: number, s: number): number {
    const a = this.arrays
    const start = a.geomOffset[e]!
    const end = a.geomOffset[e + 1]!
    let before = 0
    let total = 0
    for (let i = start; i < end - 1; i++) {
      const len = segmentLength(a, i)
      if (i < c) before += len
      else if (i === c) before += len * s
      total += len
    }
    if (total <= 0) return 0
    return Math.max(0, Math.min(1, before / total))
  }

  /** The point at fraction t of edge e's length. */
  pointAt(e: number, t: number): [number, number] {
    const a = this.arrays
    const start = a.geomOffset[e]!
    const end = a.geomOffset[e + 1]!
    let total = 0
    for (let i = start; i < end - 1; i++) total += segmentLength(a, i)
    let left = t * total
    for (let i = start; i < end - 1; i++) {
      const len = segmentLength(a, i)
      if (left <= len || i === end - 2) {
        const s = len > 0 ? Math.min(1, left / len) : 0
        return [
          (a.coordLon[i]! + s * (a.coordLon[i + 1]! - a.coordLon[i]!)) / E7,
          (a.coordLat[i]! + s * (a.coordLat[i + 1]! - a.coordLat[i]!)) / E7,
        ]
      }
      left -= len
    }
    return [a.coordLon[start]! / E7, a.coordLat[start]! / E7]
  }

  /** Coordinates of edge e between fractions t0 and t1 (t0 > t1 walks it backward), as [lon, lat] pairs. */
  edgeGeometry(e: number, t0 = 0, t1 = 1): Array<[number, number]> {
    const a = this.arrays
    const start = a.geomOffset[e]!
    const end = a.geomOffset[e + 1]!
    const lens: number[] = []
    let total = 0
    for (let i = start; i < end - 1; i++) {
      const len = segmentLength(a, i)
      lens.push(len)
      total += len
    }
    const lo = Math.min(t0, t1) * total
    const hi = Math.max(t0, t1) * total
    const out: Array<[number, number]> = [this.pointAt(e, Math.min(t0, t1))]
    let acc = 0
    for (let i = start; i < end - 1; i++) {
      acc += lens[i - start]!
      if (acc > lo && acc < hi) out.push([a.coordLon[i + 1]! / E7, a.coordLat[i + 1]! / E7])
    }
    out.push(this.pointAt(e, Math.max(t0, t1)))
    return t0 > t1 ? out.reverse() : out
  }

  nodePoint(x: number): [number, number] {
    return [this.arrays.nodeLon[x]! / E7, this.arrays.nodeLat[x]! / E7]
  }

  /** Highway class name of edge e. */
  edgeClass(e: number): string {
    return HIGHWAY_CLASSES[this.header.attributes[this.arrays.edgeAttr[e]!]!.cls] ?? 'road'
  }

  /** Bytes the metrics and their hierarchies hold. */
  get metricBytes(): number {
    let total = 0
    for (const m of this.metrics.values()) total += m.bytes
    return total
  }

  /** Approximate bytes of the loaded arrays (file arrays and adjacency). */
  get bytes(): number {
    let total = this.adjStart.byteLength + this.adjEdge.byteLength
    for (const v of Object.values(this.arrays)) total += (v as Uint8Array).byteLength
    return total
  }
}

export function segmentLength(a: NetworkArrays, i: number): number {
  const lat1 = (a.coordLat[i]! / E7) * RAD
  const lat2 = (a.coordLat[i + 1]! / E7) * RAD
  const dLat = lat2 - lat1
  const dLon = ((a.coordLon[i + 1]! - a.coordLon[i]!) / E7) * RAD
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1) * Math.cos(lat2) * Math.sin(dLon / 2) ** 2
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)))
}
