import type { Geometry, Position } from 'geojson'
import { geodesicDistance } from '../../../shared/geodesy'

/**
 * Distances as PostGIS measures `geography` with the spheroid: from a point to an edge found on the great
 * circle through the edge and then measured on the ellipsoid (PostGIS's `edge_distance_to_point` followed by
 * `spheroid_distance`). Areas, lengths and point-to-point distances are the shared ones (`shared/geodesy.ts`).
 */
const DEG = Math.PI / 180
/** Mean earth radius (IUGG), the sphere PostGIS uses to find nearest points. */
export const EARTH_RADIUS_M = 6371008.8
/** Shortest length of one degree of latitude on WGS84 (at the equator), in metres. */
const MIN_METRES_PER_DEGREE = 110_574

/** True when the geometry has no coordinates at all (like PostGIS `ST_IsEmpty`). */
export function isEmptyGeometry(geometry: Geometry | null): boolean {
  if (!geometry) return true
  if (geometry.type === 'GeometryCollection') return geometry.geometries.every(isEmptyGeometry)
  const flat = (geometry.coordinates as unknown[]).flat(3)
  return flat.length === 0
}

export type Vec = [number, number, number]

export function toVec(lon: number, lat: number): Vec {
  const cl = Math.cos(lat * DEG)
  return [cl * Math.cos(lon * DEG), cl * Math.sin(lon * DEG), Math.sin(lat * DEG)]
}

export function toLonLat(v: Vec): [number, number] {
  return [Math.atan2(v[1], v[0]) / DEG, Math.atan2(v[2], Math.hypot(v[0], v[1])) / DEG]
}

const dot = (a: Vec, b: Vec) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
const cross = (a: Vec, b: Vec): Vec => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
]
export const angle = (a: Vec, b: Vec) => Math.atan2(Math.hypot(...cross(a, b)), dot(a, b))

export function normalize(v: Vec): Vec | undefined {
  const n = Math.hypot(v[0], v[1], v[2])
  return n < 1e-15 ? undefined : [v[0] / n, v[1] / n, v[2] / n]
}

/** The point of the great-circle arc a–b nearest to p (all unit vectors), on the sphere. */
function nearestOnArc(p: Vec, a: Vec, b: Vec): Vec {
  const normal = normalize(cross(a, b))
  if (normal) {
    const d = dot(p, normal)
    const projected = normalize([p[0] - d * normal[0], p[1] - d * normal[1], p[2] - d * normal[2]])
    if (projected && dot(cross(a, projected), normal) >= 0 && dot(cross(projected, b), normal) >= 0) {
      return projected
    }
  }
  return angle(p, a) <= angle(p, b) ? a : b
}

/** Edges (as unit-vector pairs) and vertices of a geometry, prepared once for many distance queries. */
export interface EdgeSet {
  edges: Array<[Vec, Vec]>
  vertices: Vec[]
}

export function edgeSet(geometry: Geometry | null): EdgeSet {
  const set: EdgeSet = { edges: [], vertices: [] }
  const addLine = (line: Position[]) => {
    const vecs = line.map((p) => toVec(p[0]!, p[1]!))
    set.vertices.push(...vecs)
    for (let i = 1; i < vecs.length; i++) set.edges.push([vecs[i - 1]!, vecs[i]!])
  }
  const walk = (g: Geometry | null) => {
    if (!g) return
    switch (g.type) {
      case 'Point':
        if (g.coordinates.length >= 2) set.vertices.push(toVec(g.coordinates[0]!, g.coordinates[1]!))
        return
      case 'MultiPoint':
        g.coordinates.forEach((p) => set.vertices.push(toVec(p[0]!, p[1]!)))
        return
      case 'LineString':
        return addLine(g.coordinates)
      case 'MultiLineString':
        return g.coordinates.forEach(addLine)
      case 'Polygon':
        return g.coordinates.forEach(addLine)
      case 'MultiPolygon':
        return g.coordinates.forEach((p) => p.forEach(addLine))
      case 'GeometryCollection':
        return g.geometries.forEach(walk)
    }
  }
  walk(geometry)
  return set
}

