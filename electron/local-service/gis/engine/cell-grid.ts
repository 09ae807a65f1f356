import type { Geometry, MultiPolygon, Position } from 'geojson'
import type { BBox } from '../../engine/geodesy'

/** What the grid knows about a point or a box against an areal reference. */
export const Where = { Unknown: -1, Exterior: 0, Interior: 1 } as const
export type Where = (typeof Where)[keyof typeof Where]

const BOUNDARY = 2
const EXTERIOR = 0
const INTERIOR = 1

/** Rounding in the few operations of the build is far under EPS degrees; widening by EPS keeps marking conservative. */
const EPS = 1e-9

/**
 * A raster over a polygon's box that decides most point-in-polygon questions without GEOS, exactly:
 * a cell touched (or nearly touched) by any edge is "boundary" and always defers to GEOS; every other cell
 * lies wholly in the interior or the exterior, known from the crossing parity at its centre. Edges mark
 * their cells column by column, widened by 1e-9°, so rounding never leaves a touched cell unmarked.
 */
export class CellGrid {
  private readonly cells: Uint8Array
  private readonly cw: number
  private readonly ch: number
  private readonly x0: number
  private readonly y0: number
  private readonly x1: number
  private readonly y1: number

  private constructor(
    box: BBox,
    private readonly n: number,
    rings: Position[][],
  ) {
    const cells = (this.cells = new Uint8Array(n * n))
    this.x0 = box[0]
    this.y0 = box[1]
    this.x1 = box[2]
    this.y1 = box[3]
    const cw = (this.cw = (box[2] - box[0]) / n || 1e-12)
    const ch = (this.ch = (box[3] - box[1]) / n || 1e-12)
    const bx0 = box[0]
    const by0 = box[1]
    // Crossings of each row's centre line (the scanline), gathered edge by edge.
    const crossings: number[][] = Array.from({ length: n }, () => [])
    for (const ring of rings) {
      for (let k = 1; k < ring.length; k++) {
        const a = ring[k - 1]!
        const b = ring[k]!
        const ax = a[0]!
        const ay = a[1]!
        const bx = b[0]!
        const by = b[1]!
        const minX = ax < bx ? ax : bx
        const maxX = ax < bx ? bx : ax
        let c0 = Math.floor((minX - EPS - bx0) / cw)
        let c1 = Math.floor((maxX + EPS - bx0) / cw)
        if (c0 < 0) c0 = 0
        if (c1 >= n) c1 = n - 1
        for (let c = c0; c <= c1; c++) {
          // The segment's y-range within this column (clamped to the segment's own x-range).
          let ya: number
          let yb: number
          if (maxX - minX < EPS) {
            ya = ay
            yb = by
          } else {
            const xa = Math.max(minX, bx0 + c * cw)
            const xb = Math.min(maxX, bx0 + (c + 1) * cw)
            ya = ay + ((by - ay) * (xa - ax)) / (bx - ax)
            yb = ay + ((by - ay) * (xb - ax)) / (bx - ax)
          }
          let r0 = Math.floor(((ya < yb ? ya : yb) - EPS - by0) / ch)
          let r1 = Math.floor(((ya < yb ? yb : ya) + EPS - by0) / ch)
          if (r0 < 0) r0 = 0
          if (r1 >= n) r1 = n - 1
          for (let r = r0; r <= r1; r++) cells[r * n + c] = BOUNDARY
        }
        // Rows whose centre y lies in the half-open y-range of the edge (the usual crossing rule).
        const lo = ay < by ? ay : by
        const hi = ay < by ? by : ay
        let j0 = Math.ceil((lo - by0) / ch - 0.5) - 1
        let j1 = Math.ceil((hi - by0) / ch - 0.5) + 1
        if (j0 < 0) j0 = 0
        if (j1 > n) j1 = n
        for (let j = j0; j < j1; j++) {
          const y = by0 + (j + 0.5) * ch
          if (ay > y !== by > y) crossings[j]!.push(ax + ((y - ay) * (bx - ax)) / (by - ay))
        }
      }
    }
    // Parity of crossings to the left of each unmarked cell centre, one scanline per row.
    for (let j = 0; j < n; j++) {
      const xs = crossings[j]!
      if (xs.length > 1) xs.sort((p, q) => p - q)
      let next = 0
      const row = j * n
      for (let i = 0; i < n; i++) {
        if (cells[row + i] === BOUNDARY) continue
        const x = bx0 + (i + 0.5) * cw
        while (next < xs.length && xs[next]! < x) next++
        cells[row + i] = next % 2 === 1 ? INTERIOR : EXTERIOR
      }
    }
  }

