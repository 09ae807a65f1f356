import type { Geometry } from 'geojson'
import { selfIntersections } from '../../shared/validity'
import { geoJsonIssues } from '@contract/gis/geojson'

/**
 * What stops a shape from being sent, in words naming the shape: RFC 7946 issues (shared contract
 * check) and self-intersecting polygons. Empty when the shape can be sent.
 */
export function shapeProblems(name: string, geometry: Geometry | null): string[] {
  if (!geometry) return [`${name} has no geometry`]
  const issues = geoJsonIssues(
    { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry }] },
    'shape',
  )
  if (issues.length > 0) {
    return issues.map((i) => `${name}: ${i.field.replace(/^shape\.features\.0\./, '')} ${i.rule}`)
  }
  if (geometry.type === 'Polygon' || geometry.type === 'MultiPolygon') {
    const crossings = selfIntersections(geometry).length
    if (crossings > 0) {
      return [
        `${name} crosses itself (${crossings} ${crossings === 1 ? 'crossing' : 'crossings'}): move a vertex so its edges do not cross`,
      ]
    }
  }
  return []
}
