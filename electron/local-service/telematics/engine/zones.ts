import type { Polygon } from 'geojson'
import { Rng } from './random'

/** Names of the sample geofences: kinds of places a fleet goes, not real places. */
export const ZONE_NAMES = [
  'Depot',
  'City centre',
  'Harbour',
  'Industrial park',
  'Hospital',
  'Retail park',
] as const

/**
 * Sample geofences around points of the fleet's road network (so its vehicles pass through them): circles of
 * 500–1,200 m, `geofenceId` 1, 2, … and a name. A model for trying the geofence alarms, labelled as such.
 */
export async function sampleZones(
  centres: ReadonlyArray<readonly [number, number]>,
  seed: number,
): Promise<Array<{ geometry: Polygon; properties: Record<string, unknown> }>> {
  // turf loads only when zones are made, not with the service.
  const { circle } = await import('@turf/turf')
  const rng = new Rng(seed)
  return centres.slice(0, ZONE_NAMES.length).map(([lon, lat], i) => ({
    geometry: circle([lon, lat], Math.round(rng.between(500, 1200)) / 1000, {
      steps: 24,
      units: 'kilometers',
    }).geometry as Polygon,
    properties: {
      geofenceId: i + 1,
      name: ZONE_NAMES[i]!,
      note: 'sample geofence (a model, not a real place)',
    },
  }))
}
