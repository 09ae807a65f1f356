import type { Geometry, MultiPolygon, Position } from 'geojson'
import type { BBox } from '../../engine/geodesy'
import type { FlatGeometries } from './flat-geometries'

/** What the grid knows about a point or a box against an areal reference. */
export const Where = { Unknown: -1, Exterior: 0, Interior: 1 } as const
export type Where = (typeof Where)[keyof typeof Where]

const BOUNDARY = 2
const EXTERIOR = 0
const INTERIOR = 1

/** Rounding in the few operations of the build is far under EPS degrees; widening by EPS keeps marking conservative. */
const EPS = 1e-9

/** Shewchuk's bound on the rounding error of `orient` computed in doubles, relative to its terms' sum. */
const ORIENT_BOUND = (3 + 16 * Number.EPSILON) * Number.EPSILON

/**
 * The side of the line a→b that c is on: 1 left, -1 right, 0 on it — when the double computation is
 * certain of it (Shewchuk's filter: the determinant is larger than its error bound, or exactly 0 with
 * every term 0); NaN when it is too close to call.
 */
function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  const left = (ax - cx) * (by - cy)
  const right = (ay - cy) * (bx - cx)
  const det = left - right
  const sum = Math.abs(left) + Math.abs(right)
  if (det > ORIENT_BOUND * sum) return 1
  if (-det > ORIENT_BOUND * sum) return -1
  return sum === 0 ? 0 : NaN
}