  /** The grid size worth building for a Polygon or MultiPolygon and `candidates` tests; 0 for none. */
  static sizeFor(geometry: Geometry, candidates: number): number {
    if (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon') return 0
    let edges = 0
    if (geometry.type === 'Polygon') for (const r of geometry.coordinates) edges += r.length
    else for (const p of geometry.coordinates) for (const r of p) edges += r.length
    if (candidates < 64 || candidates < edges / 2) return 0
    return Math.max(16, Math.min(512, Math.round(Math.sqrt(candidates) * 3)))
  }

  /** A grid for a Polygon or MultiPolygon worth building for `candidates` tests; undefined otherwise. */
  static build(geometry: Geometry, box: BBox, candidates: number): CellGrid | undefined {
    const n = CellGrid.sizeFor(geometry, candidates)
    if (n === 0) return undefined
    const rings =
      geometry.type === 'Polygon' ? geometry.coordinates : (geometry as MultiPolygon).coordinates.flat()
    return new CellGrid(box, n, rings)
  }

  /** The grid size (cells per side). */
  get size(): number {
    return this.n
  }

  point(x: number, y: number): Where {
    if (x < this.x0 || x > this.x1 || y < this.y0 || y > this.y1) return Where.Exterior
    const i = Math.floor((x - this.x0) / this.cw)
    const j = Math.floor((y - this.y0) / this.ch)
    if (i < 0 || j < 0 || i >= this.n || j >= this.n) return Where.Unknown
    const cell = this.cells[j * this.n + i]
    return cell === INTERIOR ? Where.Interior : cell === EXTERIOR ? Where.Exterior : Where.Unknown
  }

  /** Interior or Exterior when every cell the box (minX, minY, maxX, maxY) touches is; Unknown otherwise. */
  box(minX: number, minY: number, maxX: number, maxY: number): Where {
    if (maxX < this.x0 || minX > this.x1 || maxY < this.y0 || minY > this.y1) return Where.Exterior
    const n = this.n
    const i0 = Math.floor((minX - this.x0) / this.cw)
    const i1 = Math.floor((maxX - this.x0) / this.cw)
    const j0 = Math.floor((minY - this.y0) / this.ch)
    const j1 = Math.floor((maxY - this.y0) / this.ch)
    if (i0 < 0 || j0 < 0 || i1 >= n || j1 >= n) return Where.Unknown
    const first = this.cells[j0 * n + i0]
    if (first === BOUNDARY) return Where.Unknown
    for (let j = j0; j <= j1; j++)
      for (let i = i0; i <= i1; i++) if (this.cells[j * n + i] !== first) return Where.Unknown
    return first === INTERIOR ? Where.Interior : Where.Exterior
  }

  /** Interior or Exterior when every cell the box touches is; Unknown otherwise. */
  box_(b: BBox): Where {
    return this.box(b[0], b[1], b[2], b[3])
  }

  /**
   * Whether some vertex of the geometry lies in an interior cell, i.e. strictly inside the reference: then
   * the two interiors meet (Intersects holds, Disjoint does not), whatever the rest of the geometry does.
   */
  someVertexInterior(geometry: Geometry): boolean {
    switch (geometry.type) {
      case 'Point':
        return this.vertexIn([geometry.coordinates])
      case 'LineString':
      case 'MultiPoint':
        return this.vertexIn(geometry.coordinates)
      case 'Polygon':
      case 'MultiLineString':
        for (const part of geometry.coordinates) if (this.vertexIn(part)) return true
        return false
      case 'MultiPolygon':
        for (const polygon of geometry.coordinates)
          for (const ring of polygon) if (this.vertexIn(ring)) return true
        return false
      default:
        return false
    }
  }

  private vertexIn(positions: Position[]): boolean {
    const { x0, y0, cw, ch, n, cells } = this
    for (let k = 0; k < positions.length; k++) {
      const p = positions[k]!
      const i = Math.floor((p[0]! - x0) / cw)
      const j = Math.floor((p[1]! - y0) / ch)
      // Out of the grid (or NaN) is not interior.
      if (i >= 0 && j >= 0 && i < n && j < n && cells[j * n + i] === INTERIOR) return true
    }
    return false
  }
}
