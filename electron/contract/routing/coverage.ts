/**
 * Which positions a road network can place, told without loading it: the service snaps a position only
 * onto a road within `SNAP_LIMIT_M`, so nothing beyond the network's box widened by that much can be placed.
 * The local service's engine and the renderer (a position refused where it is clicked) use the same rule.
 */

/**
 * Positions farther than this from every road the profile may use are not snapped: their matrix cells
 * are null. 2 km covers a point in a park or a campus; beyond that the answer would be about another place.
 */
export const SNAP_LIMIT_M = 2000

const RAD = Math.PI / 180
const EARTH_RADIUS_M = 6_371_008.8
const M_PER_DEG = EARTH_RADIUS_M * RAD

/** Whether a position lies within a network's box ([minLon, minLat, maxLon, maxLat]) widened by `limit` metres. */
export function boxCovers(
  bbox: readonly [number, number, number, number],
  lon: number,
  lat: number,
  limit = SNAP_LIMIT_M,
): boolean {
  const [minLon, minLat, maxLon, maxLat] = bbox
  const dLat = limit / M_PER_DEG
  const dLon = dLat / Math.max(0.01, Math.cos(lat * RAD))
  return lon >= minLon - dLon && lon <= maxLon + dLon && lat >= minLat - dLat && lat <= maxLat + dLat
}