/** An answer the exact tests give up on: too close to call in doubles, or a touch GEOS should judge. */
const UNDECIDED = -1

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
  /** The reference's edges, 4 numbers each (ax, ay, bx, by), ring after ring. */
  private readonly edges: Float64Array
  /** Where each ring's edges start in `edges` (edge indices), and one past the last. */
  private readonly ringStarts: Int32Array
  /**
   * The edges touching each cell (made when first asked for): cell c's are `cellEdges[cellStart[c]]` up to
   * `cellStart[c + 1]`. The same cells the build marks as boundary, edge by edge.
   */
  private cellStart?: Int32Array
  private cellEdges?: Int32Array
  /** Per edge, the last query that listed it (each edge is tested once however many cells hold it). */
  private seen?: Uint32Array
  private query = 0
  /** The edges of the cells around a feature, gathered by `gather`. */
  private near = new Int32Array(64)

  private constructor(
    box: BBox,
    private readonly n: number,
    rings: Position[][],
  ) {
    let count = 0
    for (const ring of rings) count += Math.max(0, ring.length - 1)
    const edges = (this.edges = new Float64Array(count * 4))
    const ringStarts = (this.ringStarts = new Int32Array(rings.length + 1))
    let e = 0
    rings.forEach((ring, r) => {
      ringStarts[r] = e
      for (let k = 1; k < ring.length; k++, e++) {
        edges[e * 4] = ring[k - 1]![0]!
        edges[e * 4 + 1] = ring[k - 1]![1]!
        edges[e * 4 + 2] = ring[k]![0]!
        edges[e * 4 + 3] = ring[k]![1]!
      }
    })
    ringStarts[rings.length] = e
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
    for (let k = 0; k < e; k++) {
      this.coverEdge(k, (cell) => (cells[cell] = BOUNDARY))
      const ax = edges[k * 4]!
      const ay = edges[k * 4 + 1]!
      const bx = edges[k * 4 + 2]!
      const by = edges[k * 4 + 3]!
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

  /**
   * Calls `visit` with every cell edge `k` touches or nearly touches (widened by EPS), column by column:
   * the cells the build marks as boundary, and the cells whose edge lists hold the edge.
   */
  private coverEdge(k: number, visit: (cell: number) => void): void {
    const { n, cw, ch, edges } = this
    const bx0 = this.x0
    const by0 = this.y0
    const ax = edges[k * 4]!
    const ay = edges[k * 4 + 1]!
    const bx = edges[k * 4 + 2]!
    const by = edges[k * 4 + 3]!
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
      for (let r = r0; r <= r1; r++) visit(r * n + c)
    }
  }

  /** The edges of each cell, listed once (on the first exact test). */
  private listEdges(): void {
    const { n, edges } = this
    const count = edges.length / 4
    const start = new Int32Array(n * n + 1)
    for (let k = 0; k < count; k++) this.coverEdge(k, (cell) => start[cell + 1]!++)
    for (let c = 0; c < n * n; c++) start[c + 1]! += start[c]!
    const fill = start.slice(0, n * n)
    const list = new Int32Array(start[n * n]!)
    for (let k = 0; k < count; k++) this.coverEdge(k, (cell) => (list[fill[cell]!++] = k))
    this.cellStart = start
    this.cellEdges = list
    this.seen = new Uint32Array(count)
  }

  /**
   * Gathers into `near` the edges of the cells from (i0, j0) to (i1, j1) (clamped to the grid), each once;
   * returns how many.
   */
  private gather(i0: number, j0: number, i1: number, j1: number): number {
    if (!this.cellStart) this.listEdges()
    const n = this.n
    const start = this.cellStart!
    const list = this.cellEdges!
    const seen = this.seen!
    const query = ++this.query
    if (i0 < 0) i0 = 0
    if (j0 < 0) j0 = 0
    if (i1 >= n) i1 = n - 1
    if (j1 >= n) j1 = n - 1
    let count = 0
    for (let j = j0; j <= j1; j++)
      for (let i = i0; i <= i1; i++) {
        const cell = j * n + i
        for (let at = start[cell]!; at < start[cell + 1]!; at++) {
          const k = list[at]!
          if (seen[k] === query) continue
          seen[k] = query
          if (count === this.near.length) {
            const grown = new Int32Array(count * 2)
            grown.set(this.near)
            this.near = grown
          }
          this.near[count++] = k
        }
      }
    return count
  }

  /**
   * Whether the point is in the reference (1) or outside it (0), decided exactly: from the nearest cell to
   * its right in the same row that no edge touches, whose side is known, counting the edges the row
   * crosses between them (each such edge touches a cell of the row on the way). UNDECIDED when the point
   * is on or too near an edge, or on the box's rim.
   */
  private locate(x: number, y: number): number {
    const { n, x0, y0, cw, ch, cells, edges } = this
    if (x < x0 || x > this.x1 || y < y0 || y > this.y1) return 0
    if (x === x0 || x === this.x1 || y === y0 || y === this.y1) return UNDECIDED
    let i = Math.floor((x - x0) / cw)
    let j = Math.floor((y - y0) / ch)
    if (i >= n) i = n - 1
    if (j >= n) j = n - 1
    if (i < 0 || j < 0) return UNDECIDED
    const row = j * n
    let r = i
    while (r < n && cells[row + r] === BOUNDARY) r++
    // The known point: the centre of that cell at the point's y (past the grid's right side: outside).
    const inside = r < n ? (cells[row + r] === INTERIOR ? 1 : 0) : 0
    if (r === i) return inside
    const kx = r < n ? x0 + (r + 0.5) * cw : this.x1 + cw
    // A cell more around the row: a crossing that rounding places across a cell's side is still counted.
    const count = this.gather(i - 1, j - 1, r, j + 1)
    let parity = 0
    for (let m = 0; m < count; m++) {
      const k = this.near[m]!
      const ax = edges[k * 4]!
      const ay = edges[k * 4 + 1]!
      const bx = edges[k * 4 + 2]!
      const by = edges[k * 4 + 3]!
      if (ay > y === by > y) continue
      const here = orient(ax, ay, bx, by, x, y)
      const there = orient(ax, ay, bx, by, kx, y)
      if (here * here !== 1 || there * there !== 1) return UNDECIDED
      if (here !== there) parity ^= 1
    }
    return inside ^ parity
  }

  /**
   * Whether feature f of `flat`, a Polygon or MultiPolygon (its box minX…maxY), meets the reference, as
   * GEOS's prepared Intersects decides it (a component's point in the other, or two edges crossing),
   * computed exactly from the reference's edges in the cells around it: true or false, or undefined when an
   * edge meets or nearly meets another or a point (too close to call in doubles: ask GEOS). For a valid
   * reference (the parity of edge crossings is what GEOS's point location reads too).
   */
  intersectsAreal(
    flat: FlatGeometries,
    f: number,
    minX: number,
    minY: number,
    maxX: number,
    maxY: number,
  ): boolean | undefined {
    const { x0, y0, cw, ch, edges } = this
    const { xy, ringStart, partStart, featureStart } = flat
    const firstRing = partStart[featureStart[f]!]!
    const endRing = partStart[featureStart[f + 1]!]!
    // An edge of g crossing an edge of the reference: the reference's edges that can are in the cells g's
    // box touches (and, for rounding at a cell's side, the cells around them).
    const count = this.gather(
      Math.floor((minX - x0) / cw) - 1,
      Math.floor((minY - y0) / ch) - 1,
      Math.floor((maxX - x0) / cw) + 1,
      Math.floor((maxY - y0) / ch) + 1,
    )
    for (let r = firstRing; r < endRing; r++)
      for (let v = ringStart[r]! + 1; v < ringStart[r + 1]!; v++) {
        const px = xy[2 * v - 2]!
        const py = xy[2 * v - 1]!
        const qx = xy[2 * v]!
        const qy = xy[2 * v + 1]!
        for (let m = 0; m < count; m++) {
          const k = this.near[m]!
          const ax = edges[k * 4]!
          const ay = edges[k * 4 + 1]!
          const bx = edges[k * 4 + 2]!
          const by = edges[k * 4 + 3]!
          // Boxes apart: no meeting.
          if (
            (px < qx ? px : qx) > (ax < bx ? bx : ax) ||
            (px < qx ? qx : px) < (ax < bx ? ax : bx) ||
            (py < qy ? py : qy) > (ay < by ? by : ay) ||
            (py < qy ? qy : py) < (ay < by ? ay : by)
          )
            continue
          const d1 = orient(ax, ay, bx, by, px, py)
          const d2 = orient(ax, ay, bx, by, qx, qy)
          const d3 = orient(px, py, qx, qy, ax, ay)
          const d4 = orient(px, py, qx, qy, bx, by)
          // A touch, a collinear overlap or an uncertain sign (NaN): GEOS judges it.
          if (d1 * d1 + d2 * d2 + d3 * d3 + d4 * d4 !== 4) return undefined
          if (d1 !== d2 && d3 !== d4) return true
        }
      }
    // The boundaries do not meet: g meets the reference when a ring of g lies in it, or a ring of the
    // reference lies in g (one point of each ring tells).
    for (let r = firstRing; r < endRing; r++) {
      const v = ringStart[r]!
      if (v === ringStart[r + 1]) continue
      const where = this.locate(xy[2 * v]!, xy[2 * v + 1]!)
      if (where === UNDECIDED) return undefined
      if (where === 1) return true
    }
    const starts = this.ringStarts
    for (let r = 0; r + 1 < starts.length; r++) {
      if (starts[r] === starts[r + 1]) continue
      const x = edges[starts[r]! * 4]!
      const y = edges[starts[r]! * 4 + 1]!
      if (x < minX || x > maxX || y < minY || y > maxY) continue
      let inside = false
      for (let p = featureStart[f]!; p < featureStart[f + 1]!; p++) {
        const where = crossingParity(flat, p, x, y)
        if (where === UNDECIDED) return undefined
        if (where === 1) inside = true
      }
      if (inside) return true
    }
    return false
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
   * Whether some vertex of feature f of `flat` lies in an interior cell, i.e. strictly inside the
   * reference: then the two interiors meet (Intersects holds, Disjoint does not), whatever the rest of the
   * feature does. (A GeometryCollection's members are not held flat: none is.)
   */
  someVertexInterior(flat: FlatGeometries, f: number): boolean {
    const { x0, y0, cw, ch, n, cells } = this
    const { xy, ringStart, partStart, featureStart } = flat
    const end = ringStart[partStart[featureStart[f + 1]!]!]!
    for (let k = ringStart[partStart[featureStart[f]!]!]!; k < end; k++) {
      const i = Math.floor((xy[2 * k]! - x0) / cw)
      const j = Math.floor((xy[2 * k + 1]! - y0) / ch)
      // Out of the grid (or NaN) is not interior.
      if (i >= 0 && j >= 0 && i < n && j < n && cells[j * n + i] === INTERIOR) return true
    }
    return false
  }
}

/**
 * Whether (x, y) is inside polygon `part` of `flat` (1: an odd number of its edges cross the ray to its
 * right) or outside (0), exactly; UNDECIDED when the point is on or too near an edge the ray meets.
 */
function crossingParity(flat: FlatGeometries, part: number, x: number, y: number): number {
  const { xy, ringStart, partStart } = flat
  let parity = 0
  for (let r = partStart[part]!; r < partStart[part + 1]!; r++)
    for (let v = ringStart[r]! + 1; v < ringStart[r + 1]!; v++) {
      const ax = xy[2 * v - 2]!
      const ay = xy[2 * v - 1]!
      const bx = xy[2 * v]!
      const by = xy[2 * v + 1]!
      if (ay > y === by > y) continue
      if (ax < x && bx < x) continue
      // The edge crosses the line y: to the right of the point when the point is left of the edge
      // going up, right of it going down.
      const side = orient(ax, ay, bx, by, x, y)
      if (!(side === 1 || side === -1)) return UNDECIDED
      if (by > ay === (side === 1)) parity ^= 1
    }
  return parity
}
