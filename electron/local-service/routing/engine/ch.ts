import { IndexedHeap } from './heap'
import { lastAtMost } from './numeric'

/**
 * Contraction hierarchies (Geisberger et al. 2008): nodes are contracted one by one in order of
 * importance, adding a shortcut u→w whenever the only shortest path between two neighbours u and w of
 * the contracted node v runs through v (a bounded "witness" search looks for another). A query then
 * only goes upward in the order from both ends, which settles a few hundred nodes instead of most of
 * the graph. Weights are integers, so every shortest distance is exact (no rounding drift).
 */

/** One directed arc of the input graph. */
export interface InputArcs {
  tail: Int32Array
  head: Int32Array
  weight: Int32Array
  /** Secondary sums carried along (duration in 0.1 s, length in dm); the order minimises `weight`. */
  dur: Int32Array
  dist: Int32Array
  /** Original edge id ×2 (+1 when the arc runs against the edge's direction). */
  edge: Int32Array
}

export interface ContractionHierarchy {
  nodeCount: number
  rank: Int32Array
  /** Arcs x→y with rank[y] > rank[x], grouped by x. */
  upStart: Int32Array
  upHead: Int32Array
  upW: Int32Array
  upDur: Int32Array
  upDist: Int32Array
  upArc: Int32Array
  /** Arcs x→y with rank[x] > rank[y], grouped by y (the backward search's upward arcs). */
  downStart: Int32Array
  downTail: Int32Array
  downW: Int32Array
  downDur: Int32Array
  downDist: Int32Array
  downArc: Int32Array
  /** For unpacking: the two halves of a shortcut (-1 for an original arc) and the original edge of an arc. */
  arcFirst: Int32Array
  arcSecond: Int32Array
  arcEdge: Int32Array
  /** Shortcuts added. */
  shortcuts: number
}

class ArcStore {
  tail: number[] = []
  head: number[] = []
  w: number[] = []
  dur: number[] = []
  dist: number[] = []
  first: number[] = []
  second: number[] = []
  edge: number[] = []

  add(
    t: number,
    h: number,
    w: number,
    dur: number,
    dist: number,
    first: number,
    second: number,
    edge: number,
  ): number {
    this.tail.push(t)
    this.head.push(h)
    this.w.push(w)
    this.dur.push(dur)
    this.dist.push(dist)
    this.first.push(first)
    this.second.push(second)
    this.edge.push(edge)
    return this.tail.length - 1
  }
}

export interface ContractOptions {
  /** Nodes a witness search settles at most (default 100 when contracting, 5 when estimating a priority). */
  witnessLimit?: number
  simulateLimit?: number
}

