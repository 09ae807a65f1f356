import type { Geometry } from 'geojson'

/** One feature of a dataset: a WGS84 geometry (null when it has none) and its properties. */
export interface DatasetFeature {
  geometry: Geometry | null
  properties: Record<string, unknown>
}

export const FIELD_TYPES = ['string', 'number', 'boolean', 'json'] as const
export type FieldType = (typeof FIELD_TYPES)[number]

export interface FieldInfo {
  name: string
  type: FieldType
}

/** The column every dataset exposes its geometry under (what `sourceProperty` names in a spatial join). */
export const GEOMETRY_COLUMN = 'geom'

/** Names that also select the geometry column, for clients that call it otherwise. */
export const GEOMETRY_COLUMN_ALIASES = ['geom', 'geometry', 'the_geom', 'wkb_geometry', 'shape']

export function isGeometryColumn(name: string): boolean {
  return GEOMETRY_COLUMN_ALIASES.includes(name.toLowerCase())
}

function typeOf(value: unknown): FieldType | undefined {
  if (value === null || value === undefined) return undefined
  if (typeof value === 'number') return 'number'
  if (typeof value === 'boolean') return 'boolean'
  if (typeof value === 'string') return 'string'
  if (typeof value === 'bigint') return 'number'
  return 'json'
}

/**
 * The fields of a feature list, in first-seen order, each with one type: a field whose non-null values
 * are all numbers is a number, all booleans a boolean, objects json, anything mixed a string.
 */
export function inferFields(features: readonly DatasetFeature[]): FieldInfo[] {
  const types = new Map<string, FieldType | undefined>()
  const mixed = new Set<string>()
  for (const f of features) {
    for (const [name, value] of Object.entries(f.properties)) {
      if (isGeometryColumn(name)) continue
      const t = typeOf(value)
      if (!types.has(name)) types.set(name, t)
      else if (t !== undefined) {
        const known = types.get(name)
        if (known === undefined) types.set(name, t)
        else if (known !== t) mixed.add(name)
      }
    }
  }
  return [...types].map(([name, t]) => ({ name, type: mixed.has(name) ? 'string' : (t ?? 'string') }))
}

/** A value made to fit its field's type (mixed fields become text, so nothing is lost). */
export function coerce(value: unknown, type: FieldType): unknown {
  if (value === null || value === undefined) return null
  switch (type) {
    case 'number':
      return typeof value === 'bigint' ? Number(value) : value
    case 'boolean':
      return value
    case 'json':
      return value
    case 'string':
      return typeof value === 'string'
        ? value
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value)
  }
}

export type BBox = [number, number, number, number]

/** Planar lon/lat box of a geometry; undefined when it has no coordinates. */
export function geometryBBox(geometry: Geometry | null): BBox | undefined {
  if (!geometry) return undefined
  let minX = Infinity
  let minY = Infinity
  let maxX = -Infinity
  let maxY = -Infinity
  const visit = (c: unknown): void => {
    if (!Array.isArray(c)) return
    if (typeof c[0] === 'number') {
      const x = c[0] as number
      const y = c[1] as number
      if (x < minX) minX = x
      if (x > maxX) maxX = x
      if (y < minY) minY = y
      if (y > maxY) maxY = y
      return
    }
    for (const child of c) visit(child)
  }
  const walk = (g: Geometry) => {
    if (g.type === 'GeometryCollection') g.geometries.forEach(walk)
    else visit(g.coordinates)
  }
  walk(geometry)
  return minX === Infinity ? undefined : [minX, minY, maxX, maxY]
}

/** The geometry type of a dataset as the layer list names it (e.g. POLYGON), GEOMETRY when mixed. */
export function datasetGeometryType(features: readonly DatasetFeature[]): string {
  let found: string | undefined
  for (const f of features) {
    if (!f.geometry) continue
    const t = f.geometry.type.toUpperCase()
    if (found === undefined) found = t
    else if (found !== t) {
      const base = (s: string) => s.replace(/^MULTI/, '')
      if (base(found) === base(t)) found = `MULTI${base(t)}`
      else return 'GEOMETRY'
    }
  }
  return found ?? 'GEOMETRY'
}

/** Every coordinate is finite and inside WGS84 longitude/latitude; the first offender otherwise. */
export function coordinateProblem(geometry: Geometry | null): string | undefined {
  if (!geometry) return undefined
  let problem: string | undefined
  const visit = (c: unknown): void => {
    if (problem || !Array.isArray(c)) return
    if (typeof c[0] === 'number' || c.length === 0) {
      if (c.length === 0) return
      const [x, y] = c as number[]
      if (!Number.isFinite(x) || !Number.isFinite(y))
        problem = `coordinate [${c.join(', ')}] is not a finite number`
      else if ((x as number) < -180 || (x as number) > 180 || (y as number) < -90 || (y as number) > 90) {
        problem = `coordinate [${x}, ${y}] is outside longitude -180..180 / latitude -90..90`
      }
      return
    }
    for (const child of c) visit(child)
  }
  const walk = (g: Geometry) => {
    if (!g || typeof g !== 'object') problem = 'geometry is not an object'
    else if (g.type === 'GeometryCollection') (g.geometries ?? []).forEach(walk)
    else if (!Array.isArray((g as { coordinates?: unknown }).coordinates))
      problem = `${g.type} has no coordinates array`
    else visit(g.coordinates)
  }
  walk(geometry)
  return problem
}
