import { describe, expect, it } from 'vitest'
import { xyzAttribution } from '../../../../../src/features/map/view/xyz-attribution'

describe('xyzAttribution', () => {
  it('credits OpenStreetMap contributors for OpenStreetMap tiles', () => {
    expect(xyzAttribution('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe(
      '© OpenStreetMap contributors',
    )
    expect(xyzAttribution('https://{a-c}.tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe(
      '© OpenStreetMap contributors',
    )
  })

  it('names the host of any other tile source', () => {
    expect(xyzAttribution('https://tiles.example.test/{z}/{x}/{y}.png')).toBe('Tiles: tiles.example.test')
    expect(xyzAttribution('https://openstreetmap.org.evil.test/{z}/{x}/{y}.png')).toBe(
      'Tiles: openstreetmap.org.evil.test',
    )
  })
})
