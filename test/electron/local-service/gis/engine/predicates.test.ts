import type { Geometry } from 'geojson'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { feature, names, runService, square, userGeometry, type Running } from '../../helpers'

/** Hand-made boundary cases against the square (0,0)–(10,10), read as operator(source feature, square). */
const shapes: Record<string, Geometry | null> = {
  p_inside: { type: 'Point', coordinates: [5, 5] },
  p_boundary: { type: 'Point', coordinates: [10, 5] },
  p_outside: { type: 'Point', coordinates: [20, 20] },
  touch_corner: square(10, 10, 12, 12),
  shared_edge: square(10, 0, 20, 10),
  overlap: square(5, 5, 15, 15),
  equal: {
    type: 'Polygon',
    coordinates: [
      [
        [10, 10],
        [0, 10],
        [0, 0],
        [10, 0],
        [10, 10],
      ],
    ],
  },
  inner: square(2, 2, 3, 3),
  line_cross: {
    type: 'LineString',
    coordinates: [
      [-5, 5],
      [15, 5],
    ],
  },
  multi_half: {
    type: 'MultiPolygon',
    coordinates: [square(1, 1, 2, 2), square(30, 30, 31, 31)].map((g) => (g as GeoJSON.Polygon).coordinates),
  },
  collection: {
    type: 'GeometryCollection',
    geometries: [
      { type: 'Point', coordinates: [5, 5] },
      {
        type: 'LineString',
        coordinates: [
          [20, 20],
          [21, 21],
        ],
      },
    ],
  },
}

let svc: Running

beforeAll(async () => {
  svc = await runService({
    shapes: Object.entries(shapes).map(([name, g]) => feature(g, { name })),
    frame: [feature(square(0, 0, 10, 10), { label: 'frame' })],
  })
})
afterAll(() => svc.stop())

const spatial = (operator: string, extra: Record<string, string | number> = {}) => ({
  queryType: 'spatialOperation',
  datasetSource: 'shapes',
  operator,
  sourceProperty: 'geom',
  selectionParamSource: 'name',
  ...extra,
})

const expected: Record<string, string[]> = {
  Within: ['equal', 'inner', 'p_inside'],
  Contains: ['equal'],
  Intersects: [
    'collection',
    'equal',
    'inner',
    'line_cross',
    'multi_half',
    'overlap',
    'p_boundary',
    'p_inside',
    'shared_edge',
    'touch_corner',
  ],
  Disjoint: ['p_outside'],
  Touches: ['p_boundary', 'shared_edge', 'touch_corner'],
  Overlaps: ['multi_half', 'overlap'],
  Equals: ['equal'],
  // The collection's point lies inside and its line outside: T*T****** for dimension 1 against 2, so it crosses.
  Crosses: ['collection', 'line_cross'],
}

describe('spatial predicates with GEOS semantics, operator(source, reference)', () => {
  for (const [operator, want] of Object.entries(expected)) {
    it(`${operator} against a user geometry`, async () => {
      const { status, json } = await svc.join(
        { ...spatial(operator), userGeom: 'true' },
        userGeometry(square(0, 0, 10, 10)),
      )
      expect(status).toBe(200)
      expect(names(json)).toEqual(want)
    })
    it(`${operator} against a reference dataset gives the same rows`, async () => {
      const { status, json } = await svc.join({ ...spatial(operator), datasetRef: 'frame' })
      expect(status).toBe(200)
      expect(names(json)).toEqual(want)
    })
  }

  it('a hole is outside: a point in the hole is disjoint, one on its edge touches', async () => {
    const holed: Geometry = {
      type: 'Polygon',
      coordinates: [
        (square(0, 0, 10, 10) as GeoJSON.Polygon).coordinates[0]!,
        (square(4, 4, 6, 6) as GeoJSON.Polygon).coordinates[0]!,
      ],
    }
    const within = await svc.join({ ...spatial('Within'), userGeom: 'true' }, userGeometry(holed))
    expect(names(within.json)).toEqual(['inner'])
    const pointsOnly = await svc.join({ ...spatial('Disjoint'), userGeom: 'true' }, userGeometry(holed))
    expect(names(pointsOnly.json)).toContain('p_inside')
  })

  it('a source feature matching two user geometries yields one row per pair', async () => {
    const { json } = await svc.join(
      { ...spatial('Within'), userGeom: 'true' },
      userGeometry(square(0, 0, 10, 10), square(4, 4, 6, 6)),
    )
    expect(names(json)).toEqual(['equal', 'inner', 'p_inside', 'p_inside'])
  })
})

describe('near the pole and on the ellipsoid', () => {
  let polar: Running
  beforeAll(async () => {
    polar = await runService({
      pts: [
        feature({ type: 'Point', coordinates: [45, 88] }, { name: 'polar_in' }),
        feature({ type: 'Point', coordinates: [90, 89.9] }, { name: 'polar_far_lon' }),
        feature({ type: 'Point', coordinates: [0, 0.045] }, { name: 'eq_north' }),
        feature({ type: 'Point', coordinates: [0, 1.045] }, { name: 'above_edge' }),
        feature(square(0.05, -0.01, 0.1, 0.01), { name: 'east_square' }),
      ],
    })
  })
  afterAll(() => polar.stop())
  const q = (operator: string, extra: Record<string, string | number> = {}) => ({
    queryType: 'spatialOperation',
    datasetSource: 'pts',
    operator,
    sourceProperty: 'geom',
    selectionParamSource: 'name',
    userGeom: 'true',
    ...extra,
  })

  it('Within a near-pole polygon', async () => {
    const { json } = await polar.join(q('Within'), userGeometry(square(0, 85, 90, 89)))
    expect(names(json)).toEqual(['polar_in'])
  })

  it('DWithin near the pole finds a point 90° of longitude away (about 15.7 km) but not within 10 km', async () => {
    const ref = userGeometry({ type: 'Point', coordinates: [0, 89.9] })
    expect(names((await polar.join(q('DWithin', { distance: 20000 }), ref)).json)).toEqual(['polar_far_lon'])
    expect((await polar.join(q('DWithin', { distance: 10000 }), ref)).status).toBe(404)
  })

  it('DWithin measures metres on the ellipsoid: 0.045° of latitude at the equator is about 4976 m', async () => {
    const ref = userGeometry({ type: 'Point', coordinates: [0, 0] })
    expect(names((await polar.join(q('DWithin', { distance: 4980 }), ref)).json)).toEqual(['eq_north'])
    expect((await polar.join(q('DWithin', { distance: 4970 }), ref)).status).toBe(404)
  })

  it('DWithin of a polygon measures to its nearest edge: 0.05° of longitude at the equator is about 5566 m', async () => {
    const ref = userGeometry({ type: 'Point', coordinates: [0, 0] })
    const near = await polar.join(q('DWithin', { distance: 5570 }), ref)
    expect(names(near.json)).toEqual(['east_square', 'eq_north'])
    expect(names((await polar.join(q('DWithin', { distance: 5560 }), ref)).json)).toEqual(['eq_north'])
  })

  it('DWithin follows the great circle of an edge (it bulges poleward), as PostGIS geography does', async () => {
    const edge = userGeometry({
      type: 'LineString',
      coordinates: [
        [-1, 1],
        [1, 1],
      ],
    })
    // Straight on the lon/lat plane the point is 0.045° (≈4976 m) away; to the great-circle edge it is closer.
    expect(names((await polar.join(q('DWithin', { distance: 4966 }), edge)).json)).toEqual(['above_edge'])
    expect((await polar.join(q('DWithin', { distance: 4950 }), edge)).status).toBe(404)
  })
})
