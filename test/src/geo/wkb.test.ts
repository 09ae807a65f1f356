import GeoJSON from 'ol/format/GeoJSON'
import WKB from 'ol/format/WKB'
import WKT from 'ol/format/WKT'
import { describe, expect, it } from 'vitest'
import { parseHexWkb } from '../../../src/geo/wkb'

const wkt = new WKT()
const geojson = new GeoJSON()

/** Hex WKB written by OpenLayers (an independent writer), in either byte order, optionally with an SRID (EWKB). */
function hexOf(
  text: string,
  options: { littleEndian?: boolean; srid?: number | false; ewkb?: boolean } = {},
): string {
  const writer = new WKB({
    hex: true,
    littleEndian: options.littleEndian ?? true,
    ewkb: options.ewkb ?? false,
    srid: options.srid ?? false,
  })
  return writer.writeGeometry(wkt.readGeometry(text)) as string
}

const SHAPES = [
  'POINT (72.88 19.07)',
  'LINESTRING (77.2 28.6, 72.88 19.07)',
  'POLYGON ((70 20, 80 20, 80 30, 70 30, 70 20), (72 22, 72 24, 74 24, 72 22))',
  'MULTIPOINT ((1 2), (3 4))',
  'MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))',
  'GEOMETRYCOLLECTION (POINT (1 2), LINESTRING (1 2, 3 4))',
]

describe('parseHexWkb', () => {
  it.each(SHAPES)('reads little- and big-endian WKB and EWKB of %s', (text) => {
    const expected = geojson.writeGeometryObject(wkt.readGeometry(text))
    expect(parseHexWkb(hexOf(text))).toEqual(expected)
    expect(parseHexWkb(hexOf(text, { littleEndian: false }))).toEqual(expected)
    expect(parseHexWkb(hexOf(text, { ewkb: true, srid: 4326 }))).toEqual(expected)
  })

  it('reads PostGIS EWKB with SRID 4326 as PostGIS prints it', () => {
    // SELECT ST_AsEWKB('SRID=4326;POINT(1 2)') in hex.
    expect(parseHexWkb('0101000020E6100000000000000000F03F0000000000000040')).toEqual({
      type: 'Point',
      coordinates: [1, 2],
    })
  })

  it('drops Z ordinates (ISO 1001 and EWKB Z flag)', () => {
    expect(parseHexWkb('01E9030000000000000000F03F00000000000000400000000000000840')).toEqual({
      type: 'Point',
      coordinates: [1, 2],
    })
    expect(parseHexWkb('0101000080000000000000F03F00000000000000400000000000000840')).toEqual({
      type: 'Point',
      coordinates: [1, 2],
    })
  })

  it('returns null for hex that is not complete WKB and for ordinary values', () => {
    expect(parseHexWkb('0101000000000000000000F03F')).toBeNull() // cut short
    expect(parseHexWkb('0101000000000000000000F03F0000000000000040FF')).toBeNull() // trailing byte
    expect(parseHexWkb('0109000000')).toBeNull() // unknown type
    expect(parseHexWkb('011234')).toBeNull()
    expect(parseHexWkb('Mumbai')).toBeNull()
  })
})
