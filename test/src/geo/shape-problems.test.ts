import type { Polygon } from 'geojson'
import { describe, expect, it } from 'vitest'
import { shapeProblems } from '../../../src/geo/shape-problems'

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
