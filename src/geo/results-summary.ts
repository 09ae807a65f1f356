import type { Geometry, Position } from 'geojson'
import geographiclib from 'geographiclib-geodesic'
import type { LonLatBox } from './extent'

/** Measures of a set of result geometries on the WGS84 ellipsoid (GeographicLib): extent, area, length. */

const WGS84 = geographiclib.Geodesic.WGS84

function ringArea(ring: Position[]): number {
  const poly = WGS84.Polygon(false)
  const n = ring.length
  const closed = n > 1 && ring[0]![0] === ring[n - 1]![0] && ring[0]![1] === ring[n - 1]![1]
  for (let i = 0; i < (closed ? n - 1 : n); i++) poly.AddPoint(ring[i]![1]!, ring[i]![0]!)
  return Math.abs(poly.Compute(false, true).area ?? 0)
}

function polygonArea(rings: Position[][]): number {
  return Math.max(
    0,
    rings.reduce((sum, ring, i) => sum + (i === 0 ? ringArea(ring) : -ringArea(ring)), 0),
  )
}

/** Geodesic area in m² (outer rings minus holes); 0 for points and lines. */
export function geodesicAreaOf(g: Geometry | null): number {
  if (!g) return 0
  if (g.type === 'Polygon') return polygonArea(g.coordinates)
  if (g.type === 'MultiPolygon') return g.coordinates.reduce((s, p) => s + polygonArea(p), 0)
  if (g.type === 'GeometryCollection') return g.geometries.reduce((s, x) => s + geodesicAreaOf(x), 0)
  return 0
}

function lineLength(line: Position[]): number {
  let s = 0
  for (let i = 1; i < line.length; i++) {
    s += WGS84.Inverse(line[i - 1]![1]!, line[i - 1]![0]!, line[i]![1]!, line[i]![0]!).s12 ?? 0
  }
  return s
}

/** Geodesic length in metres of lines; 0 for points and polygons. */
export function geodesicLengthOf(g: Geometry | null): number {
  if (!g) return 0
  if (g.type === 'LineString') return lineLength(g.coordinates)
  if (g.type === 'MultiLineString') return g.coordinates.reduce((s, l) => s + lineLength(l), 0)
  if (g.type === 'GeometryCollection') return g.geometries.reduce((s, x) => s + geodesicLengthOf(x), 0)
  return 0
}

function eachPosition(g: Geometry, visit: (p: Position) => void): void {
  switch (g.type) {
    case 'Point':
      if (g.coordinates.length >= 2) visit(g.coordinates)
      return
    case 'LineString':
    case 'MultiPoint':
      g.coordinates.forEach(visit)
      return
    case 'Polygon':
    case 'MultiLineString':
      g.coordinates.forEach((r) => r.forEach(visit))
      return
    case 'MultiPolygon':
      g.coordinates.forEach((p) => p.forEach((r) => r.forEach(visit)))
      return
    case 'GeometryCollection':
      g.geometries.forEach((x) => eachPosition(x, visit))
  }
}

export interface ResultsSummary {
  geometryCount: number
  extent: LonLatBox | null
  /** m², when any geometry is a polygon. */
  areaM2: number | null
  /** m, when any geometry is a line. */
  lengthM: number | null
}

export function summarizeGeometries(geometries: ReadonlyArray<Geometry | null>): ResultsSummary {
  let minLon = Infinity
  let minLat = Infinity
  let maxLon = -Infinity
  let maxLat = -Infinity
  let count = 0
  let area: number | null = null
  let length: number | null = null
  for (const g of geometries) {
    if (!g) continue
    count++
    eachPosition(g, ([lon, lat]) => {
      if (lon! < minLon) minLon = lon!
      if (lon! > maxLon) maxLon = lon!
      if (lat! < minLat) minLat = lat!
      if (lat! > maxLat) maxLat = lat!
    })
    if (/Polygon/.test(g.type) || g.type === 'GeometryCollection') {
      const a = geodesicAreaOf(g)
      if (/Polygon/.test(g.type) || a > 0) area = (area ?? 0) + a
    }
    if (/LineString/.test(g.type) || g.type === 'GeometryCollection') {
      const l = geodesicLengthOf(g)
      if (/LineString/.test(g.type) || l > 0) length = (length ?? 0) + l
    }
  }
  return {
    geometryCount: count,
    extent: minLon <= maxLon ? [minLon, minLat, maxLon, maxLat] : null,
    areaM2: area,
    lengthM: length,
  }
}

/** 1,234.5 km² / 850 m² ; 12.3 km / 850 m. */
export function formatArea(m2: number): string {
  return m2 >= 1e6
    ? `${(m2 / 1e6).toLocaleString('en-US', { maximumFractionDigits: 1 })} km²`
    : `${Math.round(m2).toLocaleString('en-US')} m²`
}

export function formatLength(m: number): string {
  return m >= 1000
    ? `${(m / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} km`
    : `${Math.round(m).toLocaleString('en-US')} m`
}
