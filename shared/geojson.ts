import type { Feature, FeatureCollection, Geometry, GeoJsonProperties, Position } from 'geojson'

/**
 * GeoJSON as RFC 7946 wants it on output, written once for the renderer's exports and the local service's:
 * WGS84 longitude/latitude (as every layer keeps it), polygon rings by the right-hand rule — exterior rings
 * counter-clockwise, holes clockwise (§3.1.6).
 */

/** Signed area (shoelace, lon/lat plane): positive when the ring runs counter-clockwise. */
export function ringSignedArea(ring: ReadonlyArray<readonly number[]>): number {
  let sum = 0
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += (ring[j]![0]! - ring[i]![0]!) * (ring[j]![1]! + ring[i]![1]!)
  }
  return sum / 2
}

function rewindRings(rings: Position[][]): Position[][] {
  return rings.map((ring, i) => {
    const area = ringSignedArea(ring)
    const wrong = i === 0 ? area < 0 : area > 0
    return wrong ? [...ring].reverse() : ring
  })
}

/** The geometry with its rings by the right-hand rule; a new object (the input is not changed). */
export function rewindGeometry<G extends Geometry | null>(geometry: G): G {
  if (!geometry) return geometry
  const g = geometry as Geometry
  switch (g.type) {
    case 'Polygon':
      return { ...g, coordinates: rewindRings(g.coordinates) } as G
    case 'MultiPolygon':
      return { ...g, coordinates: g.coordinates.map(rewindRings) } as G
    case 'GeometryCollection':
      return { ...g, geometries: g.geometries.map((x) => rewindGeometry(x)) } as G
    default:
      return geometry
  }
}

/** A feature as RFC 7946 writes it: geometry rewound, properties as given (`{}` for none), id when given. */
export function rfc7946Feature(
  geometry: Geometry | null,
  properties: GeoJsonProperties,
  id?: string | number,
): Feature<Geometry | null> {
  return {
    type: 'Feature',
    ...(id !== undefined ? { id } : {}),
    geometry: rewindGeometry(geometry),
    properties: properties ?? {},
  }
}

/** The text of one feature (for writers that stream a collection in parts). */
export function featureText(
  geometry: Geometry | null,
  properties: GeoJsonProperties,
  id?: string | number,
): string {
  return JSON.stringify(rfc7946Feature(geometry, properties, id))
}

/** The opening of a FeatureCollection's text, up to the first feature; `name` is kept as a foreign member. */
export function collectionHead(name?: string): string {
  return `{"type":"FeatureCollection",${name !== undefined ? `"name":${JSON.stringify(name)},` : ''}"features":[`
}

/** The end of a FeatureCollection's text, after the last feature. */
export const COLLECTION_TAIL = ']}\n'

/** A whole FeatureCollection as RFC 7946 text. */
export function featureCollectionText(
  features: Iterable<{ geometry: Geometry | null; properties: GeoJsonProperties; id?: string | number }>,
  options: { name?: string } = {},
): string {
  const parts: string[] = []
  for (const f of features) parts.push(featureText(f.geometry, f.properties, f.id))
  return collectionHead(options.name) + parts.join(',') + COLLECTION_TAIL
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
