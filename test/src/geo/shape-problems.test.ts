import type { Polygon } from 'geojson'
import { kinks } from '@turf/turf'
import { describe, expect, it } from 'vitest'
import { selfIntersections, shapeProblems } from '../../../src/geo/shape-problems'

const square: Polygon = {
  type: 'Polygon',
  coordinates: [
    [
      [77, 28],
      [78, 28],
      [78, 29],
      [77, 29],
      [77, 28],
    ],
  ],
}
const bowTie: Polygon = {
  type: 'Polygon',
  coordinates: [
    [
      [77, 28],
      [78, 29],
      [78, 28],
      [77, 29],
      [77, 28],
    ],
  ],
}

describe('shape problems', () => {
  it('finds where a bow-tie crosses itself', () => {
    const points = selfIntersections(bowTie)
    expect(points.length).toBeGreaterThan(0)
    expect(points[0]![0]).toBeCloseTo(77.5, 6)
    expect(points[0]![1]).toBeCloseTo(28.5, 2)
    expect(selfIntersections(square)).toEqual([])
  })

  it('names the shape in its problem and finds none in a simple polygon, a line or a point', () => {
    expect(shapeProblems('Polygon 2', bowTie)).toEqual([expect.stringMatching(/^Polygon 2 crosses itself/)])
    expect(shapeProblems('Polygon 1', square)).toEqual([])
    expect(
      shapeProblems('Line 1', {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
          [1, 0],
          [0, 1],
        ],
      }),
    ).toEqual([])
    expect(shapeProblems('Point 1', { type: 'Point', coordinates: [77, 28] })).toEqual([])
  })

  it('reports RFC 7946 issues from the shared contract check', () => {
    const [problem] = shapeProblems('Imported 1', { type: 'Point', coordinates: [200, 28] })
    expect(problem).toMatch(/^Imported 1: geometry\.coordinates.*longitude 200 is outside -180\.\.180/)
    const open: Polygon = { type: 'Polygon', coordinates: [square.coordinates[0]!.slice(0, 4)] }
    expect(shapeProblems('Polygon 3', open)[0]).toMatch(/^Polygon 3: /)
  })
})

describe('selfIntersections on larger shapes', () => {
  it('agrees with turf kinks on a star that crosses itself and finds none in a fine circle', () => {
    // A five-pointed star drawn as one ring through every second point: five crossings.
    const star: Polygon = {
      type: 'Polygon',
      coordinates: [
        [0, 2, 4, 1, 3, 0].map((k) => [
          Math.cos(Math.PI / 2 + (k * 2 * Math.PI) / 5),
          Math.sin(Math.PI / 2 + (k * 2 * Math.PI) / 5),
        ]),
      ],
    }
    expect(selfIntersections(star)).toHaveLength(kinks(star).features.length)
    expect(selfIntersections(star)).toHaveLength(5)
    const ring = Array.from({ length: 5000 }, (_, i) => [
      Math.cos((i * 2 * Math.PI) / 5000),
      Math.sin((i * 2 * Math.PI) / 5000),
    ])
    expect(selfIntersections({ type: 'Polygon', coordinates: [[...ring, ring[0]!]] })).toEqual([])
  })
})
