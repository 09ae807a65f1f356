import type { Geometry } from 'geojson'
import { describe, expect, it } from 'vitest'
import { CellGrid } from '../../../../../electron/local-service/gis/engine/cell-grid'
import { FlatGeometries, FlatType } from '../../../../../electron/local-service/gis/engine/flat-geometries'
import { square } from '../../helpers'

/** Feature f's vertices as [x, y] pairs, ring by ring, part by part, read back from the flat arrays. */
function partsOf(flat: FlatGeometries, f: number): number[][][][] {
  const parts: number[][][][] = []
  for (let p = flat.featureStart[f]!; p < flat.featureStart[f + 1]!; p++) {
    const rings: number[][][] = []
    for (let r = flat.partStart[p]!; r < flat.partStart[p + 1]!; r++) {
      const ring: number[][] = []
      for (let v = flat.ringStart[r]!; v < flat.ringStart[r + 1]!; v++)
        ring.push([flat.xy[2 * v]!, flat.xy[2 * v + 1]!])
      rings.push(ring)
    }
    parts.push(rings)
  }
  return parts
}

const holed: Geometry = {
  type: 'Polygon',
  coordinates: [
    [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
      [0, 0],
    ],
    [
      [4, 4],
      [4, 6],
      [6, 6],
      [6, 4],
      [4, 4],
    ],
  ],
}

const table: Array<Geometry | null> = [
  { type: 'Point', coordinates: [1, 2, 99] },
  null,
  {
    type: 'MultiPoint',
    coordinates: [
      [1, 1],
      [2, 2],
    ],
  },
  {
    type: 'LineString',
    coordinates: [
      [0, 0],
      [1, 1],
      [2, 0],
    ],
  },
  {
    type: 'MultiLineString',
    coordinates: [
      [
        [0, 0],
        [1, 0],
      ],
      [
        [5, 5],
        [6, 6],
      ],
    ],
  },
  holed,
  {
    type: 'MultiPolygon',
    coordinates: [(square(20, 20, 21, 21) as GeoJSON.Polygon).coordinates, holed.coordinates],
  },
  { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [5, 5] }] },
  { type: 'Polygon', coordinates: [] },
]

describe('a table’s geometries held flat', () => {
  const flat = FlatGeometries.of(table.length, (i) => table[i]!)

  it('keeps every feature’s parts, rings and vertices in order, x and y only, and each feature’s type', () => {
    expect(partsOf(flat, 0)).toEqual([[[[1, 2]]]])
    expect(partsOf(flat, 1)).toEqual([])
    expect(partsOf(flat, 2)).toEqual([
      [
        [
          [1, 1],
          [2, 2],
        ],
      ],
    ])
    expect(partsOf(flat, 3)).toEqual([
      [
        [
          [0, 0],
          [1, 1],
          [2, 0],
        ],
      ],
    ])
    expect(partsOf(flat, 4)).toEqual([
      [
        [
          [0, 0],
          [1, 0],
        ],
      ],
      [
        [
          [5, 5],
          [6, 6],
        ],
      ],
    ])
    expect(partsOf(flat, 5)).toEqual([holed.coordinates])
    expect(partsOf(flat, 6)).toEqual([
      (square(20, 20, 21, 21) as GeoJSON.Polygon).coordinates,
      holed.coordinates,
    ])
    // A collection's members are not held: the exact tests leave it to GEOS.
    expect(partsOf(flat, 7)).toEqual([])
    expect(partsOf(flat, 8)).toEqual([[]])
    expect([...flat.types]).toEqual([
      FlatType.Point,
      FlatType.None,
      FlatType.MultiPoint,
      FlatType.LineString,
      FlatType.MultiLineString,
      FlatType.Polygon,
      FlatType.MultiPolygon,
      FlatType.Collection,
      FlatType.Polygon,
    ])
  })

  it('lets the cell grid find a vertex strictly inside a reference, feature by feature', () => {
    // A 10 × 10 square; interior cells lie well inside it, boundary cells along its sides.
    const grid = CellGrid.build(square(-0.5, -0.5, 9.5, 9.5), [-0.5, -0.5, 9.5, 9.5], 10_000)!
    const inside = table.map((_, f) => grid.someVertexInterior(flat, f))
    expect(inside).toEqual([true, false, true, true, true, true, true, false, false])
    const far = FlatGeometries.of(1, () => square(30, 30, 31, 31))
    expect(grid.someVertexInterior(far, 0)).toBe(false)
  })
})
