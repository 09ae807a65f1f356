import type { Geometry } from 'geojson'
import type { JoinParams } from '../../../contract/gis/join-params'
import { approximateArea, isEmptyGeometry } from '../../engine/geodesy'
import { geodesicArea, geodesicLength } from '../../../../shared/geodesy'
import type { Geos } from '../../engine/geos'
import { PairList } from './pair-list'
import { planJoin, type JoinPlan } from './planner'
import { countOf, geometryAt, propertyReader, sideStats } from './feature-table'
import { JoinInputError, type JoinInput, type JoinOutput } from './join-input'
import { requireField, requireGeometryColumn } from './join-columns'
import { converse } from './driving-geometry'
import { drivenJoin } from './driven-join'

// The join's stages live beside it (issue 28): feature-table (the tables read), join-input (input, output,
// errors), join-columns (fields and selected columns), driving-geometry and driven-join (the spatial join's
// candidate loop), row-writer (result rows). This module plans and runs a join, and re-exports what its
// importers use.
export { tableFromFeatures, type FeatureTable } from './feature-table'
export { JoinInputError, type JoinInput, type JoinOutput, type JoinTrace } from './join-input'
export { MAX_SELECTED, selection, type Selection } from './join-columns'
export { geographyTolerance } from './driving-geometry'
export { releaseTable } from './driven-join'
export { resultFeatures, resultRowsJson, writeResultRows } from './row-writer'

/** Spec §4.5 basic operators over two values: numbers compare as numbers, anything else as text. */
export function compareValues(a: unknown, op: string, b: unknown): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return false
  const na = typeof a === 'number' ? a : typeof a === 'string' && a.trim() !== '' ? Number(a) : NaN
  const nb = typeof b === 'number' ? b : typeof b === 'string' && b.trim() !== '' ? Number(b) : NaN
  const numeric = Number.isFinite(na) && Number.isFinite(nb)
  const x: number | string = numeric ? na : typeof a === 'string' ? a : JSON.stringify(a)
  const y: number | string = numeric ? nb : typeof b === 'string' ? b : JSON.stringify(b)
  switch (op) {
    case '=':
      return x === y
    case '<>':
      return x !== y
    case '<':
      return x < y
    case '>':
      return x > y
    case '<=':
      return x <= y
    case '>=':
      return x >= y
    default:
      return false
  }
}

function valueKey(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined
  if (typeof v === 'number') return `n:${v}`
  if (typeof v === 'string') {
    const n = v.trim() === '' ? NaN : Number(v)
    return Number.isFinite(n) ? `n:${n}` : `s:${v}`
  }
  return `s:${typeof v === 'object' ? JSON.stringify(v) : String(v)}`
}

function basicJoin(input: JoinInput): JoinOutput {
  const { params, source, ref, rowCap } = input
  if (!ref)
    throw new JoinInputError(422, 'datasetRef is required for a non-spatial (basic) query', 'datasetRef')
  const refProperty = params.refProperty as string
  requireField(source, params.sourceProperty, 'sourceProperty')
  requireField(ref, refProperty, 'refProperty')
  const pairs = new PairList()
  const op = params.operator
  const add = (s: number, r: number) => pairs.push(s, r) > rowCap
  const sourceValue = propertyReader(source, params.sourceProperty)
  const refValue = propertyReader(ref, refProperty)
  const nSource = countOf(source)
  const nRef = countOf(ref)
  if (op === 'IN' || op === 'NOT IN') {
    const keys = new Set<string>()
    for (let r = 0; r < nRef; r++) {
      const k = valueKey(refValue(r))
      if (k) keys.add(k)
    }
    for (let s = 0; s < nSource; s++) {
      const k = valueKey(sourceValue(s))
      if (k === undefined) continue
      if (keys.has(k) === (op === 'IN') && add(s, -1)) break
    }
  } else if (op === '=') {
    const byKey = new Map<string, number[]>()
    for (let r = 0; r < nRef; r++) {
      const k = valueKey(refValue(r))
      if (k) (byKey.get(k) ?? byKey.set(k, []).get(k)!).push(r)
    }
    outer: for (let s = 0; s < nSource; s++) {
      const k = valueKey(sourceValue(s))
      for (const r of (k && byKey.get(k)) || []) if (add(s, r)) break outer
    }
  } else {
    outer: for (let s = 0; s < nSource; s++) {
      const a = sourceValue(s)
      for (let r = 0; r < nRef; r++) {
        if (compareValues(a, op, refValue(r)) && add(s, r)) break outer
      }
    }
  }
  const truncated = pairs.length > rowCap
  if (truncated) pairs.truncate(rowCap)
  return { pairs, truncated }
}

