import type { Geometry } from 'geojson'
import Flatbush from 'flatbush'
import type { JoinParams } from '../../../contract/gis/join-params'
import { geometryBBox, isGeometryColumn, type DatasetFeature } from '../../workspace/features'
import { buildIndex } from '../../workspace/workspace'
import type { PointColumns } from '../../workspace/point-columns'
import { decodeText } from '../../workspace/text-column'
import {
  approximateArea,
  arcBulge,
  distanceBetweenEdgeSets,
  distanceToEdges,
  edgeSet,
  searchBoxes,
  isEmptyGeometry,
  type BBox,
} from '../../engine/geodesy'
import { geodesicArea, geodesicLength } from '../../../../shared/geodesy'
import { FlatGeometries, FlatType } from './flat-geometries'
import { CellGrid, Where } from './cell-grid'
import { crossesAntimeridian, geographyProxy, needsGeographyProxy } from '../../engine/geography'
import { destroy, toGeos, toWkt, validity, makeValid, type Geos, type GeomPtr } from '../../engine/geos'
import { JsonChunkWriter } from '../../engine/json-chunks'
import { IdSorter } from './id-sort'
import { PairList } from './pair-list'
import { planJoin, type JoinPlan, type SideStats } from './planner'

/** A set of features the join reads: a dataset, or the user geometry sent in the body. */
export interface FeatureTable {
  name: string
  /** The features (of a table with `points`, made when first read: the join reads the columns instead). */
  features: readonly DatasetFeature[]
  fields: readonly string[]
  index: Flatbush
  /** The same features column-wise, when all are 2D points (a dataset read so). */
  points?: PointColumns
}

/** How many features a table has (without making a point table's features). */
const countOf = (table: FeatureTable): number => (table.points ? table.points.count : table.features.length)

/** Feature `i`'s geometry (a point table's made for the call). */
const geometryAt = (table: FeatureTable, i: number): Geometry | null =>
  table.points ? table.points.geometry(i) : table.features[i]!.geometry

/** A reader of one property of a table's features by index (a point table's from its column). */
function propertyReader(table: FeatureTable, name: string): (i: number) => unknown {
  const points = table.points
  if (points) return points.reader(name)
  const features = table.features
  return (i) => features[i]!.properties[name]
}

/**
 * Feature boxes of a table (minX, minY, maxX, maxY per feature; NaN when no geometry), what each feature is
 * (a 2D point, whose box is the point itself; another geometry; none), and what the planner reads: vertex
 * count, mean box size and extent. Computed once per table.
 */
interface TableShape {
  /** Undefined for a point table whose every point is finite (its boxes are its points: `xs`, `ys`). */
  boxes: Float64Array | undefined
  /** Feature i's point, when it is one, is (xs[i * step], ys[i * step]): the columns, or the boxes' corners. */
  xs: Float64Array
  ys: Float64Array
  step: number
  kinds: Uint8Array
  stats: Omit<SideStats, 'inOverlap'>
  /**
   * Whether every feature has a finite box: then the R-tree holds these very boxes (no feature sits at the
   * far-away mark of one without geometry), and a search box that holds the extent finds every feature.
   */
  allBoxed: boolean
}
const isPoint = (g: Geometry | null): g is GeoJSON.Point => g?.type === 'Point' && g.coordinates.length >= 2

const KIND_OTHER = 0
const KIND_POINT = 1
const KIND_NONE = 2
const shapeCache = new WeakMap<FeatureTable, TableShape>()

const flatCache = new WeakMap<FeatureTable, FlatGeometries>()

/** A table's geometries as flat arrays (`FlatGeometries`), made once per table when a join first asks. */
function flatOf(table: FeatureTable): FlatGeometries {
  let flat = flatCache.get(table)
  if (!flat) flatCache.set(table, (flat = FlatGeometries.of(countOf(table), (i) => geometryAt(table, i))))
  return flat
}

function vertexCount(geometry: Geometry): number {
  const count = (c: unknown): number => {
    if (!Array.isArray(c) || c.length === 0) return 0
    if (typeof c[0] === 'number') return 1
    let n = 0
    for (const child of c) n += count(child)
    return n
  }
  if (geometry.type === 'GeometryCollection')
    return geometry.geometries.reduce((n, g) => n + vertexCount(g), 0)
  return count(geometry.coordinates)
}

/**
 * The shape of a point table whose coordinates are all finite, read from its columns: what `shapeOf`'s
 * general loop finds for it (every feature a point, its box the point) without a box array of 32 bytes a
 * point to allocate and fill (a million points: 32 MB and ~100 ms of a first join). Undefined when a
 * coordinate is not finite (the general loop decides what such a feature is).
 */
function pointShape(points: PointColumns): TableShape | undefined {
  const { xs, ys, count: n } = points
  let minX = Infinity
  let minY = Infinity
  let maxX = -Infinity
  let maxY = -Infinity
  for (let i = 0; i < n; i++) {
    const x = xs[i]!
    const y = ys[i]!
    // x - x is 0 for a finite x, NaN for NaN and ±Infinity.
    if (x - x !== 0 || y - y !== 0) return undefined
    if (x < minX) minX = x
    if (x > maxX) maxX = x
    if (y < minY) minY = y
    if (y > maxY) maxY = y
  }
  return {
    boxes: undefined,
    xs,
    ys,
    step: 1,
    kinds: new Uint8Array(n).fill(KIND_POINT),
    stats: {
      features: n,
      vertices: n,
      meanWidth: 0,
      meanHeight: 0,
      extent: n ? [minX, minY, maxX, maxY] : undefined,
    },
    allBoxed: true,
  }
}

