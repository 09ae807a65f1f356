import WKT from 'ol/format/WKT'
import GeoJSON from 'ol/format/GeoJSON'
import { describe, expect, it } from 'vitest'
import { parseWkt, toWkt } from '../../../src/geo/wkt'

const olWkt = new WKT()
const olGeoJson = new GeoJSON()
/** OpenLayers' own reading of the same text, as GeoJSON: an independent implementation to agree with. */
const viaOl = (text: string) => olGeoJson.writeGeometryObject(olWkt.readGeometry(text))

describe('parseWkt', () => {
  it.each([
    'POINT (72.88 19.07)',
    'LINESTRING (77.2 28.6, 72.88 19.07, 80.27 13.08)',
    'POLYGON ((70 20, 80 20, 80 30, 70 30, 70 20), (72 22, 72 24, 74 24, 72 22))',
    'MULTIPOINT ((1 2), (3 4))',
    'MULTILINESTRING ((1 2, 3 4), (5 6, 7 8))',
    'MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))',
    'GEOMETRYCOLLECTION (POINT (1 2), LINESTRING (1 2, 3 4))',
  ])('reads %s as OpenLayers does', (text) => {
    expect(parseWkt(text)).toEqual(viaOl(text))
  })

  it('reads EWKT with an SRID prefix, lower case, Z ordinates and the bare MULTIPOINT form', () => {
    expect(parseWkt('SRID=4326;POINT Z (72.5 19.5 12)')).toEqual({ type: 'Point', coordinates: [72.5, 19.5] })
    expect(parseWkt('point(1e1 -2.5)')).toEqual({ type: 'Point', coordinates: [10, -2.5] })
    expect(parseWkt('MULTIPOINT (1 2, 3 4)')).toEqual({
      type: 'MultiPoint',
      coordinates: [
        [1, 2],
        [3, 4],
      ],
    })
    expect(parseWkt('POLYGON EMPTY')).toEqual({ type: 'Polygon', coordinates: [] })
  })

  it('returns null for text that is not WKT, so ordinary values are not taken for geometry', () => {
    for (const text of [
      'Mumbai',
      'POINT',
      'POINT (1)',
      'POINT (1 2',
      'POINT (1 2) trailing',
      '12345',
      'Pointe Noire',
    ])
      expect(parseWkt(text)).toBeNull()
  })
})

describe('toWkt', () => {
  it('writes what parseWkt reads back unchanged', () => {
    for (const text of [
      'POINT (72.88 19.07)',
      'POLYGON ((70 20, 80 20, 80 30, 70 30, 70 20))',
      'MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))',
      'GEOMETRYCOLLECTION (POINT (1 2), LINESTRING (1 2, 3 4))',
    ]) {
      expect(toWkt(parseWkt(text))).toBe(text)
    }
    expect(toWkt(null)).toBe('')
  })
})
