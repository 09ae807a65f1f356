import { describe, expect, it } from 'vitest'
import { detectGeometry, findGeometryKey } from '../../../src/geo/geometry-value'

describe('detectGeometry', () => {
  it('finds geometry written as WKT, GeoJSON text or hex EWKB, and says which', () => {
    expect(detectGeometry('POINT (72.88 19.07)')).toEqual({
      encoding: 'wkt',
      geometry: { type: 'Point', coordinates: [72.88, 19.07] },
    })
    expect(detectGeometry('{"type":"LineString","coordinates":[[1,2],[3,4]]}')).toEqual({
      encoding: 'geojson',
      geometry: {
        type: 'LineString',
        coordinates: [
          [1, 2],
          [3, 4],
        ],
      },
    })
    expect(detectGeometry('0101000020E6100000000000000000F03F0000000000000040')?.encoding).toBe('wkb')
  })

  it('leaves ordinary values alone: names, numbers, JSON that is not geometry, malformed coordinates', () => {
    for (const value of [
      'Mumbai',
      '12442373',
      '0101',
      '{"name":"x"}',
      '{"type":"Point","coordinates":["a","b"]}',
      '',
    ])
      expect(detectGeometry(value)).toBeNull()
  })
})

describe('findGeometryKey', () => {
  it('picks the column whose non-empty values are all geometry', () => {
    const rows = [
      { prop1: 'Mumbai', prop2: '12442373', prop3: 'POINT (72.88 19.07)' },
      { prop1: 'Pune', prop2: '3124458', prop3: '' },
    ]
    const valuesOf = (key: string) => rows.map((r) => r[key as keyof (typeof rows)[0]])
    expect(findGeometryKey(valuesOf, ['prop1', 'prop2', 'prop3'])).toBe('prop3')
    expect(findGeometryKey(valuesOf, ['prop1', 'prop2'])).toBeNull()
    expect(findGeometryKey(() => ['', ' '], ['empty'])).toBeNull()
  })
})
