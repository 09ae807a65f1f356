import type { Geometry } from 'geojson'
import { parseHexWkb } from './wkb'
import { parseWkt } from './wkt'

/** How a geometry was written in a result value. */
export type GeometryEncoding = 'wkt' | 'geojson' | 'wkb'

const GEOJSON_TYPES = new Set([
  'Point',
  'LineString',
  'Polygon',
  'MultiPoint',
  'MultiLineString',
  'MultiPolygon',
  'GeometryCollection',
])

function isPositionTree(value: unknown, depth: number): boolean {
  if (!Array.isArray(value)) return false
  if (depth === 0) return value.length >= 2 && value.every((n) => typeof n === 'number' && Number.isFinite(n))
  return value.every((v) => isPositionTree(v, depth - 1))
}

const DEPTH: Record<string, number> = {
  Point: 0,
  LineString: 1,
  MultiPoint: 1,
  Polygon: 2,
  MultiLineString: 2,
  MultiPolygon: 3,
}

/** A GeoJSON geometry object (or a Feature's geometry) with well-formed coordinates, else null. */
export function asGeoJsonGeometry(value: unknown): Geometry | null {
  if (typeof value !== 'object' || value === null) return null
  const o = value as Record<string, unknown>
  if (o['type'] === 'Feature') return asGeoJsonGeometry(o['geometry'])
  if (typeof o['type'] !== 'string' || !GEOJSON_TYPES.has(o['type'])) return null
  if (o['type'] === 'GeometryCollection') {
    const parts = o['geometries']
    if (!Array.isArray(parts)) return null
    const geometries = parts.map(asGeoJsonGeometry)
    return geometries.every((g) => g !== null)
      ? { type: 'GeometryCollection', geometries: geometries as Geometry[] }
      : null
  }
  const coords = o['coordinates']
  if (Array.isArray(coords) && coords.length === 0) return { type: o['type'], coordinates: [] } as Geometry
  return isPositionTree(coords, DEPTH[o['type']] ?? 0)
    ? ({ type: o['type'], coordinates: coords } as Geometry)
    : null
}

/** The geometry a result value holds — WKT/EWKT, GeoJSON text or hex WKB/EWKB — or null when it holds none. */
export function detectGeometry(value: string): { geometry: Geometry; encoding: GeometryEncoding } | null {
  const text = value.trim()
  if (text.length < 5) return null
  const first = text[0]!
  if (first === '{') {
    try {
      const g = asGeoJsonGeometry(JSON.parse(text))
      return g ? { geometry: g, encoding: 'geojson' } : null
    } catch {
      return null
    }
  }
  if (first === '0' && /^0[01][0-9A-Fa-f]+$/.test(text)) {
    const g = parseHexWkb(text)
    return g ? { geometry: g, encoding: 'wkb' } : null
  }
  if (/^[A-Za-z]/.test(text)) {
    const g = parseWkt(text)
    return g ? { geometry: g, encoding: 'wkt' } : null
  }
  return null
}

/**
 * The key of the first column whose non-empty values are all geometries (sampling at most `sample`
 * rows), or null when no column holds geometry.
 */
export function findGeometryKey(
  /** The non-empty and empty values of a column, in row order (read lazily: only a sample is needed). */
  valuesOf: (key: string) => Iterable<string>,
  keys: readonly string[],
  sample = 50,
): string | null {
  for (const key of keys) {
    let seen = 0
    let ok = true
    for (const v of valuesOf(key)) {
      if (v.trim() === '') continue
      if (!detectGeometry(v)) {
        ok = false
        break
      }
      if (++seen >= sample) break
    }
    if (ok && seen > 0) return key
  }
  return null
}