/**
 * Distance in metres from a lon/lat point to the boundary (edges and vertices) of a geometry: the nearest
 * point is found on great-circle edges, then the distance to it is measured on the ellipsoid. Containment is
 * not considered here (the caller checks it). `limit` lets it skip the ellipsoidal step when the sphere
 * already decides that the distance is clearly above the limit.
 */
export function distanceToEdges(lon: number, lat: number, set: EdgeSet, limit = Infinity): number {
  const p = toVec(lon, lat)
  const candidates: Array<[number, Vec]> = []
  let best = Infinity
  const consider = (q: Vec) => {
    const a = angle(p, q)
    candidates.push([a, q])
    if (a < best) best = a
  }
  for (const [a, b] of set.edges) consider(nearestOnArc(p, a, b))
  if (set.edges.length === 0) set.vertices.forEach(consider)
  if (best === Infinity) return Infinity
  const sphereBest = best * EARTH_RADIUS_M
  // Ellipsoidal and spherical distances differ by well under 1 %: decide clear cases on the sphere.
  if (sphereBest * 0.985 > limit + 1) return sphereBest
  let result = Infinity
  for (const [a, q] of candidates) {
    if (a * EARTH_RADIUS_M > sphereBest * 1.02 + 1) continue
    const [qlon, qlat] = toLonLat(q)
    const d = geodesicDistance(lon, lat, qlon, qlat)
    if (d < result) result = d
  }
  return result
}

/** Whether point x (on the great circle of arc a–b, whose normal is n) lies on the arc. */
const onArc = (x: Vec, a: Vec, b: Vec, n: Vec) => dot(cross(a, x), n) >= 0 && dot(cross(x, b), n) >= 0

/** Whether the great-circle arcs a1–b1 and a2–b2 (shorter than half the circle) cross or touch. */
export function arcsCross(a1: Vec, b1: Vec, a2: Vec, b2: Vec): boolean {
  const n1 = normalize(cross(a1, b1))
  const n2 = normalize(cross(a2, b2))
  if (!n1 || !n2) return false
  const line = normalize(cross(n1, n2))
  // Arcs on one great circle: they overlap only where an end of one lies on the other, which the
  // distance from that end to the other arc (zero) already says.
  if (!line) return false
  for (const x of [line, [-line[0], -line[1], -line[2]] as Vec])
    if (onArc(x, a1, b1, n1) && onArc(x, a2, b2, n2)) return true
  return false
}

/**
 * Minimum distance between the boundaries (edges and vertices) of two geometries, metres: zero when two
 * great-circle edges cross; otherwise the nearest pair involves a vertex of one and an edge of the other
 * (as PostGIS's `edge_distance_to_edge`). Containment is the caller's to check.
 */
export function distanceBetweenEdgeSets(a: EdgeSet, b: EdgeSet, limit = Infinity): number {
  for (const [a1, b1] of a.edges) for (const [a2, b2] of b.edges) if (arcsCross(a1, b1, a2, b2)) return 0
  let best = Infinity
  for (const v of a.vertices) {
    const [lon, lat] = toLonLat(v)
    best = Math.min(best, distanceToEdges(lon, lat, b, Math.min(limit, best)))
  }
  for (const v of b.vertices) {
    const [lon, lat] = toLonLat(v)
    best = Math.min(best, distanceToEdges(lon, lat, a, Math.min(limit, best)))
  }
  return best
}

export type BBox = [number, number, number, number]

/**
 * How far (degrees of latitude) the great-circle edges of a geometry reach beyond the latitudes of their
 * ends — the poleward bulge its planar box misses; 0 for points.
 */
export function arcBulge(geometry: Geometry | null): number {
  let bulge = 0
  for (const [a, b] of edgeSet(geometry).edges) {
    const normal = normalize(cross(a, b))
    if (!normal) continue
    const ends = [toLonLat(a)[1], toLonLat(b)[1]]
    for (const pole of [1, -1]) {
      // The point of the great circle farthest toward this pole, when it lies on the arc.
      const top = normalize([
        -normal[2] * normal[0] * pole,
        -normal[2] * normal[1] * pole,
        (1 - normal[2] * normal[2]) * pole,
      ])
      if (!top || !(dot(cross(a, top), normal) >= 0 && dot(cross(top, b), normal) >= 0)) continue
      const lat = toLonLat(top)[1]
      bulge = Math.max(bulge, pole > 0 ? lat - Math.max(...ends) : Math.min(...ends) - lat)
    }
  }
  return bulge
}

