import { ref, type Ref } from 'vue'
import type { DeviceRow } from './fleet-rows'

/**
 * Trails of the last `trailMinutes` per device: each poll's position recorded (a device that did not move
 * only has its time updated), older points dropped. Plain arrays, read by the map layer.
 */
export function useTrails(serverTime: Ref<number | null>) {
  const trailMinutes = ref(10)
  /** Per device, [lon, lat, time, …] of the last minutes (plain arrays, read by the map layer). */
  const trails = new Map<number, number[]>()

  function recordTrail(row: DeviceRow, now: number): void {
    if (row.lon === null || row.lat === null) return
    const points = trails.get(row.id) ?? []
    const n = points.length
    if (n >= 3 && points[n - 3] === row.lon && points[n - 2] === row.lat) points[n - 1] = row.time
    else points.push(row.lon, row.lat, row.time)
    const oldest = now - trailMinutes.value * 60
    let drop = 0
    while (drop + 5 < points.length && points[drop + 2]! < oldest) drop += 3
    if (drop > 0) points.splice(0, drop)
    trails.set(row.id, points)
  }

  /** Lon/lat points of a device's trail within the last `trailMinutes` (oldest first). */
  function trailOf(id: number): Array<[number, number]> {
    const points = trails.get(id) ?? []
    const oldest = (serverTime.value ?? Date.now() / 1000) - trailMinutes.value * 60
    const out: Array<[number, number]> = []
    for (let i = 0; i + 2 < points.length; i += 3)
      if (points[i + 2]! >= oldest) out.push([points[i]!, points[i + 1]!])
    return out
  }

  /** Forget the trails of devices no longer in the fleet. */
  function keepOnly(ids: { has(id: number): boolean }): void {
    for (const id of trails.keys()) if (!ids.has(id)) trails.delete(id)
  }

  return { trailMinutes, recordTrail, trailOf, keepOnly }
}
