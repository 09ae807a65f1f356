import { centroid, circle, distance } from '@turf/turf'
import type { Polygon, Position } from 'geojson'

/** Vertices of a drawn circle sent as a polygon (stated in the UI: "Circle (64 vertices)"). */
export const CIRCLE_VERTICES = 64

/**
 * A circle of `radiusMetres` around `center` (lon, lat) as a closed polygon of `vertices` distinct
 * vertices (the ring holds vertices + 1 positions), counter-clockwise as RFC 7946 asks.
 */
export function circlePolygon(center: Position, radiusMetres: number, vertices = CIRCLE_VERTICES): Polygon {
  if (!(radiusMetres > 0)) throw new Error(`a circle's radius must be > 0 m, got ${radiusMetres}`)
  if (!Number.isInteger(vertices) || vertices < 3)
    throw new Error(`a circle needs ≥ 3 vertices, got ${vertices}`)
  const polygon = circle(center, radiusMetres / 1000, { steps: vertices, units: 'kilometers' }).geometry
  return { type: 'Polygon', coordinates: polygon.coordinates }
}

/** Centre and radius (mean distance to the vertices, metres) of a polygon drawn as a circle, after an edit. */
export function circleOf(polygon: Polygon): { center: Position; radiusMetres: number } {
  const ring = polygon.coordinates[0] ?? []
  const vertices = ring.slice(0, -1)
  const center = centroid({ type: 'MultiPoint', coordinates: vertices }).geometry.coordinates
  const total = vertices.reduce((sum, v) => sum + distance(center, v, { units: 'kilometers' }) * 1000, 0)
  return { center, radiusMetres: vertices.length > 0 ? total / vertices.length : 0 }
}
