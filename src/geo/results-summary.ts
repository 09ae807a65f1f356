import type { Geometry, Position } from 'geojson'
import { geodesicArea, geodesicLength } from '../../shared/geodesy'
import type { LonLatBox } from './extent'

/** Measures of a set of result geometries on the WGS84 ellipsoid (shared geodesy): extent, area, length. */

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
      const a = geodesicArea(g)
      if (/Polygon/.test(g.type) || a > 0) area = (area ?? 0) + a
    }
    if (/LineString/.test(g.type) || g.type === 'GeometryCollection') {
      const l = geodesicLength(g)
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
