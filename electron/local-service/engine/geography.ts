import type { Geometry, Position } from 'geojson'
import { geosGeomToGeojson } from 'geos-wasm/helpers'
import { EARTH_RADIUS_M, angle, normalize, toLonLat, toVec, type BBox } from './geodesy'
import { destroy, toGeos, type Geos } from './geos'

/**
 * A geography's stand-in for planar tests (PostGIS `geography` semantics on a planar engine): the same
 * shape with every edge within `tolerance` metres of its great-circle arc (long edges get vertices on the
 * arc), longitudes continuous across ±180° and the shape then cut at the antimeridian back into −180…180
 * (a ring around a pole closed through it). Containment tested on it is containment on the sphere except
 * within `tolerance` of the boundary, where a distance test to the true arcs decides (decision 019).
 */
export interface GeographyProxy {
  geometry: Geometry
  /** False when the geometry is its own proxy (short edges, no antimeridian crossing). */
  changed: boolean
  /** Boxes of its parts (one per polygon or line of the proxy). */
  parts: BBox[]
}

/** A longitude difference brought into −180…180 (the short way round). */
const wrap = (d: number) => d - 360 * Math.round(d / 360)

/**
 * Whether the planar segment a–b may stray more than `tolerance` metres from its great-circle arc: the
 * arc's poleward bulge is about R·sinφ·cosφ·Δλ²/8 ≤ R·Δλ²/16; this answers with four times that margin.
 */
function mayStray(dLonDeg: number, tolerance: number): boolean {
  const dl = (dLonDeg * Math.PI) / 180
  return (EARTH_RADIUS_M * dl * dl) / 4 > tolerance
}

/** Whether a geometry has an edge across ±180° (longitudes more than 180° apart: the short way is across). */
export function crossesAntimeridian(geometry: Geometry | null): boolean {
  return needsGeographyProxy(geometry, Infinity)
}

/** Whether a geometry needs a proxy at this tolerance: an edge across ±180° or one that may stray. */
export function needsGeographyProxy(geometry: Geometry | null, tolerance: number): boolean {
  if (!geometry) return false
  const line = (positions: Position[]) => {
    for (let i = 1; i < positions.length; i++) {
      const d = positions[i]![0]! - positions[i - 1]![0]!
      if (Math.abs(d) > 180 || mayStray(d, tolerance)) return true
    }
    return false
  }
  switch (geometry.type) {
    case 'Point':
    case 'MultiPoint':
      return false
    case 'LineString':
      return line(geometry.coordinates)
    case 'MultiLineString':
    case 'Polygon':
      return geometry.coordinates.some(line)
    case 'MultiPolygon':
      return geometry.coordinates.some((p) => p.some(line))
    case 'GeometryCollection':
      return geometry.geometries.some((g) => needsGeographyProxy(g, tolerance))
  }
}

/**
 * Halvings of one edge at most (4,096 pieces): a 90° edge then keeps within about 6 cm of its arc, however
 * small the tolerance asked.
 */
const MAX_DEPTH = 12

/** Positions of a line with continuous longitudes and vertices added on the arcs where an edge strays. */
function densify(line: Position[], tolerance: number): Position[] {
  if (line.length === 0) return []
  const result = densified(line, tolerance)
  if (result.length !== line.length || result.some((p, i) => p[0] !== line[i]![0])) altered = true
  return result
}

/** Set when a proxy being built differs from its geometry (a vertex added or a longitude moved). */
let altered = false

function densified(line: Position[], tolerance: number): Position[] {
  const out: Position[] = [[line[0]![0]!, line[0]![1]!]]
  const split = (a: Position, b: Position, depth: number) => {
    if (depth < MAX_DEPTH && mayStray(b[0]! - a[0]!, tolerance)) {
      const va = toVec(a[0]!, a[1]!)
      const vb = toVec(b[0]!, b[1]!)
      const m = normalize([va[0] + vb[0], va[1] + vb[1], va[2] + vb[2]])
      if (m) {
        const [lon, lat] = toLonLat(m)
        const mid: Position = [a[0]! + wrap(lon - a[0]!), lat]
        const planar = toVec((a[0]! + b[0]!) / 2, (a[1]! + b[1]!) / 2)
        if (angle(planar, m) * EARTH_RADIUS_M > tolerance) {
          split(a, mid, depth + 1)
          split(mid, b, depth + 1)
          return
        }
      }
    }
    out.push(b)
  }
  for (let i = 1; i < line.length; i++) {
    const a = out[out.length - 1]!
    const p = line[i]!
    split(a, [a[0]! + wrap(p[0]! - a[0]!), p[1]!], 0)
  }
  return out
}