function shapeOf(table: FeatureTable): TableShape {
  let shape = shapeCache.get(table)
  if (shape) return shape
  shape = table.points && pointShape(table.points)
  if (!shape) {
    const n = countOf(table)
    const boxes = new Float64Array(n * 4).fill(NaN)
    const kinds = new Uint8Array(n)
    let features = 0
    let finite = 0
    let vertices = 0
    let width = 0
    let height = 0
    const extent: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity]
    // A point table's coordinates, read without making its features.
    const xs = table.points?.xs
    const ys = table.points?.ys
    for (let i = 0; i < n; i++) {
      let g = xs ? undefined : table.features[i]!.geometry
      // A point with numeric coordinates (the common case of a large table): what `geometryBBox` gives
      // (its box is the point, one vertex) without a box or closures per feature.
      const x = xs ? xs[i] : g?.type === 'Point' ? g.coordinates[0] : undefined
      const y = ys ? ys[i] : g?.type === 'Point' ? g.coordinates[1] : undefined
      if (typeof x === 'number' && typeof y === 'number' && x === x && y === y) {
        kinds[i] = KIND_POINT
        boxes[i * 4] = boxes[i * 4 + 2] = x
        boxes[i * 4 + 1] = boxes[i * 4 + 3] = y
        features++
        // x - x is 0 for a finite x, NaN for ±Infinity.
        if (x - x === 0 && y - y === 0) finite++
        vertices++
        if (x < extent[0]) extent[0] = x
        if (y < extent[1]) extent[1] = y
        if (x > extent[2]) extent[2] = x
        if (y > extent[3]) extent[3] = y
        continue
      }
      if (g === undefined) g = geometryAt(table, i)
      const b = geometryBBox(g)
      kinds[i] = !g ? KIND_NONE : isPoint(g) ? KIND_POINT : KIND_OTHER
      if (!b) continue
      boxes.set(b, i * 4)
      features++
      if (b[0] - b[0] === 0 && b[1] - b[1] === 0 && b[2] - b[2] === 0 && b[3] - b[3] === 0) finite++
      vertices += kinds[i] === KIND_POINT ? 1 : vertexCount(g!)
      width += b[2] - b[0]
      height += b[3] - b[1]
      if (b[0] < extent[0]) extent[0] = b[0]
      if (b[1] < extent[1]) extent[1] = b[1]
      if (b[2] > extent[2]) extent[2] = b[2]
      if (b[3] > extent[3]) extent[3] = b[3]
    }
    shape = {
      boxes,
      xs: boxes,
      ys: boxes.subarray(1),
      step: 4,
      kinds,
      stats: {
        features,
        vertices,
        meanWidth: features ? width / features : 0,
        meanHeight: features ? height / features : 0,
        extent: features ? extent : undefined,
      },
      allBoxed: finite === n,
    }
  }
  shapeCache.set(table, shape)
  return shape
}

/**
 * What DWithin's searches must add to a table's planar boxes: the largest poleward bulge (degrees) of its
 * great-circle edges, and the features with an edge across ±180° (their planar box is the wrong side of
 * the world: they are candidates of every search). Computed once per table.
 */
interface TableGeography {
  bulge: number
  acrossAntimeridian: number[]
}
const geographyCache = new WeakMap<FeatureTable, TableGeography>()
function tableGeography(table: FeatureTable): TableGeography {
  let found = geographyCache.get(table)
  if (!found) {
    found = { bulge: 0, acrossAntimeridian: [] }
    const { kinds } = shapeOf(table)
    for (let i = 0; i < kinds.length; i++) {
      if (kinds[i] !== KIND_OTHER) continue
      const geometry = geometryAt(table, i)
      found.bulge = Math.max(found.bulge, arcBulge(geometry))
      if (crossesAntimeridian(geometry)) found.acrossAntimeridian.push(i)
    }
    geographyCache.set(table, found)
  }
  return found
}

/** The planner's view of `table` in a join with `other`: its statistics and how many of its features meet the other's extent. */
function sideStats(table: FeatureTable, other: FeatureTable): SideStats {
  const { stats } = shapeOf(table)
  const e = shapeOf(other).stats.extent
  const own = stats.extent
  let inOverlap = 0
  if (e && own) {
    if (e[0] <= own[0] && e[1] <= own[1] && e[2] >= own[2] && e[3] >= own[3]) inOverlap = stats.features
    else
      table.index.search(e[0], e[1], e[2], e[3], () => {
        inOverlap++
        return false
      })
  }
  return { ...stats, inOverlap, name: table.name }
}

/**
 * GEOS geometries of probed features (the source, or the reference when the source drives), kept per table across joins (the worker keeps its tables), up to a
 * total count so a huge dataset cannot fill the WebAssembly heap; past it they are built per join.
 */
