// A join's input and output and the error of a request the engine refuses (split from join.ts, issue 28).
import type { JoinParams } from '../../../contract/gis/join-params'
import type { FeatureTable } from './feature-table'
import type { PairList } from './pair-list'

/** A request the engine refuses: the HTTP layer answers it with `status` and this message. */
export class JoinInputError extends Error {
  constructor(
    readonly status: 400 | 404 | 422,
    message: string,
    readonly field?: string,
    readonly detail?: { reason?: string; location?: [number, number] },
  ) {
    super(message)
    this.name = 'JoinInputError'
  }
}

export interface JoinInput {
  params: JoinParams
  source: FeatureTable
  /** The reference dataset, or the user geometry as a table when `userGeom=true`. */
  ref?: FeatureTable
  refIsUserGeometry?: boolean
  /** Rows kept at most; more make the result partial. */
  rowCap: number
  /** Repair an invalid user geometry (GEOS MakeValid) instead of refusing it. */
  repairUserGeometry?: boolean
  /** Drive the join with this side whatever the planner says (tests and measurements only). */
  drive?: 'ref' | 'source'
  /** Filled with the work the join did (tests and measurements only). */
  trace?: JoinTrace
}

/**
 * The work of a spatial join between two datasets: which dataset drove it, and every candidate pair tested,
 * in the order tested, as (driving feature, probed feature) — the same whichever order the datasets come in
 * as source and reference (decision 029).
 */
export interface JoinTrace {
  drive?: string
  /** Driving and probed feature of each candidate tested, in turn: [d0, p0, d1, p1, …]. */
  tested: number[]
  /** Candidates neither the cell grid nor the exact edge test could decide: GEOS's predicate evaluations. */
  geos: number
}

export interface JoinOutput {
  /** Pairs (source index, reference index or -1), in reference order, then source order. */
  pairs: PairList
  truncated: boolean
}
