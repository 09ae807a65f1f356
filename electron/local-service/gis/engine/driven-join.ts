// The driven join (split from join.ts, issue 28): each driving feature prepared (kept across joins, within
// bounds) and its candidates in the probed table tested, by the cell grid, exact edge tests or GEOS.
import type { Geometry } from 'geojson'
import { geometryBBox } from '../../workspace/features'
import {
  distanceBetweenEdgeSets,
  distanceToEdges,
  edgeSet,
  searchBoxes,
  type BBox,
} from '../../engine/geodesy'
import { FlatGeometries, FlatType } from './flat-geometries'
import { CellGrid, Where } from './cell-grid'
import { geographyProxy, needsGeographyProxy } from '../../engine/geography'
import { destroy, toGeos, type Geos, type GeomPtr } from '../../engine/geos'
import { IdSorter } from './id-sort'
import { PairList } from './pair-list'
import {
  countOf,
  flatOf,
  geometryAt,
  KIND_NONE,
  KIND_POINT,
  shapeOf,
  tableGeography,
  type FeatureTable,
} from './feature-table'
import { JoinInputError, type JoinInput } from './join-input'
import {
  boxHolds,
  converse,
  decidedByGrid,
  firstIds,
  geographyTolerance,
  gridFor,
  METRES_PER_DEGREE_MAX,
  prepareGeometry,
  type PreparedRef,
} from './driving-geometry'

/**
 * GEOS geometries of probed features (the source, or the reference when the source drives), kept per table across joins (the worker keeps its tables), up to a
 * total count so a huge dataset cannot fill the WebAssembly heap; past it they are built per join.
 */
const geosCache = new WeakMap<FeatureTable, Map<number, GeomPtr>>()
let cachedGeometries = 0
const MAX_CACHED_GEOMETRIES = 500_000

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

/**
 * The join loop: each feature of `drive`, in order, is prepared and looked up in the R-tree of `probe`; each
 * candidate is tested with `rel(drive feature, probe feature)` — the operator itself when the source drives,
 * its converse when the reference does — in the R-tree's order, whichever side drives. The answer is always
 * in reference order, then source order: when the reference drives, each one's rows are sorted by source as
 * it ends; when the source drives, the pairs are kept best-first within the row cap and sorted at the end.
 */
export function drivenJoin(
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
        // districts × points join took 5–7 % more CPU, the sort aside (decision 029). A search box holding
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
