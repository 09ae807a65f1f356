import type { Geometry } from 'geojson'
import { beforeAll, describe, expect, it } from 'vitest'
import type { JoinParams } from '../../../../../electron/contract/gis/join-params'
import { geodesicArea, geodesicLength } from '../../../../../shared/geodesy'
import { geographyProxy } from '../../../../../electron/local-service/engine/geography'
import { loadGeos, type Geos } from '../../../../../electron/local-service/engine/geos'
import { runJoin, tableFromFeatures } from '../../../../../electron/local-service/gis/engine/join'

/**
 * DWithin reads geometries as PostGIS reads `geography`: edges are great-circle arcs (the short way, also
 * across ±180°), containment is on the sphere. Every expectation below is what PostGIS 3.3.2 answered for
 * `ST_DWithin(a::geography, b::geography, d)` (and `ST_Distance`, noted), so the cases are the contract.
 */

let geos: Geos
beforeAll(async () => {
  geos = await loadGeos()
})

const polygon = (ring: Array<[number, number]>): Geometry => ({ type: 'Polygon', coordinates: [ring] })
const point = (x: number, y: number): Geometry => ({ type: 'Point', coordinates: [x, y] })

/**
 * Whether `source` lies within `metres` of `ref`, by the engine: as two datasets (either side driving) and
 * with `ref` as a user geometry (unless it is not valid as a planar drawing, like a ring round a pole).
 */
function dwithin(source: Geometry, ref: Geometry, metres: number, asDrawing = true): boolean {
  const params: JoinParams = {
    queryType: 'spatialOperation',
    datasetSource: 'a',
    datasetRef: 'b',
    operator: 'DWithin',
    distance: metres,
    sourceProperty: 'geom',
  }
  const a = tableFromFeatures('a', [{ geometry: source, properties: {} }])
  const b = tableFromFeatures('b', [{ geometry: ref, properties: {} }])
  const answers = [
    runJoin(geos, { params, source: a, ref: b, rowCap: 10, drive: 'ref' }).pairs.length === 1,
    runJoin(geos, { params, source: a, ref: b, rowCap: 10, drive: 'source' }).pairs.length === 1,
    ...(asDrawing
      ? [runJoin(geos, { params, source: a, ref: b, rowCap: 10, refIsUserGeometry: true }).pairs.length === 1]
      : []),
  ]
  expect(new Set(answers).size, 'every plan answers alike').toBe(1)
  return answers[0]!
}

// A 3° edge along lat 30: its great-circle arc bulges ~0.0085° (about 0.9 km) north of the parallel.
const southOfEdge = polygon([
  [0, 30],
  [3, 30],
  [3, 27],
  [0, 27],
  [0, 30],
])
const northOfEdge = polygon([
  [0, 30],
  [0, 33],
  [3, 33],
  [3, 30],
  [0, 30],
])
// 2° × 2° around (180, 0), written across the antimeridian.
const acrossAntimeridian = polygon([
  [179, -1],
  [-179, -1],
  [-179, 1],
  [179, 1],
  [179, -1],
])

describe('DWithin on the sphere', () => {
  it('a point between a long edge and its arc is inside the polygon south of it (PostGIS: covers, distance 0)', () => {
    expect(dwithin(point(1.5, 30.004), southOfEdge, 0)).toBe(true)
    expect(dwithin(point(1.5, 30.004), southOfEdge, 10)).toBe(true)
  })

  it('and outside the polygon north of it, 499 m from the arc (PostGIS: 499.267 m)', () => {
    expect(dwithin(point(1.5, 30.004), northOfEdge, 0)).toBe(false)
    expect(dwithin(point(1.5, 30.004), northOfEdge, 10)).toBe(false)
    expect(dwithin(point(1.5, 30.004), northOfEdge, 400)).toBe(false)
    expect(dwithin(point(1.5, 30.004), northOfEdge, 1000)).toBe(true)
  })

  it('a polygon between the edge and its arc is in the same case', () => {
    const sliver = polygon([
      [1.4, 30.002],
      [1.6, 30.002],
      [1.6, 30.005],
      [1.4, 30.005],
      [1.4, 30.002],
    ])
    expect(dwithin(sliver, southOfEdge, 0)).toBe(true)
    expect(dwithin(sliver, northOfEdge, 10)).toBe(false)
  })
})

