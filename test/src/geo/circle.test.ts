import { booleanClockwise, distance } from '@turf/turf'
import { describe, expect, it } from 'vitest'
import { CIRCLE_VERTICES, circleOf, circlePolygon } from '../../../src/geo/circle'

describe('circlePolygon', () => {
  it('makes a closed ring of 64 distinct vertices, all at the radius, counter-clockwise', () => {
    const polygon = circlePolygon([77.2, 28.6], 5000)
    const ring = polygon.coordinates[0]!
    expect(CIRCLE_VERTICES).toBe(64)
    expect(ring).toHaveLength(65)
    expect(ring[0]).toEqual(ring[64])
    expect(new Set(ring.slice(0, -1).map((p) => p.join(','))).size).toBe(64)
    for (const vertex of ring) {
      expect(distance([77.2, 28.6], vertex, { units: 'kilometers' }) * 1000).toBeCloseTo(5000, 0)
    }
    expect(booleanClockwise(ring)).toBe(false)
  })

  it('takes another vertex count and refuses nonsense', () => {
    expect(circlePolygon([0, 0], 100, 8).coordinates[0]).toHaveLength(9)
    expect(() => circlePolygon([0, 0], 0)).toThrow(/radius must be > 0/)
    expect(() => circlePolygon([0, 0], 10, 2)).toThrow(/≥ 3 vertices/)
  })

  it('recovers the centre and radius of a circle polygon', () => {
    const { center, radiusMetres } = circleOf(circlePolygon([80, 20], 12_000))
    expect(center[0]).toBeCloseTo(80, 4)
    expect(center[1]).toBeCloseTo(20, 4)
    expect(radiusMetres).toBeCloseTo(12_000, -1)
  })
})
