import { bbox } from '@turf/turf'
import type { FeatureCollection } from 'geojson'

/** [minLon, minLat, maxLon, maxLat] in WGS84. */
export type LonLatBox = [number, number, number, number]

/** The bounding box of the features whose `kind` property matches, e.g. India's states in the basemap. */
export function boxOfKind(collection: FeatureCollection, kind: string): LonLatBox {
  const features = collection.features.filter((f) => f.properties?.['kind'] === kind)
  if (features.length === 0) throw new Error(`no features of kind "${kind}" in the collection`)
  const [minLon, minLat, maxLon, maxLat] = bbox({ type: 'FeatureCollection', features })
  return [minLon, minLat, maxLon, maxLat]
}

/** The bounding box of a collection, or null when it has no geometry. */
export function bboxOf(collection: FeatureCollection): LonLatBox | null {
  if (!collection.features.some((f) => f.geometry)) return null
  const [minLon, minLat, maxLon, maxLat] = bbox(collection)
  return [minLon, minLat, maxLon, maxLat]
}

/**
 * Whether two lon/lat boxes share any point. The first may be a view that runs past ±180° (a map showing
 * more than one copy of the world, or panned across the antimeridian): the copies of `b` it shows count.
 */
export function boxesIntersect(view: LonLatBox, b: LonLatBox): boolean {
  if (view[2] - view[0] >= 360) return view[1] <= b[3] && b[1] <= view[3]
  return [-360, 0, 360].some(
    (shift) => view[0] <= b[2] + shift && b[0] + shift <= view[2] && view[1] <= b[3] && b[1] <= view[3],
  )
}
