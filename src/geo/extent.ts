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
