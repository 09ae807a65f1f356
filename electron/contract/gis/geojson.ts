import { issue, type RequestIssue } from '../common/issues'

/** RFC 7946 geometry types the join accepts as a user geometry. */
export const GEOMETRY_TYPES = [
  'Point',
  'MultiPoint',
  'LineString',
  'MultiLineString',
  'Polygon',
  'MultiPolygon',
  'GeometryCollection',
] as const

export type GeometryType = (typeof GEOMETRY_TYPES)[number]

/** Bounds that keep a hostile body from costing unbounded work. */
export const GEOJSON_LIMITS = { maxIssues: 20, maxCollectionDepth: 4 } as const

export type Position = [number, number] | [number, number, number]

export interface FeatureCollection {
  type: 'FeatureCollection'
  features: Array<{
    type: 'Feature'
    properties: Record<string, unknown> | null
    geometry: { type: GeometryType; coordinates?: unknown; geometries?: unknown[] }
    id?: string | number
  }>
  [member: string]: unknown
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

class Collector {
  readonly issues: RequestIssue[] = []
  constructor(
    private readonly maxIssues: number = GEOJSON_LIMITS.maxIssues,
    /** False to check positions as numbers only (before a projected file is reprojected to longitude/latitude). */
    readonly ranges = true,
  ) {}
  add(field: string, rule: string): void {
    if (this.issues.length < this.maxIssues) this.issues.push(issue(field, 'invalid', rule))
  }
  get full(): boolean {
    return this.issues.length >= this.maxIssues
  }
}

function checkPosition(value: unknown, at: string, c: Collector): boolean {
  if (!Array.isArray(value) || value.length < 2 || value.length > 3) {
    c.add(at, 'a position is an array of 2 or 3 numbers [longitude, latitude(, altitude)]')
    return false
  }
  if (!value.every((n) => typeof n === 'number' && Number.isFinite(n))) {
    c.add(at, 'a position holds finite numbers only')
    return false
  }
  if (!c.ranges) return true
  const [lon, lat] = value as number[]
  if ((lon as number) < -180 || (lon as number) > 180) {
    c.add(at, `longitude ${lon} is outside -180..180`)
    return false
  }
  if ((lat as number) < -90 || (lat as number) > 90) {
    c.add(at, `latitude ${lat} is outside -90..90`)
    return false
  }
  return true
}

function checkPositions(
  value: unknown,
  at: string,
  c: Collector,
  min: number,
  what: string,
): value is unknown[] {
  if (!Array.isArray(value)) {
    c.add(at, `${what} is an array of positions`)
    return false
  }
  if (value.length < min) {
    c.add(at, `${what} needs at least ${min} positions`)
    return false
  }
  let good = true
  value.forEach((p, i) => {
    if (!c.full && !checkPosition(p, `${at}.${i}`, c)) good = false
  })
  return good
}

function checkRing(value: unknown, at: string, c: Collector): void {
  if (!checkPositions(value, at, c, 4, 'a polygon ring')) return
  const first = value[0] as number[]
  const last = value[value.length - 1] as number[]
  if (first.length !== last.length || first.some((n, i) => n !== last[i])) {
    c.add(at, 'a polygon ring must be closed: its last position equals its first')
  }
}

function checkPolygon(value: unknown, at: string, c: Collector): void {
  if (!Array.isArray(value) || value.length === 0) {
    c.add(at, 'a polygon is a non-empty array of linear rings')
    return
  }
  value.forEach((ring, i) => checkRing(ring, `${at}.${i}`, c))
}

function checkMulti(
  value: unknown,
  at: string,
  c: Collector,
  what: string,
  each: (v: unknown, at: string) => void,
) {
  if (!Array.isArray(value)) {
    c.add(at, `${what} is an array`)
    return
  }
  value.forEach((v, i) => {
    if (!c.full) each(v, `${at}.${i}`)
  })
}

function checkGeometry(value: unknown, at: string, c: Collector, depth = 0): void {
  if (!isObject(value)) {
    c.add(at, 'a geometry object is required')
    return
  }
  const type = value.type
  if (typeof type !== 'string' || !(GEOMETRY_TYPES as readonly string[]).includes(type)) {
    c.add(`${at}.type`, `must be one of ${GEOMETRY_TYPES.join(', ')}`)
    return
  }
  const coords = value.coordinates
  const cat = `${at}.coordinates`
  switch (type as GeometryType) {
    case 'Point':
      checkPosition(coords, cat, c)
      return
    case 'MultiPoint':
      checkPositions(coords, cat, c, 0, 'a MultiPoint')
      return
    case 'LineString':
      checkPositions(coords, cat, c, 2, 'a LineString')
      return
    case 'MultiLineString':
      checkMulti(coords, cat, c, 'a MultiLineString', (v, a) => checkPositions(v, a, c, 2, 'a LineString'))
      return
    case 'Polygon':
      checkPolygon(coords, cat, c)
      return
    case 'MultiPolygon':
      checkMulti(coords, cat, c, 'a MultiPolygon', (v, a) => checkPolygon(v, a, c))
      return
    case 'GeometryCollection': {
      if (depth >= GEOJSON_LIMITS.maxCollectionDepth) {
        c.add(at, `geometry collections nest at most ${GEOJSON_LIMITS.maxCollectionDepth} deep`)
        return
      }
      const geometries = value.geometries
      if (!Array.isArray(geometries)) {
        c.add(`${at}.geometries`, 'a GeometryCollection has an array of geometries')
        return
      }
      geometries.forEach((g, i) => {
        if (!c.full) checkGeometry(g, `${at}.geometries.${i}`, c, depth + 1)
      })
    }
  }
}

/**
 * Check one RFC 7946 geometry object (type known and spelled as the RFC spells it, coordinates nested as
 * the type requires, positions of 2 or 3 finite numbers, closed rings of at least four positions, and —
 * unless `ranges` is false — longitude/latitude in range). The first `maxIssues` issues, fields under `at`.
 */
export function geometryIssues(
  value: unknown,
  at: string,
  options: { ranges?: boolean; maxIssues?: number } = {},
): RequestIssue[] {
  const c = new Collector(options.maxIssues, options.ranges ?? true)
  checkGeometry(value, at, c)
  return c.issues
}

/**
 * Check a GeoJSON FeatureCollection (RFC 7946) for use as a join's user geometry: at least one
 * feature, each with a geometry of a known type, finite coordinates in longitude/latitude range, closed
 * polygon rings of at least four positions. Data in, issues out: used by the client, the local service
 * and the join form alike. Fields are paths under `prefix`, e.g. `body.features.0.geometry.coordinates`.
 */
export function geoJsonIssues(value: unknown, prefix = 'body'): RequestIssue[] {
  const c = new Collector()
  if (!isObject(value)) {
    c.add(prefix, 'must be a GeoJSON object')
    return c.issues
  }
  if (value.type !== 'FeatureCollection') {
    c.add(`${prefix}.type`, 'must be "FeatureCollection"')
    return c.issues
  }
  const features = value.features
  if (!Array.isArray(features)) {
    c.add(`${prefix}.features`, 'must be an array of features')
    return c.issues
  }
  if (features.length === 0) {
    c.add(`${prefix}.features`, 'needs at least one feature to filter with')
    return c.issues
  }
  features.forEach((f, i) => {
    if (c.full) return
    const at = `${prefix}.features.${i}`
    if (!isObject(f)) {
      c.add(at, 'a feature is an object')
      return
    }
    if (f.type !== 'Feature') c.add(`${at}.type`, 'must be "Feature"')
    if (f.properties !== undefined && f.properties !== null && !isObject(f.properties)) {
      c.add(`${at}.properties`, 'must be an object or null')
    }
    checkGeometry(f.geometry, `${at}.geometry`, c)
  })
  return c.issues
}

export function isFeatureCollection(value: unknown): value is FeatureCollection {
  return geoJsonIssues(value).length === 0
}

export const EMPTY_FEATURE_COLLECTION: FeatureCollection = { type: 'FeatureCollection', features: [] }
