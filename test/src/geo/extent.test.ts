import type { FeatureCollection } from 'geojson'
import { describe, expect, it } from 'vitest'
import { boxOfKind } from '../../../src/geo/extent'

const collection: FeatureCollection = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { kind: 'state' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [70, 10],
            [80, 10],
            [80, 20],
            [70, 10],
          ],
        ],
      },
    },
    {
      type: 'Feature',
      properties: { kind: 'state' },
      geometry: { type: 'Point', coordinates: [90, 30] },
    },
    {
      type: 'Feature',
      properties: { kind: 'country' },
      geometry: { type: 'Point', coordinates: [120, 40] },
    },
  ],
}

describe('boxOfKind', () => {
  it('bounds only the features of the asked kind', () => {
    expect(boxOfKind(collection, 'state')).toEqual([70, 10, 90, 30])
  })

  it('names the kind it could not find', () => {
    expect(() => boxOfKind(collection, 'city')).toThrow('no features of kind "city"')
  })
})
