import type { Geometry, Position } from 'geojson'
import type { BBox } from './geodesy'

/** What the grid knows about a point or a box against an areal reference. */
export const Where = { Unknown: -1, Exterior: 0, Interior: 1 } as const
export type Where = (typeof Where)[keyof typeof Where]

const BOUNDARY = 2
const EXTERIOR = 0
const INTERIOR = 1

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

  private constructor(
    private readonly box: BBox,
    private readonly n: number,
    rings: Position[][],
  ) {
    this.cells = new Uint8Array(n * n)
    this.cw = (box[2] - box[0]) / n || 1e-12
    this.ch = (box[3] - box[1]) / n || 1e-12
    const mark = (i: number, j: number) => {
      if (i >= 0 && j >= 0 && i < n && j < n) this.cells[j * n + i] = BOUNDARY
    }
    // Rounding in the few operations below is far under EPS degrees; widening by EPS keeps marking conservative.
    const EPS = 1e-9
    for (const ring of rings) {
      for (let k = 1; k < ring.length; k++) {
        const [ax, ay] = ring[k - 1] as [number, number]
        const [bx, by] = ring[k] as [number, number]
        const minX = Math.min(ax, bx)
        const maxX = Math.max(ax, bx)
        const c0 = Math.floor((minX - EPS - box[0]) / this.cw)
        const c1 = Math.floor((maxX + EPS - box[0]) / this.cw)
        for (let c = c0; c <= c1; c++) {
          // The segment's y-range within this column (clamped to the segment's own x-range).
          let ya: number
          let yb: number
          if (maxX - minX < EPS) {
            ya = Math.min(ay, by)
            yb = Math.max(ay, by)
          } else {
            const x0 = Math.max(minX, box[0] + c * this.cw)
            const x1 = Math.min(maxX, box[0] + (c + 1) * this.cw)
            ya = ay + ((by - ay) * (x0 - ax)) / (bx - ax)
            yb = ay + ((by - ay) * (x1 - ax)) / (bx - ax)
          }
          const r0 = Math.floor((Math.min(ya, yb) - EPS - box[1]) / this.ch)
          const r1 = Math.floor((Math.max(ya, yb) + EPS - box[1]) / this.ch)
          for (let r = r0; r <= r1; r++) mark(c, r)
        }
      }
    }
    // Parity of crossings to the left of each unmarked cell centre, one scanline per row.
    for (let j = 0; j < n; j++) {
      const y = box[1] + (j + 0.5) * this.ch
      const xs: number[] = []
      for (const ring of rings) {
        for (let k = 1; k < ring.length; k++) {
          const [ax, ay] = ring[k - 1] as [number, number]
          const [bx, by] = ring[k] as [number, number]
          if (ay > y !== by > y) xs.push(ax + ((y - ay) * (bx - ax)) / (by - ay))
        }
      }
      xs.sort((a, b) => a - b)
      let next = 0
      for (let i = 0; i < n; i++) {
        const x = box[0] + (i + 0.5) * this.cw
        while (next < xs.length && xs[next]! < x) next++
        if (this.cells[j * n + i] !== BOUNDARY) this.cells[j * n + i] = next % 2 === 1 ? INTERIOR : EXTERIOR
      }
    }
  }

  /** A grid for a Polygon or MultiPolygon worth building for `candidates` tests; undefined otherwise. */
  static build(geometry: Geometry, box: BBox, candidates: number): CellGrid | undefined {
    if (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon') return undefined
    const rings = geometry.type === 'Polygon' ? geometry.coordinates : geometry.coordinates.flat()
    const edges = rings.reduce((sum, r) => sum + r.length, 0)
    if (candidates < 64 || candidates < edges / 2) return undefined
    const n = Math.max(16, Math.min(256, Math.round(Math.sqrt(candidates) * 1.5)))
    return new CellGrid(box, n, rings)
  }

  private outside(minX: number, minY: number, maxX: number, maxY: number): boolean {
    return maxX < this.box[0] || minX > this.box[2] || maxY < this.box[1] || minY > this.box[3]
  }

  point(x: number, y: number): Where {
    if (this.outside(x, y, x, y)) return Where.Exterior
    const i = Math.floor((x - this.box[0]) / this.cw)
    const j = Math.floor((y - this.box[1]) / this.ch)
    if (i < 0 || j < 0 || i >= this.n || j >= this.n) return Where.Unknown
    const cell = this.cells[j * this.n + i]
    return cell === INTERIOR ? Where.Interior : cell === EXTERIOR ? Where.Exterior : Where.Unknown
  }

  /** Interior or Exterior when every cell the box touches is; Unknown otherwise. */
  box_(b: BBox): Where {
    if (this.outside(b[0], b[1], b[2], b[3])) return Where.Exterior
    const i0 = Math.floor((b[0] - this.box[0]) / this.cw)
    const i1 = Math.floor((b[2] - this.box[0]) / this.cw)
    const j0 = Math.floor((b[1] - this.box[1]) / this.ch)
    const j1 = Math.floor((b[3] - this.box[1]) / this.ch)
    if (i0 < 0 || j0 < 0 || i1 >= this.n || j1 >= this.n) return Where.Unknown
    const first = this.cells[j0 * this.n + i0]
    if (first === BOUNDARY) return Where.Unknown
    for (let j = j0; j <= j1; j++)
      for (let i = i0; i <= i1; i++) if (this.cells[j * this.n + i] !== first) return Where.Unknown
    return first === INTERIOR ? Where.Interior : Where.Exterior
  }
}
