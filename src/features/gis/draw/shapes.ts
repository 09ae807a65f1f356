import type { Feature, Geometry, Position } from 'geojson'
import { rewindGeometry } from '../../../../shared/geojson'
import { formatLength, formatMeasure } from '../../../geo/measure'

/** How a shape was made; decides its name ("Polygon 1") and how edits keep its properties. */
export type ShapeKind = 'polygon' | 'rectangle' | 'circle' | 'freehand' | 'point' | 'line' | 'imported'
export type DrawTool = Exclude<ShapeKind, 'imported'>
export type DrawMode = 'none' | 'select' | DrawTool

export interface ShapeProperties {
  name: string
  shape: ShapeKind
  /** Circles only: centre (lon, lat), radius and vertex count, kept for labels and edits. */
  center?: Position
  radiusMetres?: number
  vertices?: number
  [member: string]: unknown
}

/** A drawn shape: a GeoJSON Feature in WGS84 longitude/latitude (RFC 7946) with a string id. */
export interface DrawnShape extends Feature<Geometry, ShapeProperties> {
  id: string
}

export const KIND_LABEL: Record<ShapeKind, string> = {
  polygon: 'Polygon',
  rectangle: 'Rectangle',
  circle: 'Circle',
  freehand: 'Freehand',
  point: 'Point',
  line: 'Line',
  imported: 'Imported',
}

let idCounter = 0
export function newId(): string {
  idCounter += 1
  return `shape-${Date.now().toString(36)}-${idCounter.toString(36)}-${Math.random().toString(36).slice(2, 8)}`
}

/** Polygons wound as RFC 7946 asks (exterior counter-clockwise, holes clockwise). */
export function normalise(geometry: Geometry): Geometry {
  if (geometry.type === 'Polygon' || geometry.type === 'MultiPolygon') return rewindGeometry(geometry)
  return geometry
}

export function nextName(shapes: readonly DrawnShape[], label: string): string {
  const pattern = new RegExp(`^${label} (\\d+)$`)
  const highest = shapes.reduce((max, s) => {
    const match = pattern.exec(s.properties.name)
    return match ? Math.max(max, Number(match[1])) : max
  }, 0)
  return `${label} ${highest + 1}`
}

/** A new shape of a kind, its polygons wound as RFC 7946 asks. */
export function makeShape(
  kind: ShapeKind,
  geometry: Geometry,
  name: string,
  extra: Partial<ShapeProperties> = {},
) {
  return {
    type: 'Feature',
    id: newId(),
    properties: { ...extra, name, shape: kind },
    geometry: normalise(geometry),
  } satisfies DrawnShape
}

/** "Polygon 1 · 1,234.5 km²", "Circle 2 · r 5.00 km · 78.54 km²", "Point 3". */
export function labelOf(shape: DrawnShape): string {
  const parts = [shape.properties.name]
  const { radiusMetres } = shape.properties
  if (shape.properties.shape === 'circle' && typeof radiusMetres === 'number') {
    parts.push(`r ${formatLength(radiusMetres)}`)
  }
  const measure = shape.geometry ? formatMeasure(shape.geometry) : null
  if (measure) parts.push(measure)
  return parts.join(' · ')
}

/** Stored features as shapes: kinds and names checked, ids kept unless taken. */
export function fromStored(
  features: ReadonlyArray<{
    id?: string | number
    properties: Record<string, unknown> | null
    geometry: unknown
  }>,
  taken: ReadonlySet<string>,
): DrawnShape[] {
  const out: DrawnShape[] = []
  for (const f of features) {
    if (!f.geometry) continue
    const props = (f.properties ?? {}) as Partial<ShapeProperties>
    const kind = (props.shape && props.shape in KIND_LABEL ? props.shape : 'imported') as ShapeKind
    const id = typeof f.id === 'string' && !taken.has(f.id) ? f.id : newId()
    const name = typeof props.name === 'string' && props.name ? props.name : nextName(out, KIND_LABEL[kind])
    out.push({
      type: 'Feature',
      id,
      properties: { ...props, name, shape: kind },
      geometry: f.geometry as Geometry,
    })
  }
  return out
}
