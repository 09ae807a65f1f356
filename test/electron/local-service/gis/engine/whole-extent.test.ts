import type { Geometry, Polygon } from 'geojson'
import { beforeAll, describe, expect, it } from 'vitest'
import { mulberry32 } from '../../../../../bench/join-data'
import type { JoinParams } from '../../../../../electron/contract/gis/join-params'
import { destroy, loadGeos, toGeos, type Geos } from '../../../../../electron/local-service/engine/geos'
import { runJoin, type FeatureTable } from '../../../../../electron/local-service/gis/engine/join'
import { readFlatGeobufTable, writeFlatGeobuf } from '../../../../../electron/local-service/workspace/fgb'
import type { DatasetFeature, FieldInfo } from '../../../../../electron/local-service/workspace/features'
import { buildIndex } from '../../../../../electron/local-service/workspace/workspace'
import { square } from '../../helpers'

/**
 * Joins whose driving polygon's box holds every probed feature (a polygon drawn around a whole point
 * dataset), against GEOS asked pair by pair: the engine then takes every feature as a candidate without
 * searching the R-tree, and its grid decides most of them. The points sit on a half-unit lattice over
 * 0..10, so many lie exactly on the polygons' edges and corners.
 */

const FIELDS: FieldInfo[] = [{ name: 'id', type: 'number' }]
const random = mulberry32(5)

function lattice(count: number): DatasetFeature[] {
  const at = () => Math.floor(random() * 21) / 2
  return Array.from({ length: count }, (_, id) => ({
    geometry: { type: 'Point', coordinates: [at(), at()] },
    properties: { id },
  }))
}

const ring = (...xy: number[]): number[][] => {
  const r: number[][] = []
  for (let i = 0; i < xy.length; i += 2) r.push([xy[i]!, xy[i + 1]!])
  return [...r, r[0]!]
}

/** Polygons whose box holds the whole lattice (0..10), most of which do not hold every point. */
const covers: Record<string, Geometry> = {
  // Edges on the lattice's extent: the points on them are on the boundary, not within.
  extent: square(0, 0, 10, 10),
  around: square(-1, -1, 11, 11),
  triangle: { type: 'Polygon', coordinates: [ring(-1, -1, 11, -1, -1, 11)] },
  notch: { type: 'Polygon', coordinates: [ring(0, 0, 10, 0, 10, 10, 5, 10, 5, 5, 0, 5)] },
  hole: {
    type: 'Polygon',
    coordinates: [ring(-1, -1, 11, -1, 11, 11, -1, 11), ring(2, 2, 7, 2, 7, 7, 2, 7)],
  },
  multi: {
    type: 'MultiPolygon',
    coordinates: [
      (square(0, 0, 4, 10) as Polygon).coordinates,
      (square(6, 0, 10, 10) as Polygon).coordinates,
    ],
  },
}

const OPERATORS = ['Intersects', 'Within', 'Contains', 'Disjoint', 'Touches', 'Overlaps', 'Crosses', 'Equals']

/** A dataset as a feature list, and as the service reads a point dataset (column-wise). */
function tables(name: string, features: DatasetFeature[]): FeatureTable[] {
  const index = buildIndex(features)
  const list: FeatureTable = { name, features, fields: ['id'], index }
  const points = readFlatGeobufTable(writeFlatGeobuf(features, FIELDS)).points
  if (!points) return [list]
  const columns: FeatureTable = {
    name,
    fields: ['id'],
    index,
    points,
    get features() {
      return points.features()
    },
  }
  return [list, columns]
}

/** Counts the R-tree searches made on a table. */
function counted(table: FeatureTable): { table: FeatureTable; searches: () => number } {
  let n = 0
  const index = table.index
  const search: typeof index.search = (...args) => {
    n++
    return index.search(...args)
  }
  return { table: { ...table, index: Object.assign(Object.create(index), { search }) }, searches: () => n }
}

let geos: Geos
beforeAll(async () => {
  geos = await loadGeos()
})

/** operator(source feature, reference feature) for every pair, by GEOS, in reference then source order. */
function expected(
  operator: string,
  source: readonly DatasetFeature[],
  ref: readonly DatasetFeature[],
): Array<[number, number]> {
  const fn = `GEOS${operator}` as 'GEOSWithin'
  const ptrs = (features: readonly DatasetFeature[]) =>
    features.map((f) => (f.geometry ? toGeos(geos, f.geometry) : undefined))
  const s = ptrs(source)
  const r = ptrs(ref)
  const pairs: Array<[number, number]> = []
  for (let j = 0; j < ref.length; j++)
    for (let i = 0; i < source.length; i++) {
      const a = s[i]
      const b = r[j]
      const holds = a === undefined || b === undefined ? operator === 'Disjoint' : geos[fn](a, b) === 1
      if (holds) pairs.push([i, j])
    }
  for (const p of [...s, ...r]) if (p !== undefined) destroy(geos, p)
  return pairs
}

