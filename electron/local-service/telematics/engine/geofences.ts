import Flatbush from 'flatbush'
import type { Geometry, Position } from 'geojson'

/** One geofence: a polygon or multipolygon of the geofence layer, with its id and name. */
export interface Geofence {
  id: number
  name: string
  geometry: Geometry
  bbox: [number, number, number, number]
  /** Polygons as rings of flat lon/lat arrays (first ring the outline, the rest holes). */
  polygons: Float64Array[][]
}

/** A feature of the geofence layer as the workspace reads it. */
export interface FenceFeature {
  geometry: Geometry | null
  properties: Record<string, unknown> | null
}

function ringOf(positions: Position[]): Float64Array {
  const out = new Float64Array(positions.length * 2)
  positions.forEach((p, i) => {
    out[i * 2] = p[0]!
    out[i * 2 + 1] = p[1]!
  })
  return out
}

function polygonsOf(geometry: Geometry): Float64Array[][] {
  if (geometry.type === 'Polygon') return [geometry.coordinates.map(ringOf)]
  if (geometry.type === 'MultiPolygon') return geometry.coordinates.map((p) => p.map(ringOf))
  return []
}

/** Even-odd test of a point against one ring. */
function inRing(ring: Float64Array, x: number, y: number): boolean {
  let inside = false
  const n = ring.length / 2
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = ring[i * 2]!
    const yi = ring[i * 2 + 1]!
    const xj = ring[j * 2]!
    const yj = ring[j * 2 + 1]!
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside
  }
  return inside
}

function inPolygons(polygons: Float64Array[][], x: number, y: number): boolean {
  for (const rings of polygons) {
    if (!rings[0] || !inRing(rings[0], x, y)) continue
    let hole = false
    for (let h = 1; h < rings.length && !hole; h++) hole = inRing(rings[h]!, x, y)
    if (!hole) return true
  }
  return false
}

const integerId = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,9}$/.test(v.trim()) ? Number(v) : NaN
  return Number.isInteger(n) && n >= 0 && n <= 2 ** 31 ? n : undefined
}

/**
 * The geofences of a dataset: its polygon features. A feature's id is its `geofenceId` or `id` property when
 * every polygon feature has a distinct non-negative integer there; otherwise its position in the dataset,
 * counted from 1. Its name is its `name` property, else "Geofence <id>".
 */
export class GeofenceSet {
  readonly fences: Geofence[]
  private readonly index: Flatbush | undefined

  constructor(features: readonly FenceFeature[]) {
    const polygonal = features
      .map((f, i) => ({ f, position: i + 1 }))
      .filter(({ f }) => f.geometry?.type === 'Polygon' || f.geometry?.type === 'MultiPolygon')
    const idKey = ['geofenceId', 'id'].find((key) => {
      const ids = polygonal.map(({ f }) => integerId(f.properties?.[key]))
      return ids.every((id) => id !== undefined) && new Set(ids).size === ids.length && ids.length > 0
    })
    this.fences = polygonal.map(({ f, position }) => {
      const geometry = f.geometry!
      const id = idKey ? integerId(f.properties?.[idKey])! : position
      const polygons = polygonsOf(geometry)
      let minX = Infinity
      let minY = Infinity
      let maxX = -Infinity
      let maxY = -Infinity
      for (const rings of polygons) {
        const outer = rings[0]
        if (!outer) continue
        for (let i = 0; i < outer.length; i += 2) {
          minX = Math.min(minX, outer[i]!)
          maxX = Math.max(maxX, outer[i]!)
          minY = Math.min(minY, outer[i + 1]!)
          maxY = Math.max(maxY, outer[i + 1]!)
        }
      }
      const name = f.properties?.name
      return {
        id,
        name: typeof name === 'string' && name.trim() ? name.trim().slice(0, 120) : `Geofence ${id}`,
        geometry,
        bbox: [minX, minY, maxX, maxY] as [number, number, number, number],
        polygons,
      }
    })
    if (this.fences.length > 0) {
      const index = new Flatbush(this.fences.length)
      for (const f of this.fences) index.add(...f.bbox)
      index.finish()
      this.index = index
    }
  }

  get ids(): number[] {
    return this.fences.map((f) => f.id)
  }

  /** The ids of the fences containing a point, ascending. */
  containing(lon: number, lat: number): number[] {
    if (!this.index) return []
    const hits = this.index.search(lon, lat, lon, lat)
    if (hits.length === 0) return []
    const out: number[] = []
    for (const i of hits) {
      const fence = this.fences[i]!
      if (inPolygons(fence.polygons, lon, lat)) out.push(fence.id)
    }
    return out.sort((a, b) => a - b)
  }
}