const geosCache = new WeakMap<FeatureTable, Map<number, GeomPtr>>()
let cachedGeometries = 0
const MAX_CACHED_GEOMETRIES = 500_000

export function tableFromFeatures(name: string, features: DatasetFeature[]): FeatureTable {
  const fields = [...new Set(features.flatMap((f) => Object.keys(f.properties)))]
  return { name, features, fields, index: buildIndex(features) }
}

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
 * as source and reference (decision 011 §12).
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

function requireField(table: FeatureTable, name: string, param: string): void {
  if (!table.fields.includes(name)) {
    const known = table.fields.slice(0, 20).join(', ')
    throw new JoinInputError(
      400,
      `${param} "${name}" is not a field of dataset ${table.name}; fields: ${known}`,
      param,
    )
  }
}

function requireGeometryColumn(name: string | undefined, param: string, table: FeatureTable): void {
  if (name !== undefined && !isGeometryColumn(name)) {
    throw new JoinInputError(
      400,
      `${param} "${name}" is not the geometry column of dataset ${table.name}; a spatial query reads the geometry column "geom"`,
      param,
    )
  }
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

/**
 * The relation of a source feature lying wholly in the interior or wholly in the exterior of an areal
 * reference, per operator(source, reference); undefined when the grid cannot tell (DWithin outside).
 */
function decidedByGrid(op: string, where: Where): boolean | undefined {
  const inside = where === Where.Interior
  switch (op) {
    case 'Intersects':
    case 'Within':
      return inside
    case 'Disjoint':
      return !inside
    case 'DWithin':
      return inside ? true : undefined
    case 'Touches':
    case 'Overlaps':
    case 'Crosses':
    case 'Contains':
      return false
    default:
      return undefined
  }
}

/**
 * Build the GEOS geometry of a driving feature; the user geometry is also checked, and refused (or repaired)
 * when invalid, with GEOS's reason.
 */
function prepareGeometry(
  geos: Geos,
  input: JoinInput,
  table: FeatureTable,
  i: number,
  geometry: Geometry,
  user: boolean,
): GeomPtr {
  let ptr: GeomPtr
  try {
    ptr = toGeos(geos, geometry)
  } catch (error) {
    const field = user ? `body.features.${i}.geometry` : `${table.name}[${i}]`
    throw new JoinInputError(400, `${field}: ${(error as Error).message}`, field)
  }
  if (!user) return ptr
  const v = validity(geos, ptr)
  if (!v.valid) {
    if (input.repairUserGeometry) {
      const repaired = makeValid(geos, ptr)
      destroy(geos, ptr)
      return repaired
    }
    destroy(geos, ptr)
    const field = `body.features.${i}.geometry`
    const at = v.location ? ` at ${v.location[0]} ${v.location[1]}` : ''
    throw new JoinInputError(400, `${field} is not a valid geometry: ${v.reason}${at}`, field, {
      reason: v.reason,
      location: v.location,
    })
  }
  return ptr
}

/**
 * A driving geometry (a reference, or a source feature when the planner drives with the source) made ready
 * for testing: the GEOS geometry, its prepared form (whose edge index GEOS
 * builds on first use) and the cell grids built for it, by grid size.
 */
interface PreparedRef {
  ptr: GeomPtr
  prepared: number
  grids: Map<number, CellGrid | undefined>
}

/**
 * Prepared references kept across joins (the worker is long-lived): per reference dataset and feature, and
 * for user geometries by their coordinates (the same drawing queried again with another operator, say), so
 * validation, preparation, the prepared index and the grid are paid once. Bounded; past the bound a
 * reference is prepared for the join and released after it.
 */
const preparedByTable = new WeakMap<FeatureTable, Map<number, PreparedRef>>()
let preparedCount = 0
const MAX_PREPARED = 50_000
const preparedUser = new Map<string, PreparedRef>()
const MAX_PREPARED_USER = 16

function releasePrepared(geos: Geos, entry: PreparedRef): void {
  geos.GEOSPreparedGeom_destroy(entry.prepared)
  destroy(geos, entry.ptr)
}

function preparedFeature(
  geos: Geos,
  input: JoinInput,
  table: FeatureTable,
  r: number,
  geometry: Geometry,
  user: boolean,
): { entry: PreparedRef; kept: boolean } {
  const make = (): PreparedRef => {
    const ptr = prepareGeometry(geos, input, table, r, geometry, user)
    return { ptr, prepared: geos.GEOSPrepare(ptr), grids: new Map() }
  }
  if (user) {
    const key = `${input.repairUserGeometry ? 'r' : 'v'}${JSON.stringify(geometry)}`
    let entry = preparedUser.get(key)
    if (entry) {
      // Most recently used last.
      preparedUser.delete(key)
      preparedUser.set(key, entry)
      return { entry, kept: true }
    }
    entry = make()
    preparedUser.set(key, entry)
    if (preparedUser.size > MAX_PREPARED_USER) {
      const [oldest, old] = preparedUser.entries().next().value as [string, PreparedRef]
      preparedUser.delete(oldest)
      releasePrepared(geos, old)
    }
    return { entry, kept: true }
  }
  const kept = preparedByTable.get(table) ?? preparedByTable.set(table, new Map()).get(table)!
  let entry = kept.get(r)
  if (entry) return { entry, kept: true }
  entry = make()
  if (preparedCount >= MAX_PREPARED) return { entry, kept: false }
  kept.set(r, entry)
  preparedCount++
  return { entry, kept: true }
}

/**
 * Free what the engine keeps for a table across joins (its GEOS geometries and prepared references in the
 * WebAssembly heap). The dataset cache calls it when it evicts the table; without it that memory would stay
 * taken after the table is gone.
 */
export function releaseTable(geos: Geos, table: FeatureTable): void {
  const geometries = geosCache.get(table)
  if (geometries) {
    for (const ptr of geometries.values()) destroy(geos, ptr)
    cachedGeometries -= geometries.size
    geosCache.delete(table)
  }
  const prepared = preparedByTable.get(table)
  if (prepared) {
    for (const entry of prepared.values()) releasePrepared(geos, entry)
    preparedCount -= prepared.size
    preparedByTable.delete(table)
  }
}

function gridFor(
  entry: PreparedRef,
  geometry: Geometry,
  box: BBox,
  candidates: number,
): CellGrid | undefined {
  const n = CellGrid.sizeFor(geometry, candidates)
  if (n === 0) return undefined
  if (entry.grids.has(n)) return entry.grids.get(n)
  const grid = CellGrid.build(geometry, box, candidates)
  if (entry.grids.size >= 4) entry.grids.clear()
  entry.grids.set(n, grid)
  return grid
}

/**
 * How far (metres) DWithin's planar stand-in of a geography may stray from its great-circle edges: a quarter
 * of the distance, so that whatever the stand-in gets wrong near the boundary is within the distance anyway
 * (at least 1 mm, for DWithin 0). Decision 011.
 */
/** Longest degree of latitude on WGS84 (at the poles), metres, rounded up. */
const METRES_PER_DEGREE_MAX = 111_700

export const geographyTolerance = (distance: number) => Math.max(1e-3, distance / 4)

/** The relation with its arguments swapped: op(a, b) = converse(op)(b, a). */
const CONVERSE: Readonly<Record<string, string>> = { Within: 'Contains', Contains: 'Within' }
const converse = (op: string): string => CONVERSE[op] ?? op

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

/** The indices 0 to n - 1, in order. */
function firstIds(n: number): Int32Array {
  const ids = new Int32Array(n)
  for (let i = 0; i < n; i++) ids[i] = i
  return ids
}

/** Whether box `a` holds box `b` (edges may meet). */
const boxHolds = (a: BBox, b: Readonly<BBox>): boolean =>
  a[0] <= b[0] && a[1] <= b[1] && a[2] >= b[2] && a[3] >= b[3]

/**
 * The join loop: each feature of `drive`, in order, is prepared and looked up in the R-tree of `probe`; each
 * candidate is tested with `rel(drive feature, probe feature)` — the operator itself when the source drives,
 * its converse when the reference does — in the R-tree's order, whichever side drives. The answer is always
 * in reference order, then source order: when the reference drives, each one's rows are sorted by source as
 * it ends; when the source drives, the pairs are kept best-first within the row cap and sorted at the end.
 */
function drivenJoin(
  geos: Geos,
  input: JoinInput,
  drive: FeatureTable,
  probe: FeatureTable,
  rel: string,
  filter: ((s: number) => boolean) | undefined,
  bySource: boolean,
): PairList {
  const { params, rowCap } = input
  const op = params.operator
  const user = !bySource && input.refIsUserGeometry === true
  const distance = params.distance ?? 0
  const pairs = new PairList()
  const kept = geosCache.get(probe) ?? geosCache.set(probe, new Map()).get(probe)!
  const probeGeos = new Map<number, GeomPtr>()
  const probeEdges = new Map<number, ReturnType<typeof edgeSet>>()
  const { boxes, xs, ys, step, kinds, allBoxed, stats: probeStats } = shapeOf(probe)
  const extent = probeStats.extent
  const nProbe = countOf(probe)
  // What the grid says is about the probed feature against the driving one: op(probe, drive).
  const gridOp = converse(rel)
  const gridInterior = decidedByGrid(gridOp, Where.Interior)
  const gridExterior = decidedByGrid(gridOp, Where.Exterior)
  // When the source drives, rows past the cap are dropped as the join goes: `limit` is the first reference
  // index that can no longer make it into the answer.
  let limit = Infinity
  const add = bySource
    ? (d: number, p: number): boolean => {
        if (p >= limit) return false
        if (pairs.push(d, p) > 2 * rowCap + 1024) {
          pairs.sortByReference(nProbe)
          pairs.truncate(rowCap + 1)
          limit = pairs.reference(rowCap)
        }
        return false
      }
    : (d: number, p: number): boolean => pairs.push(p, d) > rowCap
  // Sorts a driving reference's rows by source (and its candidates, where the row cap may fall among them).
  const sorter = new IdSorter()
  const trace = input.trace
  const geomOf = (s: number): GeomPtr => {
    let ptr = kept.get(s) ?? probeGeos.get(s)
    if (ptr === undefined) {
      try {
        ptr = toGeos(geos, geometryAt(probe, s) as Geometry)
      } catch (error) {
        throw new JoinInputError(400, `feature ${s} of dataset ${probe.name}: ${(error as Error).message}`)
      }
      if (cachedGeometries < MAX_CACHED_GEOMETRIES) {
        kept.set(s, ptr)
        cachedGeometries++
      } else probeGeos.set(s, ptr)
    }
    return ptr
  }
  // DWithin: a probed geometry as a geography (its proxy, when its edges stray from their arcs by more
  // than the tolerance or cross the antimeridian), built once per join.
  const dwithin = op === 'DWithin'
  const tolerance = geographyTolerance(distance)
  const probeGeography = dwithin ? tableGeography(probe) : undefined
  const probeBulge = probeGeography?.bulge ?? 0
  const probeProxies = new Map<number, GeomPtr>()
  const geographyOf = (s: number): GeomPtr => {
    const geometry = geometryAt(probe, s) as Geometry
    if (!needsGeographyProxy(geometry, tolerance)) return geomOf(s)
    let ptr = probeProxies.get(s)
    if (ptr === undefined)
      probeProxies.set(s, (ptr = toGeos(geos, geographyProxy(geos, geometry, tolerance).geometry)))
    return ptr
  }
  const check = (value: number, s: number): boolean => {
    if (value === 2) {
      throw new JoinInputError(
        400,
        `GEOS could not evaluate ${op} for feature ${s} of ${probe.name}; the geometry may be invalid`,
      )
    }
    return value === 1
  }
  // Operators for which a vertex strictly inside the driving geometry settles the answer.
  const vertexDecides = op === 'Intersects' || op === 'Disjoint' || op === 'DWithin'
  // Intersects and Disjoint of a polygon against the user geometry (checked valid, as drawn) are decided
  // exactly from the grid's edges where they can be (`CellGrid.intersectsAreal`), GEOS judging the rest:
  // along the drawing's edges, where the grid alone cannot tell, most candidates are clear cases.
  const exactAreal = (op === 'Intersects' || op === 'Disjoint') && user && !input.repairUserGeometry
  const everything = op === 'Disjoint' ? firstIds(nProbe) : undefined
  // The probed table's vertices, flat, for the grid's tests of features it cannot place by their boxes.
  let probeFlat: FlatGeometries | undefined
  const probeFilter = bySource ? undefined : filter
  try {
    const nDrive = countOf(drive)
    outer: for (let d = 0; d < nDrive; d++) {
      if (bySource && filter && !filter(d)) continue
      const driveGeometry = geometryAt(drive, d)
      const driveBox = geometryBBox(driveGeometry)
      if (!driveGeometry || !driveBox) {
        // No geometry is disjoint from everything (as an empty geometry in PostGIS) and in no other relation.
        if (op === 'Disjoint')
          for (let c = 0; c < nProbe; c++) {
            if (probeFilter && !probeFilter(c)) continue
            if (add(d, c)) break outer
          }
        continue
      }
      const { entry, kept: driveKept } = preparedFeature(geos, input, drive, d, driveGeometry, user)
      const drivePtr = entry.ptr
      // DWithin reads the driving geometry as a geography: its proxy (long edges on their arcs, cut at the
      // antimeridian) answers containment, the true arcs the distance.
      const proxy = dwithin ? geographyProxy(geos, driveGeometry, tolerance) : undefined
      const proxyPtr = proxy?.changed ? toGeos(geos, proxy.geometry) : undefined
      const prepared = proxyPtr !== undefined ? geos.GEOSPrepare(proxyPtr) : entry.prepared
      try {
        const driveEdges = dwithin ? edgeSet(driveGeometry) : undefined
        // The probed features' boxes are planar: widen the search by how far their arcs bulge past them.
        const areas: BBox[] = proxy
          ? searchBoxes(proxy.parts, distance, tolerance + probeBulge * METRES_PER_DEGREE_MAX)
          : [driveBox]
        const search = (b: BBox) =>
          limit === Infinity
            ? probe.index.search(b[0], b[1], b[2], b[3])
            : probe.index.search(b[0], b[1], b[2], b[3], (i) => i < limit)
        const area = areas.length === 1 && !probeGeography?.acrossAntimeridian.length ? areas[0] : undefined
        // Candidates in the R-tree's order whichever side drives: the same tests in the same order for both
        // orders of the arguments, and neighbours in space one after the other (the grid's cells, the
        // probed features' coordinates). Sorted by index first, as a driving reference took them, the
        // districts × points join took 5–7 % more CPU, the sort aside (decision 011 §12). A search box holding
        // every probed feature's box would find them all: they are taken in order without the R-tree (which,
        // for a polygon around a million points, listed every id and then sorted them).
        const candidates =
          everything ??
          (area && allBoxed && extent && boxHolds(area, extent)
            ? firstIds(Math.min(nProbe, limit))
            : area
              ? Int32Array.from(search(area))
              : Int32Array.from(
                  new Set([
                    ...areas.flatMap(search),
                    ...(probeGeography?.acrossAntimeridian.filter((i) => i < limit) ?? []),
                  ]),
                ))
        // A driving reference's rows go in source order. They are sorted when its candidates are done; where
        // the row cap may fall among them, the candidates are sorted first instead, so that the join stops at
        // the cap with the first rows.
        const capWithin = !bySource && pairs.length + candidates.length > rowCap
        if (capWithin) sorter.sort(candidates, 0, candidates.length, nProbe)
        const first = pairs.length
        const grid =
          op === 'Equals'
            ? undefined
            : proxy?.changed
              ? CellGrid.build(proxy.geometry, geometryBBox(proxy.geometry)!, candidates.length)
              : gridFor(entry, driveGeometry, driveBox, candidates.length)
        for (let c = 0; c < candidates.length; c++) {
          const s = candidates[c]!
          if (probeFilter && !probeFilter(s)) continue
          if (trace) trace.tested.push(d, s)
          const kind = kinds[s]
          if (kind === KIND_NONE) {
            if (op === 'Disjoint' && add(d, s)) break outer
            continue
          }
          let hit: boolean | undefined
          // A point's box is the point: no need to read the feature to test it.
          const point = kind === KIND_POINT
          const px = xs[s * step]!
          const py = ys[s * step]!
          // Only a table with a feature other than a point has (and needs) boxes.
          if (grid) {
            const where = point
              ? grid.point(px, py)
              : grid.box(boxes![s * 4]!, boxes![s * 4 + 1]!, boxes![s * 4 + 2]!, boxes![s * 4 + 3]!)
            if (where !== Where.Unknown) hit = where === Where.Interior ? gridInterior : gridExterior
            else if (vertexDecides && !point) {
              const flat = (probeFlat ??= flatOf(probe))
              // A vertex strictly inside the driving geometry: the interiors meet.
              if (grid.someVertexInterior(flat, s)) hit = gridInterior
              else if (
                exactAreal &&
                (flat.types[s] === FlatType.Polygon || flat.types[s] === FlatType.MultiPolygon)
              ) {
                const meets = grid.intersectsAreal(
                  flat,
                  s,
                  boxes![s * 4]!,
                  boxes![s * 4 + 1]!,
                  boxes![s * 4 + 2]!,
                  boxes![s * 4 + 3]!,
                )
                if (meets !== undefined) hit = meets === (op === 'Intersects')
              }
            }
          }
          if (hit === undefined && trace) trace.geos++
          if (hit === undefined)
            switch (rel) {
              case 'Intersects':
                hit = point
                  ? check(geos.GEOSPreparedIntersectsXY(prepared, px, py), s)
                  : check(geos.GEOSPreparedIntersects(prepared, geomOf(s)), s)
                break
              case 'Disjoint': {
                const outside = point
                  ? px > driveBox[2] || px < driveBox[0] || py > driveBox[3] || py < driveBox[1]
                  : boxes![s * 4]! > driveBox[2] ||
                    boxes![s * 4 + 2]! < driveBox[0] ||
                    boxes![s * 4 + 1]! > driveBox[3] ||
                    boxes![s * 4 + 3]! < driveBox[1]
                hit = outside
                  ? true
                  : point
                    ? !check(geos.GEOSPreparedIntersectsXY(prepared, px, py), s)
                    : check(geos.GEOSPreparedDisjoint(prepared, geomOf(s)), s)
                break
              }
              case 'Contains':
                hit = point
                  ? check(geos.GEOSPreparedContainsXY(prepared, px, py), s)
                  : check(geos.GEOSPreparedContains(prepared, geomOf(s)), s)
                break
              case 'Within':
                hit = check(geos.GEOSPreparedWithin(prepared, geomOf(s)), s)
                break
              case 'Overlaps':
                hit = check(geos.GEOSPreparedOverlaps(prepared, geomOf(s)), s)
                break
              case 'Touches':
                hit = check(geos.GEOSPreparedTouches(prepared, geomOf(s)), s)
                break
              case 'Crosses':
                hit = check(geos.GEOSPreparedCrosses(prepared, geomOf(s)), s)
                break
              case 'Equals':
                hit = check(geos.GEOSEquals(geomOf(s), drivePtr), s)
                break
              case 'DWithin': {
                if (point) {
                  hit =
                    check(geos.GEOSPreparedIntersectsXY(prepared, px, py), s) ||
                    distanceToEdges(px, py, driveEdges!, distance) <= distance
                } else if (check(geos.GEOSPreparedIntersects(prepared, geographyOf(s)), s)) {
                  hit = true
                } else {
                  let edges = probeEdges.get(s)
                  if (!edges) probeEdges.set(s, (edges = edgeSet(geometryAt(probe, s))))
                  hit = distanceBetweenEdgeSets(edges, driveEdges!, distance) <= distance
                }
                break
              }
              default:
                throw new JoinInputError(400, `operator ${op} is not a spatial operator`, 'operator')
            }
          if (hit && add(d, s)) break outer
        }
        if (!bySource && !capWithin) pairs.sortSources(first, sorter, nProbe)
      } finally {
        if (proxyPtr !== undefined) {
          geos.GEOSPreparedGeom_destroy(prepared)
          destroy(geos, proxyPtr)
        }
        if (!driveKept) releasePrepared(geos, entry)
      }
    }
  } finally {
    for (const ptr of probeGeos.values()) destroy(geos, ptr)
    for (const ptr of probeProxies.values()) destroy(geos, ptr)
  }
  if (bySource) pairs.sortByReference(nProbe)
  return pairs
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

/** The columns of the result, in order, mapped onto prop1…prop8. */
export interface Selection {
  columns: Array<{ table: 'source' | 'ref'; name: string; geometry: boolean }>
}

export const MAX_SELECTED = 8

function splitNames(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
}

/**
 * `selectionParamSource` then `selectionParamRef`, in order, onto prop1…prop8; without either, the first
 * eight fields of the source dataset. A geometry column name selects the geometry as WKT.
 */
export function selection(params: JoinParams, source: FeatureTable, ref?: FeatureTable): Selection {
  const fromSource = splitNames(params.selectionParamSource)
  const fromRef = splitNames(params.selectionParamRef)
  const columns: Selection['columns'] = []
  if (fromSource.length === 0 && fromRef.length === 0) {
    for (const name of source.fields.slice(0, MAX_SELECTED))
      columns.push({ table: 'source', name, geometry: false })
    return { columns }
  }
  for (const name of fromSource) {
    if (!isGeometryColumn(name)) requireField(source, name, 'selectionParamSource')
    columns.push({ table: 'source', name, geometry: isGeometryColumn(name) })
  }
  for (const name of fromRef) {
    if (!ref)
      throw new JoinInputError(400, 'selectionParamRef needs a reference dataset', 'selectionParamRef')
    if (!isGeometryColumn(name)) requireField(ref, name, 'selectionParamRef')
    columns.push({ table: 'ref', name, geometry: isGeometryColumn(name) })
  }
  if (columns.length > MAX_SELECTED) {
    throw new JoinInputError(
      400,
      `selectionParamSource and selectionParamRef name ${columns.length} properties; the result holds at most ${MAX_SELECTED} (prop1…prop8)`,
      fromSource.length > MAX_SELECTED ? 'selectionParamSource' : 'selectionParamRef',
    )
  }
  return { columns }
}

function text(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

const utf8 = new TextEncoder()
/** Rows written per block (see `writeResultRows`), and the mark of a row without a feature on that side. */
const BLOCK = 1024
const MISSING = Symbol('no feature')

/** A property's value as the JSON string literal of its text (`text(value)`), into `out`. */
function writeText(out: JsonChunkWriter, value: unknown): void {
  if (typeof value === 'number') out.numberText(value)
  else if (typeof value === 'string') out.string(value)
  else out.string(text(value))
}

/**
 * Result rows of spec §2.4 as UTF-8 JSON (`{"prop1":"…"},…`, without the brackets) written into `out`:
 * string members prop1…propN, one per selected column, with no object or string per row; a reference
 * feature's values are encoded once per join however many rows it is in.
 */
export function writeResultRows(
  geos: Geos,
  pairs: PairList,
  sel: Selection,
  source: FeatureTable,
  ref: FeatureTable | undefined,
  out: JsonChunkWriter,
): void {
  const wkt = (g: Geometry | null): string => {
    if (!g) return ''
    const ptr = toGeos(geos, g)
    try {
      return toWkt(geos, ptr)
    } finally {
      destroy(geos, ptr)
    }
  }
  // A table's values are encoded once per join when its features come back in two rows or more on average
  // (a reference polygon holding thousands of points); otherwise they are written straight.
  const memoFor = (table: FeatureTable | undefined) =>
    table && countOf(table) * 2 <= pairs.length
      ? new Array<Uint8Array | undefined>(countOf(table))
      : undefined
  const columns = sel.columns.map((c, i) => {
    const table = c.table === 'source' ? source : ref
    const memo = memoFor(table)
    const text = !c.geometry ? table?.points?.textColumn(c.name) : undefined
    return {
      key: utf8.encode(`${i > 0 ? ',' : '{'}"prop${i + 1}":`),
      fromSource: c.table === 'source',
      geometry: c.geometry,
      name: c.name,
      table,
      memo,
      // A point table's: its features' count, and the column's values (its coordinates for the geometry;
      // a text column's bytes).
      count: table?.points ? table.points.count : -1,
      column: table?.points && !c.geometry ? table.points.reader(c.name) : undefined,
      text,
      // What a block of rows reads of this column, gathered before they are written (see below): values;
      // a point's coordinates; where a text's bytes start (-1 for none: "") and end.
      values: memo ? undefined : new Array<unknown>(BLOCK),
      xs: (c.geometry || text) && !memo ? new Float64Array(BLOCK) : undefined,
      ys: (c.geometry || text) && !memo ? new Float64Array(BLOCK) : undefined,
    }
  })
  const empty = utf8.encode('""')
  const rowEnd = utf8.encode(columns.length > 0 ? '}' : '{}')
  const n = pairs.length
  // Rows go in blocks: first each column's values of the block are gathered in a tight loop, then the rows
  // are written from them. The features of a block's rows lie scattered in memory (a reference's sources
  // in the source's order); a short gathering loop lets the processor wait for many of them at once, where
  // the writing loop between two reads would wait for each in turn (200,000 rows of districts × points:
  // ids written in 120 ms read row by row, 30 ms gathered first).
  for (let b = 0; b < n; b += BLOCK) {
    const m = Math.min(BLOCK, n - b)
    for (let k = 0; k < columns.length; k++) {
      const c = columns[k]!
      const values = c.values
      if (!values) continue
      const xs = c.xs
      const ys = c.ys
      const points = c.table?.points
      if (points) {
        // A point table's values straight from its columns (the geometry's, when not a number pair, made
        // where it is written).
        if (c.text) {
          // A text column's: where each value's bytes are (written from them, without a string).
          const { offsets, nulls } = c.text
          const starts = xs!
          const ends = ys!
          for (let j = 0; j < m; j++) {
            const at = c.fromSource ? pairs.source(b + j) : pairs.reference(b + j)
            if (at < 0 || at >= c.count || (nulls !== undefined && nulls[at] === 1)) starts[j] = -1
            else {
              starts[j] = offsets[at]!
              ends[j] = offsets[at + 1]!
            }
          }
          continue
        }
        const column = c.column
        const px = points.xs
        const py = points.ys
        for (let j = 0; j < m; j++) {
          const at = c.fromSource ? pairs.source(b + j) : pairs.reference(b + j)
          if (at < 0 || at >= c.count) values[j] = MISSING
          else if (xs) {
            values[j] = null
            xs[j] = px[at]!
            ys![j] = py[at]!
          } else values[j] = column!(at)
        }
        continue
      }
      const features = c.table?.features
      for (let j = 0; j < m; j++) {
        const at = c.fromSource ? pairs.source(b + j) : pairs.reference(b + j)
        const feature = at >= 0 && features ? features[at] : undefined
        if (!feature) values[j] = MISSING
        else if (!xs) values[j] = feature.properties[c.name]
        else {
          const g = feature.geometry
          values[j] = g
          if (g?.type === 'Point' && g.coordinates.length >= 2) {
            xs[j] = g.coordinates[0]!
            ys![j] = g.coordinates[1]!
          } else xs[j] = NaN
        }
      }
    }
    for (let j = 0; j < m; j++) {
      const i = b + j
      if (i > 0) out.byte(0x2c)
      for (let k = 0; k < columns.length; k++) {
        const c = columns[k]!
        out.bytes(c.key)
        const values = c.values
        const texts = c.text
        if (texts && values) {
          // A text from its bytes (no feature, or no value: "").
          const start = c.xs![j]!
          const end = c.ys![j]!
          if (start < 0) out.bytes(empty)
          else if (texts.plain) out.plainString(texts.bytes, start, end)
          else if (!out.utf8String(texts.bytes, start, end)) out.string(decodeText(texts.bytes, start, end))
          continue
        }
        if (values) {
          const value = values[j]
          if (value === MISSING) out.bytes(empty)
          else if (!c.xs) writeText(out, value)
          // A point's WKT is written here as GEOS writes it, when its coordinates allow (nearly always).
          else if (Number.isNaN(c.xs[j]!) || !out.pointWkt(c.xs[j]!, c.ys![j]!))
            out.string(
              wkt(
                c.count >= 0
                  ? geometryAt(c.table!, c.fromSource ? pairs.source(i) : pairs.reference(i))
                  : (value as Geometry | null),
              ),
            )
          continue
        }
        const at = c.fromSource ? pairs.source(i) : pairs.reference(i)
        const table = c.table
        const points = table?.points
        const feature = points || at < 0 ? undefined : table?.features[at]
        if (points ? at < 0 || at >= c.count : !feature) {
          out.bytes(empty)
          continue
        }
        const memo = c.memo!
        let value = memo[at]
        if (!value) {
          const literal = JSON.stringify(
            c.geometry
              ? wkt(points ? points.geometry(at) : feature!.geometry)
              : text(points ? points.property(at, c.name) : feature!.properties[c.name]),
          )
          value = memo[at] = utf8.encode(literal)
        }
        out.bytes(value)
      }
      out.bytes(rowEnd)
    }
  }
}

/** Result rows of spec §2.4 as one JSON array text (`[{"prop1":"…"},…]`). */
export function resultRowsJson(
  geos: Geos,
  pairs: PairList,
  sel: Selection,
  source: FeatureTable,
  ref?: FeatureTable,
): string {
  const parts: Buffer[] = []
  const out = new JsonChunkWriter((bytes) => parts.push(Buffer.from(bytes)))
  writeResultRows(geos, pairs, sel, source, ref, out)
  out.flush()
  return '[' + Buffer.concat(parts).toString('utf8') + ']'
}

/** Features of a saved result: the source geometry, every source property, every reference property as `ref_<name>`. */
export function resultFeatures(pairs: PairList, source: FeatureTable, ref?: FeatureTable): DatasetFeature[] {
  return pairs.toArray().map(([s, r]) => {
    const sf = source.features[s]!
    const properties: Record<string, unknown> = { ...sf.properties }
    const rf = r >= 0 ? ref?.features[r] : undefined
    if (ref)
      for (const name of ref.fields) properties[`ref_${name}`] = rf ? (rf.properties[name] ?? null) : null
    return { geometry: sf.geometry, properties }
  })
}
