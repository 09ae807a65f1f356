// The tables a join reads (issue 28: split from join.ts by stage): a dataset's features, what each is (its
// shape: boxes, kinds, the planner's statistics) and its geography for DWithin, computed once per table.
import type { Geometry } from 'geojson'
import Flatbush from 'flatbush'
import { geometryBBox, type DatasetFeature } from '../../workspace/features'
import { buildIndex } from '../../workspace/workspace'
import type { PointColumns } from '../../workspace/point-columns'
import { arcBulge } from '../../engine/geodesy'
import { FlatGeometries } from './flat-geometries'
import { crossesAntimeridian } from '../../engine/geography'
import type { SideStats } from './planner'

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
export const countOf = (table: FeatureTable): number =>
  table.points ? table.points.count : table.features.length

/** Feature `i`'s geometry (a point table's made for the call). */
export const geometryAt = (table: FeatureTable, i: number): Geometry | null =>
  table.points ? table.points.geometry(i) : table.features[i]!.geometry

/** A reader of one property of a table's features by index (a point table's from its column). */
export function propertyReader(table: FeatureTable, name: string): (i: number) => unknown {
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
export const KIND_POINT = 1
export const KIND_NONE = 2
const shapeCache = new WeakMap<FeatureTable, TableShape>()

const flatCache = new WeakMap<FeatureTable, FlatGeometries>()

/** A table's geometries as flat arrays (`FlatGeometries`), made once per table when a join first asks. */
export function flatOf(table: FeatureTable): FlatGeometries {
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

export function shapeOf(table: FeatureTable): TableShape {
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
export function tableGeography(table: FeatureTable): TableGeography {
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
export function sideStats(table: FeatureTable, other: FeatureTable): SideStats {
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

export function tableFromFeatures(name: string, features: DatasetFeature[]): FeatureTable {
  const fields = [...new Set(features.flatMap((f) => Object.keys(f.properties)))]
  return { name, features, fields, index: buildIndex(features) }
}