export function contract(
  nodeCount: number,
  input: InputArcs,
  options: ContractOptions = {},
): ContractionHierarchy {
  const witnessLimit = options.witnessLimit ?? 100
  const simulateLimit = options.simulateLimit ?? 5
  const arcs = new ArcStore()
  const out: number[][] = Array.from({ length: nodeCount }, () => [])
  const inn: number[][] = Array.from({ length: nodeCount }, () => [])
  // Parallel input arcs: keep the lightest.
  const seen = new Map<number, number>()
  for (let i = 0; i < input.tail.length; i++) {
    const t = input.tail[i]!
    const h = input.head[i]!
    if (t === h) continue
    const key = t * nodeCount + h
    const existing = seen.get(key)
    if (existing !== undefined) {
      if (input.weight[i]! < arcs.w[existing]!) {
        arcs.w[existing] = input.weight[i]!
        arcs.dur[existing] = input.dur[i]!
        arcs.dist[existing] = input.dist[i]!
        arcs.edge[existing] = input.edge[i]!
      }
      continue
    }
    const id = arcs.add(t, h, input.weight[i]!, input.dur[i]!, input.dist[i]!, -1, -1, input.edge[i]!)
    seen.set(key, id)
    out[t]!.push(id)
    inn[h]!.push(id)
  }
  seen.clear()

  const contracted = new Uint8Array(nodeCount)
  const depth = new Int32Array(nodeCount)
  /** Neighbours contracted so far, per node. */
  const deleted = new Int32Array(nodeCount)
  const dist = new Float64Array(nodeCount).fill(Infinity)
  const touched: number[] = []
  const heap = new IndexedHeap(nodeCount)

  /** Marks the nodes a witness search still has to settle (value = the search's stamp). */
  const isTarget = new Int32Array(nodeCount)
  let stamp = 0

  /**
   * Dijkstra from `source` avoiding `skip`, until every target is settled, the distance passes `maxW` or
   * `limit` nodes are settled. Unsettled targets keep an upper bound (or Infinity): a shortcut is added
   * when no witness was found, which is always safe.
   */
  const witness = (source: number, skip: number, maxW: number, limit: number, targets: number) => {
    for (const t of touched) dist[t] = Infinity
    touched.length = 0
    heap.clear()
    dist[source] = 0
    touched.push(source)
    heap.push(source, 0)
    let settled = 0
    let left = targets
    while (heap.size > 0) {
      const d = heap.peekKey()
      if (d > maxW || settled >= limit) break
      const x = heap.pop()
      settled++
      if (isTarget[x] === stamp && --left === 0) break
      for (const a of out[x]!) {
        const y = arcs.head[a]!
        if (y === skip || contracted[y]) continue
        const nd = d + arcs.w[a]!
        if (nd < dist[y]!) {
          if (dist[y] === Infinity) touched.push(y)
          dist[y] = nd
          heap.push(y, nd)
        }
      }
    }
  }

  /** Shortcuts needed to contract v (added when `apply`), and what they replace. */
  const process = (v: number, apply: boolean) => {
    let added = 0
    let removed = 0
    const ins = inn[v]!
    const outs = out[v]!
    for (const a of ins) {
      if (contracted[arcs.tail[a]!]) continue
      removed++
    }
    for (const b of outs) {
      if (contracted[arcs.head[b]!]) continue
      removed++
    }
    for (const a of ins) {
      const u = arcs.tail[a]!
      if (contracted[u]) continue
      let maxW = 0
      let targets = 0
      stamp++
      for (const b of outs) {
        const w = arcs.head[b]!
        if (contracted[w] || w === u || isTarget[w] === stamp) continue
        isTarget[w] = stamp
        targets++
        const via = arcs.w[a]! + arcs.w[b]!
        if (via > maxW) maxW = via
      }
      if (targets === 0) continue
      witness(u, v, maxW, apply ? witnessLimit : simulateLimit, targets)
      for (const b of outs) {
        const w = arcs.head[b]!
        if (contracted[w] || w === u) continue
        const via = arcs.w[a]! + arcs.w[b]!
        if (dist[w]! <= via) continue
        added++
        if (!apply) continue
        // An existing arc u→w heavier than the path via v is replaced in place.
        let existing = -1
        for (const c of out[u]!) if (arcs.head[c] === w) existing = c
        const dur = arcs.dur[a]! + arcs.dur[b]!
        const len = arcs.dist[a]! + arcs.dist[b]!
        if (existing >= 0) {
          arcs.w[existing] = via
          arcs.dur[existing] = dur
          arcs.dist[existing] = len
          arcs.first[existing] = a
          arcs.second[existing] = b
          arcs.edge[existing] = -1
        } else {
          const id = arcs.add(u, w, via, dur, len, a, b, -1)
          out[u]!.push(id)
          inn[w]!.push(id)
        }
      }
    }
    return { added, removed }
  }

  // Geisberger et al.'s weights: edge difference first, then spreading contraction evenly (neighbours already
  // contracted) and keeping the hierarchy shallow (depth). Measured against OSRM's quotient form on the
  // Gothenburg walking graph: as fast to build, half the query time (docs/decisions/008-routing-engine.md).
  const priority = (v: number) => {
    const p = process(v, false)
    return 190 * (p.added - p.removed) + 120 * deleted[v]! + depth[v]!
  }

  const queue = new IndexedHeap(nodeCount)
  for (let v = 0; v < nodeCount; v++) queue.push(v, priority(v))
  const rank = new Int32Array(nodeCount)
  let order = 0
  const neighbours = new Set<number>()
  while (queue.size > 0) {
    const v = queue.pop()
    // Lazy update: a node whose priority grew since it was queued goes back.
    const p = priority(v)
    if (queue.size > 0 && p > queue.peekKey()) {
      queue.push(v, p)
      continue
    }
    process(v, true)
    contracted[v] = 1
    rank[v] = order++
    neighbours.clear()
    for (const a of inn[v]!) if (!contracted[arcs.tail[a]!]) neighbours.add(arcs.tail[a]!)
    for (const b of out[v]!) if (!contracted[arcs.head[b]!]) neighbours.add(arcs.head[b]!)
    for (const x of neighbours) {
      depth[x] = Math.max(depth[x]!, depth[v]! + 1)
      deleted[x]!++
      // Drop the arcs to contracted nodes so later scans stay short.
      out[x] = out[x]!.filter((a) => !contracted[arcs.head[a]!])
      inn[x] = inn[x]!.filter((a) => !contracted[arcs.tail[a]!])
      queue.update(x, priority(x))
    }
  }
  return buildHierarchy(nodeCount, rank, arcs)
}

