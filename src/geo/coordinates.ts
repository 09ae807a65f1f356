/** Pure coordinate helpers for the renderer (no Vue, no OpenLayers). */

export type LonLat = readonly [lon: number, lat: number]

/** Longitude wrapped into [-180, 180] so a cursor over a repeated world still reads sensibly. */
export function wrapLongitude(lon: number): number {
  if (lon >= -180 && lon <= 180) return lon
  const wrapped = ((((lon + 180) % 360) + 360) % 360) - 180
  return Object.is(wrapped, -0) ? 0 : wrapped
}

/** "lon 77.20900, lat 28.61390": signed decimal degrees, longitude first, fixed decimals. */
export function formatLonLat(coordinate: LonLat, decimals = 5): string {
  const [lon, lat] = coordinate
  return `lon ${wrapLongitude(lon).toFixed(decimals)}, lat ${lat.toFixed(decimals)}`
}
