import { describe, expect, it } from 'vitest'
import { boxCovers, SNAP_LIMIT_M } from '../../../../electron/contract/routing/coverage'
import { geodesicDistance } from '../../../../shared/geodesy'

/** The bundled sample's box (Gothenburg). */
const BOX: [number, number, number, number] = [11.86, 57.648, 12.094, 57.762]

describe('which positions a road network can place', () => {
  it('covers its box widened by the snap limit, measured on the ground, and nothing beyond', () => {
    expect(SNAP_LIMIT_M).toBe(2000)
    expect(boxCovers(BOX, 11.97, 57.7)).toBe(true)
    // East of the box at its middle latitude: 1.9 km out is placed, 2.1 km out is not.
    const lat = 57.7
    const lonAt = (metres: number) => {
      let lon = BOX[2]
      while (geodesicDistance(BOX[2], lat, lon, lat) < metres) lon += 0.00001
      return lon
    }
    expect(boxCovers(BOX, lonAt(1900), lat)).toBe(true)
    expect(boxCovers(BOX, lonAt(2100), lat)).toBe(false)
    // North of it likewise (a degree of latitude is about 111 km).
    expect(boxCovers(BOX, 11.97, BOX[3] + 1900 / 111_195)).toBe(true)
    expect(boxCovers(BOX, 11.97, BOX[3] + 2100 / 111_195)).toBe(false)
    // India is nowhere near.
    expect(boxCovers(BOX, 77.21, 28.61)).toBe(false)
  })
})
