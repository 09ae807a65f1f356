import { describe, expect, it } from 'vitest'
import { formatLonLat, wrapLongitude } from '../../../src/geo/coordinates'

describe('formatLonLat', () => {
  it('prints longitude first with five decimals', () => {
    expect(formatLonLat([77.2090212, 28.6138954])).toBe('lon 77.20902, lat 28.61390')
  })

  it('keeps the sign of western and southern coordinates', () => {
    expect(formatLonLat([-0.1275, -33.5])).toBe('lon -0.12750, lat -33.50000')
  })

  it('wraps longitudes of a repeated world back into [-180, 180]', () => {
    expect(formatLonLat([77.2 + 360, 10], 1)).toBe('lon 77.2, lat 10.0')
    expect(wrapLongitude(-190)).toBe(170)
    expect(wrapLongitude(180)).toBe(180)
  })
})