/** A ring densified and unwrapped; a ring that goes once round a pole is closed through that pole. */
function ring(positions: Position[], tolerance: number): Position[] {
  const r = densify(positions, tolerance)
  const first = r[0]!
  const last = r[r.length - 1]!
  const turn = last[0]! - first[0]!
  if (Math.abs(turn) > 180) {
    const pole = r.reduce((sum, p) => sum + p[1]!, 0) >= 0 ? 90 : -90
    r.push([last[0]!, pole], [first[0]!, pole], [first[0]!, first[1]!])
  }
  return r
}

const shift = (positions: Position[], by: number): Position[] =>
  by === 0 ? positions : positions.map((p) => [p[0]! + by, p[1]!])

function lonRange(positions: Position[]): [number, number] {
  let min = Infinity
  let max = -Infinity
  for (const p of positions) {
    if (p[0]! < min) min = p[0]!
    if (p[0]! > max) max = p[0]!
  }
  return [min, max]
}

function boxOf(positions: Position[]): BBox {
  const b: BBox = [Infinity, Infinity, -Infinity, -Infinity]
  for (const p of positions) {
    if (p[0]! < b[0]) b[0] = p[0]!
    if (p[1]! < b[1]) b[1] = p[1]!
    if (p[0]! > b[2]) b[2] = p[0]!
    if (p[1]! > b[3]) b[3] = p[1]!
  }
  return b
}

/** The polygon (rings unwrapped) cut into −180…180: the parts in each 360° window, moved into it. */
function cutPolygon(geos: Geos, rings: Position[][]): Position[][][] {
  const [west, east] = lonRange(rings[0]!)
  if (west >= -180 && east <= 180) return [rings]
  const out: Position[][][] = []
  const ptr = toGeos(geos, { type: 'Polygon', coordinates: rings })
  try {
    for (let k = Math.floor((west + 180) / 360); k * 360 - 180 < east; k++) {
      const clipped = geos.GEOSClipByRect(ptr, k * 360 - 180, -90, k * 360 + 180, 90)
      if (!clipped) continue
      try {
        const g = geosGeomToGeojson(clipped, geos as never) as Geometry | null
        const polygons =
          g?.type === 'Polygon' ? [g.coordinates] : g?.type === 'MultiPolygon' ? g.coordinates : []
        for (const p of polygons) if (p.length > 0) out.push(p.map((r) => shift(r, -k * 360)))
      } finally {
        destroy(geos, clipped)
      }
    }
  } finally {
    destroy(geos, ptr)
  }
  return out
}

/** The 360° window a longitude lies in: 0 for −180…180, 1 for 180…540, −1 for −540…−180. */
const windowOf = (lon: number) => Math.floor((lon + 180) / 360)

/** A line (unwrapped) cut where it crosses ±180°, each piece moved into −180…180. */
function cutLine(line: Position[]): Position[][] {
  const pieces: Position[][] = []
  let k = windowOf(line[0]![0]!)
  let piece: Position[] = []
  for (let i = 0; i < line.length; i++) {
    const p = line[i]!
    let pk = windowOf(p[0]!)
    // A vertex on the window's east side stays in the window.
    if (pk === k + 1 && p[0]! === k * 360 + 180) pk = k
    if (i > 0 && pk !== k) {
      // Where the edge crosses the side (planar interpolation: the edge is within tolerance of its arc).
      const a = line[i - 1]!
      const side = pk > k ? k * 360 + 180 : k * 360 - 180
      const y = a[1]! + ((side - a[0]!) / (p[0]! - a[0]!)) * (p[1]! - a[1]!)
      piece.push([side - k * 360, y])
      pieces.push(piece)
      piece = [[side - pk * 360, y]]
      k = pk
    }
    piece.push([p[0]! - k * 360, p[1]!])
  }
  pieces.push(piece)
  return pieces.filter((q) => q.length > 1)
}

