import type { Geometry, Position } from 'geojson'

/** The geometry type of each feature in `FlatGeometries.types`. */
export const FlatType = {
  None: 0,
  Point: 1,
  MultiPoint: 2,
  LineString: 3,
  MultiLineString: 4,
  Polygon: 5,
  MultiPolygon: 6,
  /** A GeometryCollection: held with no parts (its members are not flattened). */
  Collection: 7,
} as const

const TYPE_CODE: Record<string, number> = FlatType

/**
 * A table's geometries as flat arrays of numbers, for the join's exact tests against a drawn or prepared
 * geometry: feature → parts (a polygon, a line, a point set) → rings (a polygon's rings; a line's or a
 * point set's one list of positions) → vertices. The tests read a few vertices of thousands of features
 * scattered over the table; read as GeoJSON each vertex is an array of its own somewhere on the heap, and
 * a worker just woken for a request waited on memory for most of them. Flat, they are 16 bytes each, in
 * the features' order. Only the first two numbers of a position are kept.
 */
export class FlatGeometries {
  /** x, y of every vertex, ring after ring. */
  readonly xy: Float64Array
  /** Vertex index where ring r starts (`ringStart[r + 1]` is where it ends). */
  readonly ringStart: Uint32Array
  /** Ring index where part p starts. */
  readonly partStart: Uint32Array
  /** Part index where feature f starts. */
  readonly featureStart: Uint32Array
  /** Each feature's geometry type (`FlatType`). */
  readonly types: Uint8Array

  private constructor(count: number, parts: number, rings: number, vertices: number) {
    this.xy = new Float64Array(vertices * 2)
    this.ringStart = new Uint32Array(rings + 1)
    this.partStart = new Uint32Array(parts + 1)
    this.featureStart = new Uint32Array(count + 1)
    this.types = new Uint8Array(count)
  }

  /** The geometries of `count` features, `geometryAt(i)` the i-th (null for none). */
  static of(count: number, geometryAt: (i: number) => Geometry | null): FlatGeometries {
    // Counted first, then filled: no growing arrays for a large table.
    let parts = 0
    let rings = 0
    let vertices = 0
    const visit = (g: Geometry | null, part: (positions: Position[][]) => void): number => {
      switch (g?.type) {
        case 'Point':
          part([[g.coordinates]])
          break
        case 'MultiPoint':
        case 'LineString':
          part([g.coordinates])
          break
        case 'MultiLineString':
          for (const line of g.coordinates) part([line])
          break
        case 'Polygon':
          part(g.coordinates)
          break
        case 'MultiPolygon':
          for (const polygon of g.coordinates) part(polygon)
          break
      }
      return g ? (TYPE_CODE[g.type === 'GeometryCollection' ? 'Collection' : g.type] ?? 0) : 0
    }
    for (let i = 0; i < count; i++)
      visit(geometryAt(i), (part) => {
        parts++
        rings += part.length
        for (const ring of part) vertices += ring.length
      })
    const flat = new FlatGeometries(count, parts, rings, vertices)
    const { xy, ringStart, partStart, featureStart, types } = flat
    let p = 0
    let r = 0
    let v = 0
    for (let i = 0; i < count; i++) {
      featureStart[i] = p
      types[i] = visit(geometryAt(i), (part) => {
        partStart[p++] = r
        for (const ring of part) {
          ringStart[r++] = v
          for (const position of ring) {
            xy[2 * v] = position[0]!
            xy[2 * v + 1] = position[1]!
            v++
          }
        }
      })
    }
    featureStart[count] = p
    partStart[p] = r
    ringStart[r] = v
    return flat
  }
}
