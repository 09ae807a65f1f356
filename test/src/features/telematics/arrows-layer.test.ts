import { describe, expect, it } from 'vitest'
import { headingStep } from '../../../../src/features/telematics/arrow-sprites'
import { ArrowsLayer, type ArrowData } from '../../../../src/features/telematics/arrows-layer'

/** Three devices on a line, 100 m apart, at EPSG:3857 (1000, 0), (1100, 0), (1200, 0). */
function fleet(): ArrowData {
  return {
    ids: Int32Array.from([7, 8, 9]),
    xy: Float64Array.from([1000, 0, 1100, 0, 1200, 0]),
    status: Int16Array.from([1, 2, 1]),
    heading: Float32Array.from([0, 90, 180]),
  }
}

// One map metre is one pixel; map (1000, 0) is the viewport's pixel (10, 50); y grows downwards on screen.
const TRANSFORM = [1, 0, 0, -1, -990, 50]

describe('the fleet arrows layer', () => {
  it('finds the device under the pointer, within the arrow, nearest first', () => {
    const layer = new ArrowsLayer()
    layer.setDevices(fleet())
    expect(layer.count).toBe(3)
    expect(layer.deviceAt([10, 50], TRANSFORM)).toBe(7)
    expect(layer.deviceAt([113, 53], TRANSFORM)).toBe(8)
    expect(layer.deviceAt([60, 50], TRANSFORM)).toBeNull()
    expect(layer.deviceAt([210, 50 + 12], TRANSFORM)).toBeNull()
  })

  it('picks the devices inside a shape and tells whether any lies in a view', () => {
    const layer = new ArrowsLayer()
    expect(layer.anyIn([[0, -10, 5000, 10]])).toBe(false)
    layer.setDevices(fleet())
    expect(layer.devicesWhere((x) => x >= 1050)).toEqual([8, 9])
    expect(layer.anyIn([[1050, -10, 1150, 10]])).toBe(true)
    expect(
      layer.anyIn([
        [0, -10, 900, 10],
        [1300, -10, 5000, 10],
      ]),
    ).toBe(false)
  })

  it('turns headings with the map: a device heading east on a map turned 90° points south', () => {
    expect(headingStep(90)).toBe(9)
    expect(headingStep(90, Math.PI / 2)).toBe(18)
    expect(headingStep(-10)).toBe(35)
    expect(headingStep(359)).toBe(0)
  })
})