function buildHierarchy(nodeCount: number, rank: Int32Array, arcs: ArcStore): ContractionHierarchy {
  const m = arcs.tail.length
  const upCount = new Int32Array(nodeCount + 1)
  const downCount = new Int32Array(nodeCount + 1)
  for (let a = 0; a < m; a++) {
    const t = arcs.tail[a]!
    const h = arcs.head[a]!
    if (rank[h]! > rank[t]!) upCount[t + 1]!++
    else downCount[h + 1]!++
  }
  for (let i = 0; i < nodeCount; i++) {
    upCount[i + 1]! += upCount[i]!
    downCount[i + 1]! += downCount[i]!
  }
  const upStart = upCount.slice()
  const downStart = downCount.slice()
  const nUp = upStart[nodeCount]!
  const nDown = downStart[nodeCount]!
  const ch: ContractionHierarchy = {
    nodeCount,
    rank,
    upStart,
    upHead: new Int32Array(nUp),
    upW: new Int32Array(nUp),
    upDur: new Int32Array(nUp),
    upDist: new Int32Array(nUp),
    upArc: new Int32Array(nUp),
    downStart,
    downTail: new Int32Array(nDown),
    downW: new Int32Array(nDown),
    downDur: new Int32Array(nDown),
    downDist: new Int32Array(nDown),
    downArc: new Int32Array(nDown),
    arcFirst: Int32Array.from(arcs.first),
    arcSecond: Int32Array.from(arcs.second),
    arcEdge: Int32Array.from(arcs.edge),
    shortcuts: arcs.first.filter((f) => f >= 0).length,
  }
  const upFill = upCount
  const downFill = downCount
  for (let a = 0; a < m; a++) {
    const t = arcs.tail[a]!
    const h = arcs.head[a]!
    if (rank[h]! > rank[t]!) {
      const i = upFill[t]!++
      ch.upHead[i] = h
      ch.upW[i] = arcs.w[a]!
      ch.upDur[i] = arcs.dur[a]!
      ch.upDist[i] = arcs.dist[a]!
      ch.upArc[i] = a
    } else {
      const i = downFill[h]!++
      ch.downTail[i] = t
      ch.downW[i] = arcs.w[a]!
      ch.downDur[i] = arcs.dur[a]!
      ch.downDist[i] = arcs.dist[a]!
      ch.downArc[i] = a
    }
  }
  return ch
}

/** The original edges of an arc, in travel order (edge ×2 + 1 when travelled against its direction). */
export function unpackArc(ch: ContractionHierarchy, arc: number, into: number[]): void {
  const stack = [arc]
  while (stack.length > 0) {
    const a = stack.pop()!
    const first = ch.arcFirst[a]!
    if (first < 0) into.push(ch.arcEdge[a]!)
    else {
      stack.push(ch.arcSecond[a]!)
      stack.push(first)
    }
  }
}

