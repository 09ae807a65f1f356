import { UpwardSearch, type ContractionHierarchy, type SearchSeed } from './ch'
import type { Metric, Snap } from './network'

/**
 * What it costs to leave a snapped position (forward seeds) or to reach it (backward seeds): the two ends
 * of its edge, each with the part of the edge's weight between the position and that end. The parts are
 * rounded once, as round(t·w), so that splitting the edge at the position gives the same integers.
 */
export function seeds(metric: Metric, snap: Snap, forward: boolean): SearchSeed[] {
  const a = metric.network.arrays
  const e = snap.edge
  const u = a.edgeU[e]!
  const v = a.edgeV[e]!
  const len = a.edgeLenDm[e]!
  // A position on a node is that node.
  if (snap.t <= 0) return [{ node: u, w: 0, dur: 0, dist: 0 }]
  if (snap.t >= 1) return [{ node: v, w: 0, dur: 0, dist: 0 }]
  const part = (x: number) => Math.round(snap.t * x)
  const out: SearchSeed[] = []
  const wF = metric.wF[e]!
  const wB = metric.wB[e]!
  if (forward) {
    // Leave along the edge to v, or against it to u.
    if (wF >= 0)
      out.push({
        node: v,
        w: wF - part(wF),
        dur: metric.durF[e]! - part(metric.durF[e]!),
        dist: len - part(len),
      })
    if (wB >= 0) out.push({ node: u, w: part(wB), dur: part(metric.durB[e]!), dist: part(len) })
  } else {
    // Arrive from u along the edge, or from v against it.
    if (wF >= 0) out.push({ node: u, w: part(wF), dur: part(metric.durF[e]!), dist: part(len) })
    if (wB >= 0)
      out.push({
        node: v,
        w: wB - part(wB),
        dur: metric.durB[e]! - part(metric.durB[e]!),
        dist: len - part(len),
      })
  }
  return out
}

/** Travel between two positions on the same edge without leaving it, when its direction allows. */
export function sameEdge(
  metric: Metric,
  from: Snap,
  to: Snap,
): { w: number; dur: number; dist: number } | undefined {
  if (from.edge !== to.edge) return undefined
  const e = from.edge
  const len = metric.network.arrays.edgeLenDm[e]!
  const r = (t: number, x: number) => (t <= 0 ? 0 : t >= 1 ? x : Math.round(t * x))
  if (from.t <= to.t && metric.wF[e]! >= 0) {
    const wF = metric.wF[e]!
    const dF = metric.durF[e]!
    return {
      w: r(to.t, wF) - r(from.t, wF),
      dur: r(to.t, dF) - r(from.t, dF),
      dist: r(to.t, len) - r(from.t, len),
    }
  }
  if (from.t >= to.t && metric.wB[e]! >= 0) {
    const wB = metric.wB[e]!
    const dB = metric.durB[e]!
    return {
      w: r(from.t, wB) - r(to.t, wB),
      dur: r(from.t, dB) - r(to.t, dB),
      dist: r(from.t, len) - r(to.t, len),
    }
  }
  return undefined
}

export interface MatrixCells {
  /** Weight of the best path (the minimised integer), duration in 0.1 s, length in dm; NaN when none. */
  weight: Float64Array
  dur: Float64Array
  dist: Float64Array
  rows: number
  cols: number
}

/** Reusable search state per hierarchy (the worker keeps one per metric). */
export class MatrixSearch {
  private readonly fwd: UpwardSearch
  private readonly bwd: UpwardSearch
  private readonly bucketHead: Int32Array
  private bucketNext = new Int32Array(1024)
  private bucketTarget = new Int32Array(1024)
  private bucketW = new Float64Array(1024)
  private bucketDur = new Float64Array(1024)
  private bucketDist = new Float64Array(1024)

  constructor(readonly ch: ContractionHierarchy) {
    this.fwd = new UpwardSearch(ch, true)
    this.bwd = new UpwardSearch(ch, false)
    this.bucketHead = new Int32Array(ch.nodeCount).fill(-1)
  }

  private grow(n: number): void {
    if (n <= this.bucketNext.length) return
    const size = Math.max(n, this.bucketNext.length * 2)
    const g = <T extends Int32Array | Float64Array>(a: T, C: new (n: number) => T): T => {
      const b = new C(size)
      b.set(a)
      return b
    }
    this.bucketNext = g(this.bucketNext, Int32Array)
    this.bucketTarget = g(this.bucketTarget, Int32Array)
    this.bucketW = g(this.bucketW, Float64Array)
    this.bucketDur = g(this.bucketDur, Float64Array)
    this.bucketDist = g(this.bucketDist, Float64Array)
  }

  /**
   * Many-to-many shortest paths with buckets (Knopp et al. 2007): one backward upward search per target
   * leaves (target, distance) in a bucket at each node it settles; one forward upward search per source
   * then scans the buckets of the nodes it settles. Cost: |S|+|T| small searches, no |S|·|T| term but the
   * bucket scans.
   */
  run(
    sourceSeeds: ReadonlyArray<SearchSeed[] | null>,
    targetSeeds: ReadonlyArray<SearchSeed[] | null>,
  ): MatrixCells {
    const rows = sourceSeeds.length
    const cols = targetSeeds.length
    const weight = new Float64Array(rows * cols).fill(NaN)
    const dur = new Float64Array(rows * cols).fill(NaN)
    const dist = new Float64Array(rows * cols).fill(NaN)
    const head = this.bucketHead
    const used: number[] = []
    let count = 0
    for (let j = 0; j < cols; j++) {
      const s = targetSeeds[j]
      if (!s || s.length === 0) continue
      this.bwd.run(s)
      const b = this.bwd
      this.grow(count + b.settled.length)
      for (const y of b.settled) {
        if (head[y] === -1) used.push(y)
        this.bucketNext[count] = head[y]!
        this.bucketTarget[count] = j
        this.bucketW[count] = b.w[y]!
        this.bucketDur[count] = b.dur[y]!
        this.bucketDist[count] = b.dist[y]!
        head[y] = count++
      }
    }
    const { bucketNext, bucketTarget, bucketW, bucketDur, bucketDist } = this
    for (let i = 0; i < rows; i++) {
      const s = sourceSeeds[i]
      if (!s || s.length === 0) continue
      this.fwd.run(s)
      const f = this.fwd
      const row = i * cols
      for (const x of f.settled) {
        const dx = f.w[x]!
        for (let k = head[x]!; k >= 0; k = bucketNext[k]!) {
          const cell = row + bucketTarget[k]!
          const cand = dx + bucketW[k]!
          const old = weight[cell]!
          if (cand < old || old !== old) {
            weight[cell] = cand
            dur[cell] = f.dur[x]! + bucketDur[k]!
            dist[cell] = f.dist[x]! + bucketDist[k]!
          }
        }
      }
    }
    for (const y of used) head[y] = -1
    return { weight, dur, dist, rows, cols }
  }
}
