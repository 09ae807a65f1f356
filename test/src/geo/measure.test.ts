import type { Polygon } from 'geojson'
import { describe, expect, it } from 'vitest'
import { formatArea, formatLength, formatMeasure } from '../../../src/geo/measure'
import { summarizeGeometries } from '../../../src/geo/results-summary'
import { geodesicArea } from '../../../shared/geodesy'

const cell: Polygon = {
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
}

describe('shape labels', () => {
  it('label a 1°×1° cell at the equator with its area on the WGS84 ellipsoid (12,308.8 km², not the sphere’s 12,363.7)', () => {
    expect(formatMeasure(cell)).toBe('12,308.8 km²')
    // The label, the results summary and the local service's Area comparison measure alike.
    expect(summarizeGeometries([cell]).areaM2).toBe(geodesicArea(cell))
  })

  it('label a line with its geodesic length (one degree of the equator: 111.3 km on WGS84, 111.2 km on the sphere)', () => {
    expect(
      formatMeasure({
        type: 'LineString',
        coordinates: [
          [0, 0],
          [0.5, 0],
          [1, 0],
        ],
      }),
    ).toBe('111.3 km')
  })

  it('formats areas in m² or km² and lengths in m or km, grouped with commas', () => {
    expect(formatArea(950)).toBe('950 m²')
    expect(formatArea(99_999)).toBe('99,999 m²')
    expect(formatArea(250_000)).toBe('0.25 km²')
    expect(formatArea(1_234_500_000)).toBe('1,234.5 km²')
    expect(formatLength(850.4)).toBe('850 m')
    expect(formatLength(12_345)).toBe('12.35 km')
    expect(formatLength(1_234_500)).toBe('1,234.5 km')
    expect(formatMeasure({ type: 'Point', coordinates: [0, 0] })).toBeNull()
  })
})
