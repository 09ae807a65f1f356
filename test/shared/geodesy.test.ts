import type { Polygon } from 'geojson'
import { describe, expect, it } from 'vitest'
import { geodesicArea, geodesicDistance, geodesicLength } from '../../shared/geodesy'

/**
 * Figures published with GeographicLib (Karney): the Wellington–Salamanca geodesic of the `Geodesic` docs
 * and the Antarctica polygon of the `PolygonArea` (Planimeter) docs.
 */
describe('shared geodesy on the WGS84 ellipsoid', () => {
  it('gives Wellington (41.32°S 174.81°E) to Salamanca (40.96°N 5.50°W) as 19,959,679.267 m', () => {
    expect(geodesicDistance(174.81, -41.32, -5.5, 40.96)).toBeCloseTo(19_959_679.267, 2)
    const line = {
      type: 'LineString' as const,
      coordinates: [
        [174.81, -41.32],
        [-5.5, 40.96],
      ],
    }
    expect(geodesicLength(line)).toBeCloseTo(19_959_679.267, 2)
  })

  it('gives GeographicLib’s Antarctica polygon 13,662,703,680,020.1 m² and a perimeter of 16,831,067.893 m', () => {
    const latLon = [
      [-63.1, -58],
      [-72.9, -74],
      [-71.9, -102],
      [-74.9, -102],
      [-74.3, -131],
      [-77.5, -163],
      [-77.4, 163],
      [-71.7, 172],
      [-65.9, 140],
      [-65.7, 113],
      [-66.6, 88],
      [-66.9, 59],
      [-69.8, 25],
      [-70.0, -4],
      [-71.0, -14],
      [-77.3, -33],
      [-77.9, -46],
      [-74.7, -61],
    ]
    const ring = [...latLon, latLon[0]!].map(([lat, lon]) => [lon!, lat!])
    expect(geodesicArea({ type: 'Polygon', coordinates: [ring] })).toBeCloseTo(13_662_703_680_020.1, -1)
    expect(geodesicLength({ type: 'LineString', coordinates: ring })).toBeCloseTo(16_831_067.893, 2)
  })

  it('subtracts holes, sums MultiPolygons, gives points no area and polygons no length', () => {
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
    const whole = geodesicArea(cell)
    expect(whole / 1e6).toBeCloseTo(12_308.8, 1)
    const hole = [
      [0.25, 0.25],
      [0.25, 0.75],
      [0.75, 0.75],
      [0.75, 0.25],
      [0.25, 0.25],
    ]
    expect(geodesicArea({ type: 'Polygon', coordinates: [cell.coordinates[0]!, hole] }) / whole).toBeCloseTo(
      0.75,
      2,
    )
    expect(
      geodesicArea({ type: 'MultiPolygon', coordinates: [cell.coordinates, cell.coordinates] }) / whole,
    ).toBeCloseTo(2, 6)
    expect(geodesicArea({ type: 'Point', coordinates: [77, 28] })).toBe(0)
    expect(geodesicArea(null)).toBe(0)
    expect(geodesicLength(cell)).toBe(0)
  })
})
