import geographiclib from 'geographiclib-geodesic'
import type { Polygon } from 'geojson'
import { describe, expect, it } from 'vitest'
import {
  formatArea,
  formatLength,
  formatMeasure,
  geodesicArea,
  geodesicLength,
} from '../../../src/geo/measure'

const R = 6_371_008.8
const rad = (deg: number) => (deg * Math.PI) / 180
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

function ellipsoidArea(ring: number[][]): number {
  const poly = geographiclib.Geodesic.WGS84.Polygon(false)
  for (const [lon, lat] of ring.slice(0, -1)) poly.AddPoint(lat!, lon!)
  return Math.abs(poly.Compute(false, true).area ?? 0)
}

describe('geodesic area and length (turf: sphere of radius 6,371,008.8 m)', () => {
  it('gives a 1°×1° cell at the equator the spherical area R²·Δλ·(sin φ2 − sin φ1) ≈ 12,364 km²', () => {
    const spherical = R * R * rad(1) * (Math.sin(rad(1)) - Math.sin(0))
    expect(geodesicArea(cell)).toBeCloseTo(spherical, -4)
    expect(geodesicArea(cell) / 1e6).toBeCloseTo(12_364, -1)
  })

  it('is within 0.5 % of the WGS84 ellipsoid (≈ 12,308 km² for the same cell)', () => {
    const onEllipsoid = ellipsoidArea(cell.coordinates[0]!)
    expect(onEllipsoid / 1e6).toBeCloseTo(12_308, -1)
    const ratio = geodesicArea(cell) / onEllipsoid
    expect(ratio).toBeGreaterThan(1.003)
    expect(ratio).toBeLessThan(1.005)
  })

  it('subtracts holes and gives points and lines no area', () => {
    const withHole: Polygon = {
      type: 'Polygon',
      coordinates: [
        cell.coordinates[0]!,
        [
          [0.25, 0.25],
          [0.25, 0.75],
          [0.75, 0.75],
          [0.75, 0.25],
          [0.25, 0.25],
        ],
      ],
    }
    expect(geodesicArea(withHole) / geodesicArea(cell)).toBeCloseTo(0.75, 2)
    expect(geodesicArea({ type: 'Point', coordinates: [77, 28] })).toBe(0)
    expect(
      geodesicArea({
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 0],
        ],
      }),
    ).toBe(0)
  })

  it('measures one degree of the equator as R·π/180 ≈ 111.195 km, and polygons as no length', () => {
    const line = {
      type: 'LineString' as const,
      coordinates: [
        [0, 0],
        [0.5, 0],
        [1, 0],
      ],
    }
    expect(geodesicLength(line)).toBeCloseTo(R * rad(1), 0)
    expect(geodesicLength(cell)).toBe(0)
  })

  it('formats areas in m² or km² and lengths in m or km, grouped with commas', () => {
    expect(formatArea(950)).toBe('950 m²')
    expect(formatArea(99_999)).toBe('99,999 m²')
    expect(formatArea(250_000)).toBe('0.25 km²')
    expect(formatArea(1_234_500_000)).toBe('1,234.5 km²')
    expect(formatLength(850.4)).toBe('850 m')
    expect(formatLength(12_345)).toBe('12.35 km')
    expect(formatLength(1_234_500)).toBe('1,234.5 km')
    expect(formatMeasure(cell)).toBe('12,363.7 km²')
    expect(formatMeasure({ type: 'Point', coordinates: [0, 0] })).toBeNull()
  })
})
