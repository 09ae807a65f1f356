import type { Polygon, Position } from 'geojson'
import type { DatasetFeature } from '../electron/local-service/workspace/features'

/** Deterministic data for the join benchmark (seeded PRNG, mulberry32). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const BOX = { minLon: 68, maxLon: 97, minLat: 8, maxLat: 37 }
const round = (n: number) => Math.round(n * 1e7) / 1e7

export function points(count: number, random: () => number): DatasetFeature[] {
  return Array.from({ length: count }, (_, id) => ({
    geometry: {
      type: 'Point',
      coordinates: [
        round(BOX.minLon + random() * (BOX.maxLon - BOX.minLon)),
        round(BOX.minLat + random() * (BOX.maxLat - BOX.minLat)),
      ],
    },
    properties: { id },
  }))
}

/** Small star-convex polygons of 6–12 vertices (vertices at sorted angles, so always simple). */
export function smallPolygons(count: number, random: () => number): DatasetFeature[] {
  return Array.from({ length: count }, (_, id) => {
    const cx = BOX.minLon + 0.2 + random() * (BOX.maxLon - BOX.minLon - 0.4)
    const cy = BOX.minLat + 0.2 + random() * (BOX.maxLat - BOX.minLat - 0.4)
    const n = 6 + Math.floor(random() * 7)
    const radius = 0.02 + random() * 0.08
    const ring: Position[] = []
    for (let i = 0; i < n; i++) {
      const angle = ((i + 0.2 + random() * 0.6) / n) * 2 * Math.PI
      const r = radius * (0.6 + random() * 0.4)
      ring.push([round(cx + r * Math.cos(angle)), round(cy + r * Math.sin(angle))])
    }
    ring.push(ring[0]!)
    return { geometry: { type: 'Polygon', coordinates: [ring] } satisfies Polygon, properties: { id } }
  })
}

/**
 * 700 district-like polygons tiling the box: a 28 × 25 grid whose lines are bent by one smooth displacement
 * field (zero on the outer edge), each side densified to 50 segments, so neighbours share their edges
 * exactly and each district has 200 vertices.
 */
export function districts(): DatasetFeature[] {
  const cols = 28
  const rows = 25
  const perSide = 50
  const w = (BOX.maxLon - BOX.minLon) / cols
  const h = (BOX.maxLat - BOX.minLat) / rows
  const bend = ([x, y]: Position): Position => {
    const u = (x! - BOX.minLon) / (BOX.maxLon - BOX.minLon)
    const v = (y! - BOX.minLat) / (BOX.maxLat - BOX.minLat)
    const fade = Math.sin(Math.PI * u) * Math.sin(Math.PI * v)
    return [
      round(x! + 0.18 * fade * Math.sin(7 * v + 3 * u)),
      round(y! + 0.18 * fade * Math.sin(5 * u + 2 * v)),
    ]
  }
  const out: DatasetFeature[] = []
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x0 = BOX.minLon + c * w
      const y0 = BOX.minLat + r * h
      const corners: Position[] = [
        [x0, y0],
        [x0 + w, y0],
        [x0 + w, y0 + h],
        [x0, y0 + h],
      ]
      const ring: Position[] = []
      for (let side = 0; side < 4; side++) {
        const a = corners[side]!
        const b = corners[(side + 1) % 4]!
        for (let i = 0; i < perSide; i++) {
          const t = i / perSide
          ring.push(bend([a[0]! + (b[0]! - a[0]!) * t, a[1]! + (b[1]! - a[1]!) * t]))
        }
      }
      ring.push(ring[0]!)
      out.push({ geometry: { type: 'Polygon', coordinates: [ring] }, properties: { id: r * cols + c } })
    }
  }
  return out
}

/** The drawn polygon: a 40-vertex star around the box centre covering about 5 % of the box. */
export function drawnStar(): Polygon {
  const cx = (BOX.minLon + BOX.maxLon) / 2
  const cy = (BOX.minLat + BOX.maxLat) / 2
  const outer = 4.73
  const inner = 0.6 * outer
  const ring: Position[] = []
  for (let i = 0; i < 40; i++) {
    const angle = (i / 40) * 2 * Math.PI
    const r = i % 2 === 0 ? outer : inner
    ring.push([round(cx + r * Math.cos(angle)), round(cy + r * Math.sin(angle))])
  }
  ring.push(ring[0]!)
  return { type: 'Polygon', coordinates: [ring] }
}

/** The whole box as a polygon (the reference of the Area query, which the join's rules require). */
export function wholeBox(): Polygon {
  const { minLon, maxLon, minLat, maxLat } = BOX
  return {
    type: 'Polygon',
    coordinates: [
      [
        [minLon - 1, minLat - 1],
        [maxLon + 1, minLat - 1],
        [maxLon + 1, maxLat + 1],
        [minLon - 1, maxLat + 1],
        [minLon - 1, minLat - 1],
      ],
    ],
  }
}

export function toWkt(geometry: DatasetFeature['geometry']): string {
  if (!geometry) return 'GEOMETRYCOLLECTION EMPTY'
  const pos = (p: Position) => `${p[0]} ${p[1]}`
  switch (geometry.type) {
    case 'Point':
      return `POINT(${pos(geometry.coordinates)})`
    case 'Polygon':
      return `POLYGON(${geometry.coordinates.map((r) => `(${r.map(pos).join(',')})`).join(',')})`
    default:
      throw new Error(`toWkt: ${geometry.type} not used by the benchmark`)
  }
}
