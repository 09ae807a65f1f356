import { lineIntersect } from '@turf/turf'
import type { MultiPolygon, Polygon } from 'geojson'

/**
 * Where a polygon's rings cross themselves or each other — what `@turf/kinks` reports — found with turf's
 * sweep-line segment intersection (`lineIntersect` with self-intersections kept), so imported shapes of many
 * thousand vertices stay quick (kinks compares every pair of segments). Neighbouring segments of a ring share
 * a vertex by construction; that is not a crossing.
 */
export function selfIntersections(geometry: Polygon | MultiPolygon): Array<[number, number]> {
  const found = lineIntersect(
    { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry }] },
    { type: 'FeatureCollection', features: [] },
    { ignoreSelfIntersections: false },
  )
  return found.features.map((p) => [p.geometry.coordinates[0]!, p.geometry.coordinates[1]!])
}