describe('DWithin across the antimeridian', () => {
  it('a polygon written across ±180° is the small square there, not the band round the world', () => {
    expect(dwithin(point(-179.5, 0), acrossAntimeridian, 0)).toBe(true)
    expect(dwithin(point(180, 0), acrossAntimeridian, 0)).toBe(true)
    expect(dwithin(point(179.5, 0.5), acrossAntimeridian, 0)).toBe(true)
    // PostGIS: 19,860 km away.
    expect(dwithin(point(0, 0), acrossAntimeridian, 1000)).toBe(false)
    // PostGIS: 1,113.195 m.
    expect(dwithin(point(178.99, 0), acrossAntimeridian, 1000)).toBe(false)
    expect(dwithin(point(178.99, 0), acrossAntimeridian, 2000)).toBe(true)
  })

  it('finds a point on the other side of ±180° within the distance (PostGIS: 1,669.792 m)', () => {
    const east = polygon([
      [-179.99, -1],
      [-179, -1],
      [-179, 1],
      [-179.99, 1],
      [-179.99, -1],
    ])
    expect(dwithin(point(179.995, 0), east, 1000)).toBe(false)
    expect(dwithin(point(179.995, 0), east, 2000)).toBe(true)
    expect(dwithin(point(179.995, 0), point(-179.995, 0), 1200)).toBe(true)
  })

  it('a line across ±180° goes the short way (PostGIS: 1,105.743 m from (-179.5, 0.01))', () => {
    const line: Geometry = {
      type: 'LineString',
      coordinates: [
        [179, 0],
        [-179, 0],
      ],
    }
    expect(dwithin(point(0, 0), line, 1000)).toBe(false)
    expect(dwithin(point(-179.5, 0.01), line, 1000)).toBe(false)
    expect(dwithin(point(-179.5, 0.01), line, 1200)).toBe(true)
    // Two lines crossing at (180, 0) with no vertex near the crossing.
    const meridian: Geometry = {
      type: 'LineString',
      coordinates: [
        [180, -2],
        [180, 2],
      ],
    }
    expect(dwithin(meridian, line, 0)).toBe(true)
  })

  it('measures area and length across ±180° on the ellipsoid (PostGIS: 49,238,887,518.55 m², 222,638.98 m)', () => {
    expect(geodesicArea(acrossAntimeridian)).toBeCloseTo(49_238_887_518.55, -3)
    expect(
      geodesicLength({
        type: 'LineString',
        coordinates: [
          [179, 0],
          [-179, 0],
        ],
      }),
    ).toBeCloseTo(222_638.98, 1)
  })
})

describe('the geography proxy', () => {
  it('puts a long edge on its arc within the tolerance, and leaves short edges alone', () => {
    const proxy = geographyProxy(geos, southOfEdge, 1)
    expect(proxy.changed).toBe(true)
    const ring = (proxy.geometry as GeoJSON.Polygon).coordinates[0]!
    // The top edge's midpoint now lies on the arc, north of lat 30.
    expect(Math.max(...ring.map((p) => p[1]!))).toBeGreaterThan(30.008)
    expect(geographyProxy(geos, southOfEdge, 5000).changed).toBe(false)
  })

  it('cuts a shape across ±180° into parts within −180…180', () => {
    const proxy = geographyProxy(geos, acrossAntimeridian, 1)
    expect(proxy.geometry.type).toBe('MultiPolygon')
    expect(proxy.parts).toHaveLength(2)
    for (const [minX, , maxX] of proxy.parts) {
      expect(minX).toBeGreaterThanOrEqual(-180)
      expect(maxX).toBeLessThanOrEqual(180)
    }
    // Together the parts keep the square's area.
    expect(geodesicArea(proxy.geometry)).toBeCloseTo(geodesicArea(acrossAntimeridian), -6)
  })

  it('closes a ring round a pole through the pole', () => {
    const cap = polygon([
      [0, 80],
      [90, 80],
      [180, 80],
      [-90, 80],
      [0, 80],
    ])
    const proxy = geographyProxy(geos, cap, 100)
    const lats = proxy.parts.map((b) => b[3])
    expect(Math.max(...lats)).toBe(90)
    expect(dwithin(point(45, 89), cap, 0, false)).toBe(true)
    expect(dwithin(point(45, 70), cap, 0, false)).toBe(false)
  })
})