/** The geography proxy of a geometry at `tolerance` metres (see `GeographyProxy`). */
export function geographyProxy(geos: Geos, geometry: Geometry, tolerance: number): GeographyProxy {
  if (!needsGeographyProxy(geometry, tolerance)) return { geometry, changed: false, parts: partsOf(geometry) }
  altered = false
  const polygons: Position[][][] = []
  const lines: Position[][] = []
  const points: Position[] = []
  const add = (g: Geometry) => {
    switch (g.type) {
      case 'Point':
        if (g.coordinates.length >= 2) points.push(g.coordinates)
        return
      case 'MultiPoint':
        points.push(...g.coordinates)
        return
      case 'LineString':
        lines.push(...cutLine(densify(g.coordinates, tolerance)))
        return
      case 'MultiLineString':
        for (const l of g.coordinates) lines.push(...cutLine(densify(l, tolerance)))
        return
      case 'Polygon':
      case 'MultiPolygon': {
        for (const p of g.type === 'Polygon' ? [g.coordinates] : g.coordinates) {
          if (p.length === 0) continue
          const shell = ring(p[0]!, tolerance)
          const [west, east] = lonRange(shell)
          const centre = (west + east) / 2
          // Holes go to the shell's side of the antimeridian.
          const holes = p.slice(1).map((h) => {
            const r = ring(h, tolerance)
            const [w, e] = lonRange(r)
            return shift(r, 360 * Math.round((centre - (w + e) / 2) / 360))
          })
          polygons.push(...cutPolygon(geos, [shell, ...holes]))
        }
        return
      }
      case 'GeometryCollection':
        g.geometries.forEach(add)
    }
  }
  add(geometry)
  // Edges that might have strayed but did not, on this side of ±180°: the geometry is its own proxy.
  if (!altered) return { geometry, changed: false, parts: partsOf(geometry) }
  const kinds = [polygons.length, lines.length, points.length].filter((n) => n > 0).length
  let proxy: Geometry
  if (kinds > 1)
    proxy = {
      type: 'GeometryCollection',
      geometries: [
        ...(polygons.length ? [{ type: 'MultiPolygon' as const, coordinates: polygons }] : []),
        ...(lines.length ? [{ type: 'MultiLineString' as const, coordinates: lines }] : []),
        ...(points.length ? [{ type: 'MultiPoint' as const, coordinates: points }] : []),
      ],
    }
  else if (polygons.length)
    proxy =
      polygons.length === 1
        ? { type: 'Polygon', coordinates: polygons[0]! }
        : { type: 'MultiPolygon', coordinates: polygons }
  else if (lines.length)
    proxy =
      lines.length === 1
        ? { type: 'LineString', coordinates: lines[0]! }
        : { type: 'MultiLineString', coordinates: lines }
  else proxy = geometry
  return { geometry: proxy, changed: true, parts: partsOf(proxy) }
}

/** Boxes of a geometry's parts: each polygon, line and point. */
function partsOf(geometry: Geometry): BBox[] {
  switch (geometry.type) {
    case 'Point':
      return geometry.coordinates.length >= 2 ? [boxOf([geometry.coordinates])] : []
    case 'MultiPoint':
      return geometry.coordinates.map((p) => boxOf([p]))
    case 'LineString':
      return geometry.coordinates.length ? [boxOf(geometry.coordinates)] : []
    case 'MultiLineString':
      return geometry.coordinates.filter((l) => l.length).map(boxOf)
    case 'Polygon':
      return geometry.coordinates[0]?.length ? [boxOf(geometry.coordinates[0])] : []
    case 'MultiPolygon':
      return geometry.coordinates.filter((p) => p[0]?.length).map((p) => boxOf(p[0]!))
    case 'GeometryCollection':
      return geometry.geometries.flatMap(partsOf)
  }
}
