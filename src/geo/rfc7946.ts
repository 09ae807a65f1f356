import { rewind } from '@turf/turf'
import type { Feature, FeatureCollection, Geometry, GeoJsonProperties } from 'geojson'

/**
 * GeoJSON as RFC 7946 wants it on output: WGS84 longitude/latitude, polygon rings by the right-hand
 * rule (outer rings counter-clockwise, holes clockwise) — turf's `rewind`.
 */
export function rewindGeometry<G extends Geometry | null>(geometry: G): G {
  if (!geometry) return geometry
  return rewind(structuredClone(geometry) as Geometry, { reverse: false }) as G
}

/** Signed area (shoelace, lon/lat plane): positive when the ring runs counter-clockwise. */
export function ringSignedArea(ring: ReadonlyArray<readonly number[]>): number {
  let sum = 0
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += (ring[j]![0]! - ring[i]![0]!) * (ring[j]![1]! + ring[i]![1]!)
  }
  return sum / 2
}

/** A feature with its geometry rewound, properties copied. */
export function rfc7946Feature(
  geometry: Geometry | null,
  properties: GeoJsonProperties,
): Feature<Geometry | null> {
  return { type: 'Feature', geometry: rewindGeometry(geometry), properties }
}

/** Whether every position is a WGS84 lon/lat and every polygon ring follows the right-hand rule. */
export function rfc7946Problems(collection: FeatureCollection<Geometry | null>): string[] {
  const problems: string[] = []
  const checkPos = (p: readonly number[], where: string) => {
    const [lon, lat] = p
    if (!(Math.abs(lon ?? NaN) <= 180 && Math.abs(lat ?? NaN) <= 90)) problems.push(`${where}: not lon/lat`)
  }
  const checkPolygon = (rings: number[][][], where: string) =>
    rings.forEach((ring, i) => {
      ring.forEach((p) => checkPos(p, where))
      const ccw = ringSignedArea(ring) > 0
      if (i === 0 && !ccw) problems.push(`${where}: outer ring is clockwise`)
      if (i > 0 && ccw) problems.push(`${where}: hole ${i} is counter-clockwise`)
    })
  const check = (g: Geometry | null, where: string): void => {
    if (!g) return
    switch (g.type) {
      case 'Point':
        if (g.coordinates.length) checkPos(g.coordinates, where)
        break
      case 'LineString':
      case 'MultiPoint':
        g.coordinates.forEach((p) => checkPos(p, where))
        break
      case 'MultiLineString':
        g.coordinates.flat().forEach((p) => checkPos(p, where))
        break
      case 'Polygon':
        checkPolygon(g.coordinates, where)
        break
      case 'MultiPolygon':
        g.coordinates.forEach((p, i) => checkPolygon(p, `${where}.${i}`))
        break
      case 'GeometryCollection':
        g.geometries.forEach((x, i) => check(x, `${where}.${i}`))
    }
  }
  collection.features.forEach((f, i) => check(f.geometry, `features.${i}`))
  return problems
}
