import type { SearchSeed } from './ch'
import { IndexedHeap } from './heap'
import type { Metric } from './network'

/** The metric's directed arcs as CSR by tail: the graph plain Dijkstra and the time-dependent search walk. */
export interface ForwardGraph {
  start: Int32Array
  head: Int32Array
  /** Original edge ×2 (+1 against its direction). */
  edge: Int32Array
  w: Int32Array
}

export function forwardGraph(metric: Metric): ForwardGraph {
  const arcs = metric.arcs()
  const n = metric.network.nodeCount
  const m = arcs.tail.length
  const start = new Int32Array(n + 1)
  for (let i = 0; i < m; i++) start[arcs.tail[i]! + 1]!++
  for (let i = 0; i < n; i++) start[i + 1]! += start[i]!
  const fill = start.slice()
  const head = new Int32Array(m)
  const edge = new Int32Array(m)
  const w = new Int32Array(m)
  for (let i = 0; i < m; i++) {
    const k = fill[arcs.tail[i]!]!++
    head[k] = arcs.head[i]!
    edge[k] = arcs.edge[i]!
    w[k] = arcs.weight[i]!
  }
  return { start, head, edge, w }
}

/**
 * Plain Dijkstra from seeds over the whole metric graph: the reference the hierarchy is checked against
 * in tests, and the engine's answer before a hierarchy exists. Returns the weight per node (Infinity when
 * unreachable).
 */
export function dijkstra(graph: ForwardGraph, nodeCount: number, seeds: readonly SearchSeed[]): Float64Array {
  const dist = new Float64Array(nodeCount).fill(Infinity)
  const heap = new IndexedHeap(nodeCount)
  for (const s of seeds) {
    if (s.w < dist[s.node]!) {
      dist[s.node] = s.w
      heap.push(s.node, s.w)
    }
  }
  const { start, head, w } = graph
  while (heap.size > 0) {
    const x = heap.pop()
    const dx = dist[x]!
    for (let i = start[x]!, end = start[x + 1]!; i < end; i++) {
      const y = head[i]!
      const nd = dx + w[i]!
      if (nd < dist[y]!) {
        dist[y] = nd
        heap.push(y, nd)
      }
    }
  }
  return dist
}
