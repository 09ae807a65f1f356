import { describe, expect, it } from 'vitest'
import { parseShapeFile } from '../../../src/geo/shape-import'

const polygon = {
  type: 'Polygon',
  coordinates: [
    [
      [77, 28],
      [78, 28],
      [78, 29],
      [77, 29],
      [77, 28],
    ],
  ],
}

const KML = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document>
  <Placemark><name>Delhi box</name><Polygon><outerBoundaryIs><LinearRing>
    <coordinates>77,28 78,28 78,29 77,29 77,28</coordinates>
  </LinearRing></outerBoundaryIs></Polygon></Placemark>
  <Placemark><name>Agra</name><Point><coordinates>78.0081,27.1767,0</coordinates></Point></Placemark>
</Document></kml>`

describe('parseShapeFile', () => {
  it('reads a FeatureCollection, a Feature or a bare geometry from GeoJSON', () => {
    const fc = {
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: { name: 'A' }, geometry: polygon }],
    }
    expect(parseShapeFile('a.geojson', JSON.stringify(fc))).toEqual(fc.features)
    expect(parseShapeFile('b.json', JSON.stringify(fc.features[0]))).toHaveLength(1)
    expect(parseShapeFile('c.geojson', JSON.stringify(polygon))[0]!.geometry).toEqual(polygon)
  })

  it('reads KML placemarks with their names', () => {
    const features = parseShapeFile('places.kml', KML)
    expect(features.map((f) => f.properties?.['name'])).toEqual(['Delhi box', 'Agra'])
    expect(features[0]!.geometry).toEqual(polygon)
    expect(features[1]!.geometry).toEqual({ type: 'Point', coordinates: [78.0081, 27.1767, 0] })
  })

  it('names the file and the problem when it cannot be used', () => {
    expect(() => parseShapeFile('bad.geojson', '{"type": ')).toThrow(/^bad\.geojson: not valid JSON/)
    expect(() => parseShapeFile('x.geojson', '{"type":"Topology"}')).toThrow(/found type "Topology"/)
    expect(() => parseShapeFile('e.geojson', '{"type":"FeatureCollection","features":[]}')).toThrow(
      /e\.geojson: holds no shapes/,
    )
    expect(() =>
      parseShapeFile(
        'm.geojson',
        JSON.stringify({
          type: 'FeatureCollection',
          crs: { properties: { name: 'EPSG:3857' } },
          features: [],
        }),
      ),
    ).toThrow(/CRS other than WGS84/)
    expect(() =>
      parseShapeFile('far.geojson', JSON.stringify({ type: 'Point', coordinates: [77, 95] })),
    ).toThrow(/far\.geojson: file\.features\.0\.geometry\.coordinates: latitude 95 is outside -90\.\.90/)
    expect(() => parseShapeFile('broken.kml', '<kml><Document>')).toThrow(/broken\.kml: not well-formed XML/)
    expect(() => parseShapeFile('notes.txt', 'hello')).toThrow(/\.geojson, \.json or \.kml/)
  })
})
