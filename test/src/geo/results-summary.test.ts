import { describe, expect, it } from 'vitest'
import { formatArea, formatLength } from '../../../src/geo/measure'
import { summarizeGeometries } from '../../../src/geo/results-summary'

describe('summarizeGeometries', () => {
  it('gives the extent and the geodesic area of polygons on WGS84 (1°×1° at the equator ≈ 12,308.8 km²)', () => {
    const s = summarizeGeometries([
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
            [0, 0],
          ],
        ],
      },
      null,
      { type: 'Point', coordinates: [2, -1] },
    ])
    expect(s.geometryCount).toBe(2)
    expect(s.extent).toEqual([0, -1, 2, 1])
    expect(s.areaM2! / 1e6).toBeCloseTo(12308.78, 0)
    expect(s.lengthM).toBeNull()
    expect(formatArea(s.areaM2!)).toBe('12,308.8 km²')
  })

  it('gives the geodesic length of lines (1° of longitude on the equator = 111,319.5 m)', () => {
    const s = summarizeGeometries([
      {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 0],
        ],
      },
    ])
    expect(s.lengthM).toBeCloseTo(111319.49, 1)
    expect(s.areaM2).toBeNull()
    expect(formatLength(s.lengthM!)).toBe('111.3 km')
  })

  it('has no extent when no row holds geometry', () => {
    expect(summarizeGeometries([null, null])).toEqual({
      geometryCount: 0,
      extent: null,
      areaM2: null,
      lengthM: null,
    })
  })
})
