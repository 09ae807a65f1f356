import type { MultiPolygon, Polygon } from 'geojson'
import { kinks } from '@turf/turf'
import { describe, expect, it } from 'vitest'
import { selfIntersections } from '../../shared/validity'

const ring = (...points: Array<[number, number]>) => [...points, points[0]!]

describe('selfIntersections', () => {
  it('finds the crossing of a bow tie where turf kinks finds it, and none in a square', () => {
    const bowTie: Polygon = { type: 'Polygon', coordinates: [ring([77, 28], [78, 29], [78, 28], [77, 29])] }
    expect(selfIntersections(bowTie)).toEqual([[77.5, 28.5]])
    expect(kinks(bowTie).features.map((f) => f.geometry.coordinates)).toEqual([[77.5, 28.5]])
    const square: Polygon = { type: 'Polygon', coordinates: [ring([77, 28], [78, 28], [78, 29], [77, 29])] }
    expect(selfIntersections(square)).toEqual([])
  })

  it('finds a hole that crosses its outer ring, and parts of a MultiPolygon that cross each other', () => {
    const crossingHole: Polygon = {
      type: 'Polygon',
      coordinates: [ring([0, 0], [4, 0], [4, 4], [0, 4]), ring([3, 1], [3, 3], [5, 3], [5, 1])],
    }
    expect(selfIntersections(crossingHole)).toHaveLength(2)
    const overlapping: MultiPolygon = {
      type: 'MultiPolygon',
      coordinates: [[ring([0, 0], [2, 0], [2, 2], [0, 2])], [ring([1, 1], [3, 1], [3, 3], [1, 3])]],
    }
    expect(selfIntersections(overlapping).sort()).toEqual([
      [1, 2],
      [2, 1],
    ])
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