function join(
  operator: string,
  source: FeatureTable,
  ref: FeatureTable,
  drive: 'ref' | 'source',
  rowCap = 100_000,
): Array<[number, number]> {
  const params = {
    queryType: 'spatialOperation',
    operator,
    sourceProperty: 'geom',
    datasetSource: source.name,
  }
  return runJoin(geos, { params: params as JoinParams, source, ref, rowCap, drive }).pairs.toArray()
}

describe('a driving polygon whose box holds every probed feature', () => {
  const points = lattice(300)

  it('answers what GEOS answers pair by pair, every operator, the points as source or reference', () => {
    for (const [name, geometry] of Object.entries(covers)) {
      const polygon: DatasetFeature[] = [{ geometry, properties: { id: 0 } }]
      for (const pts of tables('pts', points)) {
        const poly = tables('poly', polygon)[0]!
        for (const operator of OPERATORS) {
          const want = expected(operator, points, polygon)
          // The polygon drives (the points probed), then the points drive and the polygon is probed.
          expect(join(operator, pts, poly, 'ref'), `${name} ${operator} drive ref`).toEqual(want)
          expect(join(operator, pts, poly, 'source'), `${name} ${operator} drive source`).toEqual(want)
          const conversely = expected(operator, polygon, points)
          expect(join(operator, poly, pts, 'source'), `${name} ${operator} polygon source`).toEqual(
            conversely,
          )
          expect(join(operator, poly, pts, 'ref'), `${name} ${operator} points ref`).toEqual(conversely)
        }
      }
      // The lattice has points inside, outside and on the edges of every cover but the one around it.
      const within = expected('Within', points, polygon).length
      if (name !== 'around') expect(within, name).toBeGreaterThan(0)
      if (name !== 'around') expect(within, name).toBeLessThan(points.length)
    }
  })

  it('takes every point without searching the R-tree, and searches it when a point lies outside the box', () => {
    const polygon: DatasetFeature[] = [{ geometry: covers.notch!, properties: { id: 0 } }]
    const poly = tables('poly', polygon)[0]!
    const inside = counted(tables('pts', points)[1]!)
    expect(join('Within', inside.table, poly, 'ref')).toEqual(expected('Within', points, polygon))
    expect(inside.searches()).toBe(0)
    const further: DatasetFeature[] = [
      ...points,
      { geometry: { type: 'Point', coordinates: [10.5, 3] }, properties: { id: 300 } },
    ]
    const outside = counted(tables('pts', further)[1]!)
    expect(join('Within', outside.table, poly, 'ref')).toEqual(expected('Within', further, polygon))
    expect(outside.searches()).toBe(1)
  })

  it('leaves out features without geometry as the R-tree did', () => {
    const features: DatasetFeature[] = points.map((f, i) => (i % 7 === 3 ? { ...f, geometry: null } : f))
    // An empty polygon has no box either (GEOS reads it; it meets nothing).
    features.push({ geometry: { type: 'Polygon', coordinates: [] }, properties: { id: 300 } })
    const polygon: DatasetFeature[] = [{ geometry: covers.hole!, properties: { id: 0 } }]
    const [list] = tables('pts', features)
    const poly = tables('poly', polygon)[0]!
    for (const operator of ['Within', 'Intersects', 'Disjoint', 'Touches'])
      expect(join(operator, list!, poly, 'ref'), operator).toEqual(expected(operator, features, polygon))
  })

  it('answers for a point dataset read column-wise with a point not finite as for its feature list', () => {
    for (const odd of [NaN, Infinity, -Infinity]) {
      const features: DatasetFeature[] = points.map((f, i) =>
        i % 50 === 7 ? { ...f, geometry: { type: 'Point', coordinates: [odd, 5] } } : f,
      )
      const [list, columns] = tables('pts', features)
      expect(columns?.points).toBeDefined()
      for (const geometry of [covers.around!, covers.notch!]) {
        const poly = tables('poly', [{ geometry, properties: { id: 0 } }])[0]!
        for (const operator of OPERATORS)
          for (const drive of ['ref', 'source'] as const) {
            const what = `${odd} ${operator} ${drive}`
            expect(join(operator, columns!, poly, drive), what).toEqual(join(operator, list!, poly, drive))
            expect(join(operator, poly, columns!, drive), what).toEqual(join(operator, poly, list!, drive))
          }
      }
    }
  })

  it('keeps the first rows up to the cap when the polygons drive as the source', () => {
    const polygons: DatasetFeature[] = Object.values(covers).map((geometry, id) => ({
      geometry,
      properties: { id },
    }))
    const [list] = tables('polys', polygons)
    for (const pts of tables('pts', points)) {
      const want = expected('Contains', polygons, points)
      expect(join('Contains', list!, pts, 'source', 100_000)).toEqual(want)
      const capped = join('Contains', list!, pts, 'source', 250)
      expect(capped).toEqual(want.slice(0, 250))
    }
  })
})
