import type { Polygon } from 'geojson'
import { describe, expect, it } from 'vitest'
import { rewindGeometry, rfc7946Problems, ringSignedArea } from '../../shared/geojson'

const clockwise: Polygon = {
  type: 'Polygon',
  coordinates: [
    [
      [70, 20],
      [70, 30],
      [80, 30],
      [80, 20],
      [70, 20],
    ],
    [
      [72, 22],
      [74, 22],
      [74, 24],
      [72, 24],
      [72, 22],
    ],
  ],
}

describe('RFC 7946 winding', () => {
  it('rewinds outer rings counter-clockwise and holes clockwise, without touching the input', () => {
    const before = structuredClone(clockwise)
    const fixed = rewindGeometry(clockwise)
    expect(ringSignedArea(fixed.coordinates[0]!)).toBeGreaterThan(0)
    expect(ringSignedArea(fixed.coordinates[1]!)).toBeLessThan(0)
    expect(clockwise).toEqual(before)
    expect(
      rfc7946Problems({
        type: 'FeatureCollection',
        features: [{ type: 'Feature', properties: {}, geometry: fixed }],
      }),
    ).toEqual([])
  })

  it('names what breaks the rules: a clockwise outer ring, a position out of lon/lat range', () => {
    const problems = rfc7946Problems({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: {}, geometry: clockwise },
        { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [8_000_000, 2_000_000] } },
      ],
    })
    expect(problems).toContain('features.0: outer ring is clockwise')
    expect(problems).toContain('features.1: not lon/lat')
  })
})