function functionValue(fn: string, geometry: Geometry | null): number | boolean {
  if (fn === 'Area') return geodesicArea(geometry)
  if (fn === 'Length') return geodesicLength(geometry)
  return isEmptyGeometry(geometry)
}

function functionHolds(params: JoinParams, geometry: Geometry | null): boolean {
  const op = params.comparisonOperator as string
  if (
    params.comparisonFunction === 'Area' &&
    op !== '=' &&
    op !== '<>' &&
    typeof params.comparisonValue === 'number'
  ) {
    // Decide clear cases of small polygons on the equal-area approximation; near the threshold, measure exactly.
    const approx = approximateArea(geometry)
    const margin = 2e-3 * Math.abs(params.comparisonValue) + 1
    if (approx !== undefined && Math.abs(approx - params.comparisonValue) > margin) {
      return compareValues(approx, op, params.comparisonValue)
    }
  }
  const value = functionValue(params.comparisonFunction as string, geometry)
  const expected = params.comparisonValue
  if (typeof value === 'boolean') {
    return params.comparisonOperator === '<>' ? value !== expected : value === expected
  }
  return compareValues(value, params.comparisonOperator as string, expected)
}

/** The plan a join between two datasets runs with (the user geometry always drives). */
export function joinPlan(input: JoinInput): JoinPlan | undefined {
  if (!input.ref || input.refIsUserGeometry || input.params.queryType === 'basic') return undefined
  return planJoin(
    input.params.operator,
    sideStats(input.source, input.ref),
    sideStats(input.ref, input.source),
  )
}

function spatialJoin(geos: Geos, input: JoinInput, filter?: (s: number) => boolean): JoinOutput {
  const { params, source, ref, rowCap } = input
  if (!ref)
    throw new JoinInputError(
      422,
      'datasetRef is required unless userGeom=true sends a user geometry',
      'datasetRef',
    )
  requireGeometryColumn(params.sourceProperty, 'sourceProperty', source)
  if (!input.refIsUserGeometry) requireGeometryColumn(params.refProperty, 'refProperty', ref)
  const bySource = !input.refIsUserGeometry && (input.drive ?? joinPlan(input)?.drive) === 'source'
  if (input.trace) input.trace.drive = (bySource ? source : ref).name
  const pairs = bySource
    ? drivenJoin(geos, input, source, ref, params.operator, filter, true)
    : drivenJoin(geos, input, ref, source, converse(params.operator), filter, false)
  const truncated = pairs.length > rowCap
  if (truncated) pairs.truncate(rowCap)
  return { pairs, truncated }
}

function functionJoin(geos: Geos, input: JoinInput): JoinOutput {
  const { params, source, rowCap } = input
  requireGeometryColumn(params.sourceProperty, 'sourceProperty', source)
  const holds = (s: number) => functionHolds(params, geometryAt(source, s))
  if (input.ref) return spatialJoin(geos, input, holds)
  const pairs = new PairList()
  const n = countOf(source)
  for (let s = 0; s < n && pairs.length <= rowCap; s++) if (holds(s)) pairs.push(s, -1)
  const truncated = pairs.length > rowCap
  if (truncated) pairs.truncate(rowCap)
  return { pairs, truncated }
}

/**
 * Run a validated join. Spatial operators read `operator(source feature, reference)` as PostGIS reads
 * `ST_Within(a, b)`; each result row is a pair (source feature, reference feature) for which it holds.
 */
export function runJoin(geos: Geos, input: JoinInput): JoinOutput {
  switch (input.params.queryType) {
    case 'basic':
      return basicJoin(input)
    case 'spatialOperation':
      return spatialJoin(geos, input)
    case 'functionBased':
      return functionJoin(geos, input)
  }
}
