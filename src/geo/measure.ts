import type { Geometry } from 'geojson'
import { geodesicArea, geodesicLength } from '../../shared/geodesy'

/**
 * Labels of measured shapes. Area and length are the shared ellipsoidal measures (`shared/geodesy.ts`,
 * GeographicLib on WGS84), the same the local service compares in a join's Area/Length: a drawn shape labelled
 * "5,000.0 km²" is the one a functionBased Area query with 5,000 km² sees.
 */
const grouped = (value: number, decimals: number): string =>
  value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })

/** "950 m²", "0.25 km²", "1,234.5 km²": m² below 0.1 km², km² above. */
export function formatArea(squareMetres: number): string {
  if (squareMetres < 100_000) return `${grouped(Math.round(squareMetres), 0)} m²`
  const km2 = squareMetres / 1_000_000
  return `${grouped(km2, km2 < 10 ? 2 : 1)} km²`
}

/** "850 m", "12.35 km", "1,234.5 km": metres below 1 km, kilometres above. */
export function formatLength(metres: number): string {
  if (metres < 1000) return `${grouped(Math.round(metres), 0)} m`
  const km = metres / 1000
  return `${grouped(km, km < 100 ? 2 : 1)} km`
}

/** The label's measurement of a geometry: area for polygons, length for lines, nothing for points. */
export function formatMeasure(geometry: Geometry): string | null {
  switch (geometry.type) {
    case 'Polygon':
    case 'MultiPolygon':
      return formatArea(geodesicArea(geometry))
    case 'LineString':
    case 'MultiLineString':
      return formatLength(geodesicLength(geometry))
    case 'GeometryCollection': {
      const a = geodesicArea(geometry)
      if (a > 0) return formatArea(a)
      const l = geodesicLength(geometry)
      return l > 0 ? formatLength(l) : null
    }
    default:
      return null
  }
}