/** A start (or end) of a search: a node and what it costs to get there from the position (or back). */
export interface SearchSeed {
  node: number
  w: number
  dur: number
  dist: number
}

/**
 * The upward search of one side, reusable across queries: distances live in node-sized arrays reset by
 * the list of nodes touched, so a query costs what it settles, not the graph's size.
 */
export class UpwardSearch {
  readonly w: Float64Array
  readonly dur: Float64Array
  readonly dist: Float64Array
  /** The CSR index of the arc that reached a node (-1 at a seed), for unpacking routes. */
  readonly via: Int32Array
  readonly seedOf: Int32Array
  readonly settled: number[] = []
  private readonly touched: number[] = []
  private readonly heap: IndexedHeap

  constructor(
    private readonly ch: ContractionHierarchy,
    private readonly forward: boolean,
  ) {
    const n = ch.nodeCount
    this.w = new Float64Array(n).fill(Infinity)
    this.dur = new Float64Array(n)
    this.dist = new Float64Array(n)
    this.via = new Int32Array(n).fill(-1)
    this.seedOf = new Int32Array(n).fill(-1)
    this.heap = new IndexedHeap(n)
  }

  /** Run from the seeds; afterwards `settled` lists the nodes reached (stalled ones left out). */
  run(seeds: readonly SearchSeed[]): void {
    const { ch, w, dur, dist, via, heap, touched, settled } = this
    for (const t of touched) w[t] = Infinity
    touched.length = 0
    settled.length = 0
    heap.clear()
    for (let i = 0; i < seeds.length; i++) {
      const s = seeds[i]!
      if (s.w < w[s.node]!) {
        if (w[s.node] === Infinity) touched.push(s.node)
        w[s.node] = s.w
        dur[s.node] = s.dur
        dist[s.node] = s.dist
        via[s.node] = -1
        this.seedOf[s.node] = i
        heap.push(s.node, s.w)
      }
    }
    const fwd = this.forward
    const relStart = fwd ? ch.upStart : ch.downStart
    const relNode = fwd ? ch.upHead : ch.downTail
    const relW = fwd ? ch.upW : ch.downW
    const relDur = fwd ? ch.upDur : ch.downDur
    const relDist = fwd ? ch.upDist : ch.downDist
    // Stall-on-demand looks at the arcs of the other direction that come from higher nodes.
    const stStart = fwd ? ch.downStart : ch.upStart
    const stNode = fwd ? ch.downTail : ch.upHead
    const stW = fwd ? ch.downW : ch.upW
    while (heap.size > 0) {
      const x = heap.pop()
      const dx = w[x]!
      let stalled = false
      for (let i = stStart[x]!, end = stStart[x + 1]!; i < end; i++) {
        if (w[stNode[i]!]! + stW[i]! < dx) {
          stalled = true
          break
        }
      }
      if (stalled) continue
      settled.push(x)
      for (let i = relStart[x]!, end = relStart[x + 1]!; i < end; i++) {
        const y = relNode[i]!
        const nd = dx + relW[i]!
        if (nd < w[y]!) {
          if (w[y] === Infinity) touched.push(y)
          w[y] = nd
          dur[y] = dur[x]! + relDur[i]!
          dist[y] = dist[x]! + relDist[i]!
          via[y] = i
          this.seedOf[y] = this.seedOf[x]!
          heap.push(y, nd)
        }
      }
    }
  }

  /** The arcs from the seed to node x, in travel order from the seed (forward) or towards it (backward). */
  arcsTo(x: number): number[] {
    const ch = this.ch
    const arcs: number[] = []
    let node = x
    while (this.via[node]! >= 0) {
      const i = this.via[node]!
      if (this.forward) {
        arcs.push(ch.upArc[i]!)
        // The tail of an up arc: find it by the CSR range that holds i.
        node = lastAtMost(ch.upStart, i, ch.nodeCount)
      } else {
        arcs.push(ch.downArc[i]!)
        node = lastAtMost(ch.downStart, i, ch.nodeCount)
      }
    }
    return this.forward ? arcs.reverse() : arcs
  }
}
