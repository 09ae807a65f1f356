import { area, length } from '@turf/turf'
import type { Feature, Geometry } from 'geojson'

/**
 * Measurements of drawn shapes. Area and length come from turf, which works on a sphere of radius
 * 6,371,008.8 m (the mean Earth radius), not on the WGS84 ellipsoid: a 1°×1° cell at the equator is
 * ≈ 12,364 km² here against ≈ 12,308 km² on the ellipsoid (+0.45 %). Good enough for labels; the local
 * service's exact Area/Length comparisons use the ellipsoid.
 */
export const MEASURE_MODEL = 'spherical (turf, R = 6,371,008.8 m)'

/** Area in m² of the polygons in a geometry (holes subtracted); 0 for points and lines. */
export function geodesicArea(geometry: Geometry): number {
  return area(geometry)
}

/** Length in metres of the lines in a geometry (polygons' rings not counted); 0 for points and polygons. */
export function geodesicLength(geometry: Geometry): number {
  if (geometry.type === 'LineString' || geometry.type === 'MultiLineString') {
    const feature: Feature = { type: 'Feature', properties: {}, geometry }
    return length(feature as Feature<typeof geometry>, { units: 'kilometers' }) * 1000
  }
  if (geometry.type === 'GeometryCollection') {
    return geometry.geometries.reduce((sum, g) => sum + geodesicLength(g), 0)
  }
  return 0
}

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
