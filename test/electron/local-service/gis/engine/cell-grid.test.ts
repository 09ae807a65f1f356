import type { MultiPolygon, Polygon, Position } from 'geojson'
import { beforeAll, describe, expect, it } from 'vitest'
import { drawnStar, mulberry32 } from '../../../../../bench/join-data'
import { destroy, loadGeos, toGeos, type Geos } from '../../../../../electron/local-service/engine/geos'
import { CellGrid } from '../../../../../electron/local-service/gis/engine/cell-grid'
import { FlatGeometries } from '../../../../../electron/local-service/gis/engine/flat-geometries'
import { square } from '../../helpers'

/**
 * The grid's exact Intersects of a polygon against its reference (`intersectsAreal`) against GEOS's
 * prepared Intersects, on polygons scattered along the reference's edges (where the grid's cells alone
 * cannot tell): whenever it answers, it answers what GEOS answers; it leaves to GEOS only what is too close
 * to call.
 */

let geos: Geos
beforeAll(async () => {
  geos = await loadGeos()
})

const random = mulberry32(11)

/** A star-convex ring of `n` vertices around (cx, cy) (sorted angles: always simple). */
function blob(cx: number, cy: number, radius: number, n: number): Position[] {
  const ring: Position[] = []
  for (let i = 0; i < n; i++) {
    const angle = ((i + 0.2 + random() * 0.6) / n) * 2 * Math.PI
    const r = radius * (0.6 + random() * 0.4)
    ring.push([cx + r * Math.cos(angle), cy + r * Math.sin(angle)])
  }
  return [...ring, ring[0]!]
}

function boxOf(g: Polygon | MultiPolygon): [number, number, number, number] {
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity]
  const rings = g.type === 'Polygon' ? g.coordinates : g.coordinates.flat()
  for (const ring of rings)
    for (const [x, y] of ring) {
      b[0] = Math.min(b[0], x!)
      b[1] = Math.min(b[1], y!)
      b[2] = Math.max(b[2], x!)
      b[3] = Math.max(b[3], y!)
    }
  return b
}

/** Every candidate's answer against GEOS's: how many the grid decided, how many it left, how many differ. */
function compare(reference: Polygon | MultiPolygon, candidates: Array<Polygon | MultiPolygon>) {
  const box = boxOf(reference)
  const grid = CellGrid.build(reference, box, 20_000)!
  const ptr = toGeos(geos, reference)
  const prepared = geos.GEOSPrepare(ptr)
  const out = { decided: 0, left: 0, differ: [] as Array<Polygon | MultiPolygon> }
  const flat = FlatGeometries.of(candidates.length, (i) => candidates[i]!)
  try {
    for (const [i, g] of candidates.entries()) {
      const b = boxOf(g)
      const answer = grid.intersectsAreal(flat, i, b[0], b[1], b[2], b[3])
      const candidate = toGeos(geos, g)
      const truth = geos.GEOSPreparedIntersects(prepared, candidate) === 1
      destroy(geos, candidate)
      if (answer === undefined) out.left++
      else {
        out.decided++
        if (answer !== truth) out.differ.push(g)
      }
    }
  } finally {
    geos.GEOSPreparedGeom_destroy(prepared)
    destroy(geos, ptr)
  }
  return out
}

/** Small polygons (some with a hole, some of two parts) over the reference's box and a little beyond. */
function scattered(reference: Polygon | MultiPolygon, count: number): Array<Polygon | MultiPolygon> {
  const [x0, y0, x1, y1] = boxOf(reference)
  const w = x1 - x0
  const h = y1 - y0
  return Array.from({ length: count }, (_, t) => {
    const cx = x0 - 0.05 * w + random() * 1.1 * w
    const cy = y0 - 0.05 * h + random() * 1.1 * h
    // Now and then one large enough to hold part of the reference's boundary.
    const radius = w * (0.001 + random() * (t % 50 === 0 ? 0.6 : 0.03))
    if (t % 7 === 0)
      return {
        type: 'MultiPolygon',
        coordinates: [[blob(cx, cy, radius, 8)], [blob(cx + 3 * radius, cy, radius, 6)]],
      }
    if (t % 5 === 0)
      return {
        type: 'Polygon',
        coordinates: [blob(cx, cy, radius, 12), blob(cx, cy, 0.3 * radius, 6).reverse()],
      }
    return { type: 'Polygon', coordinates: [blob(cx, cy, radius, 6 + (t % 7))] }
  })
}

describe('the cell grid’s exact Intersects of a polygon', () => {
  it('answers what GEOS answers, and decides most polygons along the edges of a drawn star', () => {
    const star = drawnStar()
    const { decided, left, differ } = compare(star, scattered(star, 3_000))
    expect(differ).toEqual([])
    expect(decided).toBeGreaterThan(10 * left)
  })

  it('answers what GEOS answers against a polygon with a hole and against a multipolygon', () => {
    const holed: Polygon = { type: 'Polygon', coordinates: [blob(0, 0, 10, 60), blob(0, 0, 4, 30).reverse()] }
    const parts: MultiPolygon = {
      type: 'MultiPolygon',
      coordinates: [[blob(-5, 0, 3, 20)], [blob(5, 0, 3, 20)]],
    }
    for (const reference of [holed, parts]) {
      const { decided, differ } = compare(reference, scattered(reference, 2_000))
      expect(differ).toEqual([])
      expect(decided).toBeGreaterThan(1_000)
    }
  })

  it('leaves to GEOS the polygons that share a vertex or an edge with the reference, and answers the rest as GEOS does', () => {
    // A notched square on a half-unit lattice, and lattice rectangles: many touch it exactly.
    const notched: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [4, 0],
          [4, 4],
          [2, 2],
          [0, 4],
          [0, 0],
        ],
      ],
    }
    const at = () => Math.round(random() * 12) / 2 - 1
    const rectangles: Polygon[] = []
    while (rectangles.length < 2_000) {
      const [xa, ya, xb, yb] = [at(), at(), at(), at()]
      if (xa === xb || ya === yb) continue
      const [x0, x1] = xa < xb ? [xa, xb] : [xb, xa]
      const [y0, y1] = ya < yb ? [ya, yb] : [yb, ya]
      rectangles.push(square(x0, y0, x1, y1) as Polygon)
    }
    const { decided, left, differ } = compare(notched, rectangles)
    expect(differ).toEqual([])
    expect(left).toBeGreaterThan(0)
    expect(decided).toBeGreaterThan(0)
  })
})
