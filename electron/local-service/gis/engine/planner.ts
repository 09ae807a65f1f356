/**
 * Which side of a dataset-to-dataset spatial join drives it (each of its features is prepared once — GEOS
 * prepared geometry, cell grid — and looked up in the other side's R-tree) and which side is probed (its
 * features are the candidates tested against each prepared one). Both orders give the same pairs; the cost
 * differs by orders of magnitude when the sides differ (700 polygons of 200 vertices against 200,000 points),
 * so the choice is made from the data, never from the order of the arguments. Rule and measurements:
 * docs/decisions/011-join-planner.md.
 */

/** What the planner knows of one side: counts and sizes, computed once per table. */
export interface SideStats {
  /** Features with a geometry. */
  features: number
  /** Vertices over all features. */
  vertices: number
  /** Mean width and height of the feature boxes (degrees). */
  meanWidth: number
  meanHeight: number
  /** Box of every feature, or undefined when no feature has a geometry. */
  extent: [number, number, number, number] | undefined
  /** Features whose box meets the other side's extent (the ones that can take part in a pair). */
  inOverlap: number
  /** The dataset's name: what settles a tie, whichever side it is on. */
  name?: string
}

export interface JoinPlan {
  drive: 'ref' | 'source'
  /** Estimated work units of each choice, for traces and the ADR's figures. */
  cost: { ref: number; source: number }
  /** Estimated candidate pairs (box overlaps) the join will test. */
  candidates: number
  reason: string
}

/** Work of preparing one feature beyond its vertices, and of one R-tree lookup, in vertex units. */
const PREPARE_FIXED = 8

/**
 * Expected number of candidate pairs: features in the overlap of the two extents, each pair of boxes
 * overlapping with the probability that two boxes of mean size, spread over the overlap, meet.
 */
export function estimateCandidates(a: SideStats, b: SideStats): number {
  if (!a.extent || !b.extent) return 0
  const w = Math.min(a.extent[2], b.extent[2]) - Math.max(a.extent[0], b.extent[0])
  const h = Math.min(a.extent[3], b.extent[3]) - Math.max(a.extent[1], b.extent[1])
  if (w < 0 || h < 0) return 0
  const area = Math.max(w, 1e-9) * Math.max(h, 1e-9)
  const p = Math.min(1, ((a.meanWidth + b.meanWidth) * (a.meanHeight + b.meanHeight)) / area)
  return a.inOverlap * b.inOverlap * p
}

/**
 * Cost of driving with `drive` and probing `probe`: each driving feature in the overlap is prepared
 * (linear in its vertices) and looked up once; each candidate pair is one prepared-predicate test, whose
 * cost grows with the probed feature's vertices and with the logarithm of the prepared one's (GEOS locates
 * each probed vertex in the prepared geometry's segment index).
 */
export function driveCost(drive: SideStats, probe: SideStats, candidates: number): number {
  const vd = drive.features > 0 ? drive.vertices / drive.features : 1
  const vp = probe.features > 0 ? probe.vertices / probe.features : 1
  return drive.inOverlap * (vd + PREPARE_FIXED) + candidates * vp * Math.log2(vd + 2)
}

/**
 * Plan a join between a source and a reference dataset. The cheaper side drives; the estimates are the
 * same numbers whichever order the datasets come in (every step is symmetric in its two sides), and a tie
 * goes to the dataset whose name sorts first, so the same dataset drives in both orders (decision 029).
 * Disjoint always drives the reference: it tests every pair whichever side drives, and driving the reference
 * lets it stop at the row cap.
 */
export function planJoin(operator: string, source: SideStats, ref: SideStats): JoinPlan {
  const candidates = estimateCandidates(source, ref)
  const cost = { ref: driveCost(ref, source, candidates), source: driveCost(source, ref, candidates) }
  if (operator === 'Disjoint')
    return { drive: 'ref', cost, candidates, reason: 'Disjoint tests every pair: the reference drives' }
  // A tie between two datasets goes to the name that sorts first; the same dataset on both sides (or
  // unnamed sides) keeps the reference driving, the order of the answer.
  const drive =
    cost.source < cost.ref ||
    (cost.source === cost.ref &&
      source.name !== undefined &&
      ref.name !== undefined &&
      source.name < ref.name)
      ? 'source'
      : 'ref'
  return {
    drive,
    cost,
    candidates,
    reason: `drive ${drive}: estimated ${Math.round(Math.min(cost.ref, cost.source))} against ${Math.round(Math.max(cost.ref, cost.source))} work units`,
  }
}