/**
 * Lon/lat boxes that surely hold every point within `metres` of the parts whose boxes are given (parts of a
 * geometry whose edges are within `slack` metres of its great-circle edges, e.g. its geography proxy): each
 * box widened by the distance in degrees at the shortest degree length — longitude by the latitude's
 * cosine, to the full circle near the poles — and a box reaching past ±180° continued on the other side.
 */
export function searchBoxes(parts: readonly BBox[], metres: number, slack = 0): BBox[] {
  const dLat = ((metres + slack) / MIN_METRES_PER_DEGREE) * 1.01 + 1e-9
  const out: BBox[] = []
  for (const [minX, minY, maxX, maxY] of parts) {
    const south = Math.max(-90, minY - dLat)
    const north = Math.min(90, maxY + dLat)
    const maxAbsLat = Math.max(Math.abs(south), Math.abs(north))
    if (maxAbsLat >= 89.5) {
      out.push([-180, south, 180, north])
      continue
    }
    const dLon = dLat / Math.cos(maxAbsLat * DEG)
    const west = minX - dLon
    const east = maxX + dLon
    if (east - west >= 360) {
      out.push([-180, south, 180, north])
      continue
    }
    out.push([Math.max(-180, west), south, Math.min(180, east), north])
    if (west < -180) out.push([west + 360, south, 180, north])
    if (east > 180) out.push([-180, south, east - 360, north])
  }
  return out
}

const E2 = WGS84_E2()
const E = Math.sqrt(E2)
const A = 6378137

function WGS84_E2(): number {
  const f = 1 / 298.257223563
  return f * (2 - f)
}

/** Authalic q(φ) of the ellipsoid: y = A·q/2 is the ordinate of the equal-area cylindrical projection. */
function authalicQ(latDeg: number): number {
  const s = Math.sin(latDeg * DEG)
  return (1 - E2) * (s / (1 - E2 * s * s) - (1 / (2 * E)) * Math.log((1 - E * s) / (1 + E * s)))
}

/**
 * Area in m² of a small polygon (box under 0.25° each way, away from the poles) with straight edges on the
 * ellipsoid's equal-area cylindrical projection: within 2e-4 of the geodesic area at that size (measured on
 * 20,000 random 6–12-vertex polygons), used
 * only to decide comparisons that are far from the threshold. Undefined when the shape is too large.
 */
export function approximateArea(geometry: Geometry | null): number | undefined {
  if (!geometry || (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon')) return undefined
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates
  let total = 0
  for (const rings of polygons) {
    rings.forEach((ring, r) => {
      let minX = Infinity
      let maxX = -Infinity
      let minY = Infinity
      let maxY = -Infinity
      let twice = 0
      const [ox, oy] = ring[0] as [number, number]
      const oq = authalicQ(oy)
      for (let i = 1; i < ring.length; i++) {
        const [x0, y0] = ring[i - 1] as [number, number]
        const [x1, y1] = ring[i] as [number, number]
        minX = Math.min(minX, x1)
        maxX = Math.max(maxX, x1)
        minY = Math.min(minY, y1)
        maxY = Math.max(maxY, y1)
        const px0 = (x0 - ox) * DEG * A
        const px1 = (x1 - ox) * DEG * A
        twice += px0 * ((A * (authalicQ(y1) - oq)) / 2) - px1 * ((A * (authalicQ(y0) - oq)) / 2)
      }
      if (maxX - minX > 0.25 || maxY - minY > 0.25 || Math.abs(minY) > 80 || Math.abs(maxY) > 80) total = NaN
      total += (r === 0 ? 1 : -1) * Math.abs(twice / 2)
    })
  }
  return Number.isNaN(total) ? undefined : Math.max(0, total)
}
