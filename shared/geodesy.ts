import type { Geometry, Position } from 'geojson'
import geographiclib from 'geographiclib-geodesic'

/**
 * Measures on the WGS84 ellipsoid, as PostGIS measures `geography` with the spheroid: areas and lengths along
 * geodesics (GeographicLib, as PostGIS uses it). The renderer's labels and summaries, the core and the local
 * service's Area/Length comparisons all use these, so a label and a join's threshold agree.
 */
const WGS84 = geographiclib.Geodesic.WGS84

/** What the measures are computed on, for a label's tooltip or a document. */
export const MEASURE_MODEL = 'WGS84 ellipsoid, geodesics (GeographicLib)'

/** Geodesic distance between two lon/lat positions, metres. */
export function geodesicDistance(lon1: number, lat1: number, lon2: number, lat2: number): number {
  return WGS84.Inverse(lat1, lon1, lat2, lon2).s12 as number
}

function ringArea(ring: Position[]): number {
  const poly = WGS84.Polygon(false)
  const n = ring.length
  const closed = n > 1 && ring[0]![0] === ring[n - 1]![0] && ring[0]![1] === ring[n - 1]![1]
  for (let i = 0; i < (closed ? n - 1 : n); i++) poly.AddPoint(ring[i]![1]!, ring[i]![0]!)
  return Math.abs(poly.Compute(false, true).area ?? 0)
}

function polygonArea(rings: Position[][]): number {
  let area = 0
  rings.forEach((ring, i) => (area += i === 0 ? ringArea(ring) : -ringArea(ring)))
  return Math.max(0, area)
}

/** Area in m² on the ellipsoid (like PostGIS `ST_Area(geography)`): outer rings minus holes; 0 for points and lines. */
export function geodesicArea(geometry: Geometry | null): number {
  if (!geometry) return 0
  switch (geometry.type) {
    case 'Polygon':
      return polygonArea(geometry.coordinates)
    case 'MultiPolygon':
      return geometry.coordinates.reduce((sum, p) => sum + polygonArea(p), 0)
    case 'GeometryCollection':
      return geometry.geometries.reduce((sum, g) => sum + geodesicArea(g), 0)
    default:
      return 0
  }
}

function lineLength(line: Position[]): number {
  let length = 0
  for (let i = 1; i < line.length; i++) {
    length += geodesicDistance(line[i - 1]![0]!, line[i - 1]![1]!, line[i]![0]!, line[i]![1]!)
  }
  return length
}

/** Length in metres along geodesics (like PostGIS `ST_Length(geography)`): lines only; 0 for points and polygons. */
export function geodesicLength(geometry: Geometry | null): number {
  if (!geometry) return 0
  switch (geometry.type) {
    case 'LineString':
      return lineLength(geometry.coordinates)
    case 'MultiLineString':
      return geometry.coordinates.reduce((sum, l) => sum + lineLength(l), 0)
    case 'GeometryCollection':
      return geometry.geometries.reduce((sum, g) => sum + geodesicLength(g), 0)
    default:
      return 0
  }
}
