import type { Geometry, Position } from 'geojson'
import { beforeAll, describe, expect, it } from 'vitest'
import { mulberry32 } from '../../../../../bench/join-data'
import { SPATIAL_OPERATORS, type JoinParams } from '../../../../../electron/contract/gis/join-params'
import { loadGeos, type Geos } from '../../../../../electron/local-service/engine/geos'
import {
  joinPlan,
  runJoin,
  tableFromFeatures,
  type FeatureTable,
  type JoinInput,
} from '../../../../../electron/local-service/gis/engine/join'
import { PairList } from '../../../../../electron/local-service/gis/engine/pair-list'
import { planJoin, type SideStats } from '../../../../../electron/local-service/gis/engine/planner'

// Seeded, so a failure can be replayed.
const rnd = mulberry32(11)
const at = (n: number) => Math.round(n * 1000) / 1000

/** Star-convex polygons (always simple) of `vertices` vertices around random centres in 0..10. */
function polygons(count: number, vertices: number, radius: number): Geometry[] {
  return Array.from({ length: count }, () => {
    const cx = at(rnd() * 10)
    const cy = at(rnd() * 10)
    const ring: Position[] = []
    for (let i = 0; i < vertices; i++) {
      const a = ((i + 0.5) / vertices) * 2 * Math.PI
      const r = radius * (0.5 + rnd() * 0.5)
      ring.push([at(cx + r * Math.cos(a)), at(cy + r * Math.sin(a))])
    }
    ring.push(ring[0]!)
    return { type: 'Polygon', coordinates: [ring] }
  })
}

const points = (count: number): Geometry[] =>
  Array.from({ length: count }, () => ({ type: 'Point', coordinates: [at(rnd() * 10), at(rnd() * 10)] }))

const lines = (count: number): Geometry[] =>
  Array.from({ length: count }, () => {
    const x = rnd() * 10
    const y = rnd() * 10
    return {
      type: 'LineString',
      coordinates: [
        [at(x), at(y)],
        [at(x + rnd() * 2 - 1), at(y + rnd() * 2 - 1)],
        [at(x + rnd() * 2 - 1), at(y + rnd() * 2 - 1)],
      ],
    }
  })

function table(name: string, geometries: Array<Geometry | null>): FeatureTable {
  return tableFromFeatures(
    name,
    geometries.map((geometry, id) => ({ geometry, properties: { id } })),
  )
}

let geos: Geos
let big: FeatureTable
let small: FeatureTable
let pts: FeatureTable
let lns: FeatureTable

beforeAll(async () => {
  geos = await loadGeos()
  // Whole squares among them, so Equals, Within and Contains find pairs; a feature without geometry too.
  const square: Geometry = {
    type: 'Polygon',
    coordinates: [
      [
        [2, 2],
        [4, 2],
        [4, 4],
        [2, 4],
        [2, 2],
      ],
    ],
  }
  big = table('big', [...polygons(25, 120, 1.5), square, null])
  const touching: Geometry = {
    type: 'Polygon',
    coordinates: [
      [
        [4, 2],
        [6, 2],
        [6, 4],
        [4, 4],
        [4, 2],
      ],
    ],
  }
  small = table('small', [...polygons(150, 8, 0.3), square, touching])
  pts = table('pts', [...points(600), { type: 'Point', coordinates: [2, 3] }])
  lns = table('lns', lines(120))
})

const CONVERSE: Record<string, string> = { Within: 'Contains', Contains: 'Within' }

function params(operator: string, source: FeatureTable, ref: FeatureTable): JoinParams {
  return {
    queryType: 'spatialOperation',
    datasetSource: source.name,
    datasetRef: ref.name,
    operator,
    sourceProperty: 'geom',
    ...(operator === 'DWithin' ? { distance: 5_000 } : {}),
  }
}

function run(input: Omit<JoinInput, 'rowCap'> & { rowCap?: number }): { rows: string[]; truncated: boolean } {
  const out = runJoin(geos, { rowCap: 1_000_000, ...input })
  return { rows: out.pairs.toArray().map(([s, r]) => `${s}:${r}`), truncated: out.truncated }
}

describe('the join planner', () => {
  const pairsOf = () =>
    [
      [big, pts],
      [big, small],
      [small, lns],
      [pts, lns],
    ] as const

  it.each(SPATIAL_OPERATORS)(
    '%s: both drives give the same rows in the same order, and both argument orders the same pairs',
    (operator) => {
      for (const [a, b] of pairsOf()) {
        const forward = params(operator, a, b)
        const byRef = run({ params: forward, source: a, ref: b, drive: 'ref' })
        const bySource = run({ params: forward, source: a, ref: b, drive: 'source' })
        const planned = run({ params: forward, source: a, ref: b })
        expect(bySource.rows, `${a.name} ${operator} ${b.name}`).toEqual(byRef.rows)
        expect(planned.rows).toEqual(byRef.rows)
        const reversed = run({ params: params(CONVERSE[operator] ?? operator, b, a), source: b, ref: a })
        const swapped = reversed.rows.map((k) => k.split(':').reverse().join(':')).sort()
        expect(swapped, `${b.name} ${operator} ${a.name}`).toEqual([...byRef.rows].sort())
      }
    },
  )

  it('finds pairs for the cases above (the comparisons are not vacuous)', () => {
    for (const operator of ['Intersects', 'Within', 'Contains', 'Equals', 'Touches', 'DWithin'])
      expect(
        run({ params: params(operator, small, big), source: small, ref: big }).rows.length,
      ).toBeGreaterThan(0)
  })

  it('reads points by their first two coordinates, and leaves points without numeric ones out, whichever side drives', () => {
    const square = table('square', [
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [4, 0],
            [4, 4],
            [0, 4],
            [0, 0],
          ],
        ],
      },
    ])
    const odd = table('odd', [
      { type: 'Point', coordinates: [1, 1, 7] },
      { type: 'Point', coordinates: [NaN, 2] },
      { type: 'Point', coordinates: [2, NaN] },
      { type: 'Point', coordinates: [4, 2] },
      { type: 'Point', coordinates: [3, 3] },
      { type: 'Point', coordinates: [9, 9] },
    ])
    for (const [operator, expected] of [
      ['Intersects', ['0:0', '3:0', '4:0']],
      ['Within', ['0:0', '4:0']],
    ] as const) {
      for (const drive of ['ref', 'source'] as const) {
        const p = params(operator, odd, square)
        expect(run({ params: p, source: odd, ref: square, drive }).rows, `${operator} ${drive}`).toEqual(
          expected,
        )
      }
    }
  })

  it('keeps the same first rows at the row cap whichever side drives', () => {
    for (const rowCap of [1, 7, 150]) {
      const p = params('Intersects', big, pts)
      const byRef = run({ params: p, source: big, ref: pts, drive: 'ref', rowCap })
      const bySource = run({ params: p, source: big, ref: pts, drive: 'source', rowCap })
      expect(bySource).toEqual(byRef)
      expect(byRef.rows).toHaveLength(rowCap)
      expect(byRef.truncated).toBe(true)
    }
  })

  it('drives with the polygons whichever order the arguments come in', () => {
    const p = (s: FeatureTable, r: FeatureTable): JoinInput => ({
      params: params('Intersects', s, r),
      source: s,
      ref: r,
      rowCap: 10,
    })
    expect(joinPlan(p(big, pts))?.drive).toBe('source')
    expect(joinPlan(p(pts, big))?.drive).toBe('ref')
    expect(joinPlan(p(small, big))?.drive).toBe('ref')
    expect(joinPlan(p(big, small))?.drive).toBe('source')
  })

  it('lets the side with fewer features in the overlap drive when the features are alike', () => {
    const side = (features: number, inOverlap: number): SideStats => ({
      features,
      vertices: features * 10,
      meanWidth: 0.1,
      meanHeight: 0.1,
      extent: [0, 0, 10, 10],
      inOverlap,
    })
    expect(planJoin('Intersects', side(50_000, 50_000), side(1000, 1000)).drive).toBe('ref')
    expect(planJoin('Intersects', side(1000, 1000), side(50_000, 50_000)).drive).toBe('source')
    // Most of the large side lies outside the small one's extent: only the features in the overlap count.
    expect(planJoin('Intersects', side(50_000, 200), side(1000, 1000)).drive).toBe('source')
    expect(planJoin('Disjoint', side(10, 10), side(50_000, 50_000)).drive).toBe('ref')
  })
})

describe('PairList.sortByReference', () => {
  it('orders pairs by reference, keeping the order of pairs with the same reference', () => {
    const list = PairList.from([
      [0, 2],
      [0, 0],
      [1, 2],
      [1, -1],
      [2, 0],
      [3, 1],
    ])
    list.sortByReference(3)
    expect(list.toArray()).toEqual([
      [1, -1],
      [0, 0],
      [2, 0],
      [3, 1],
      [0, 2],
      [1, 2],
    ])
  })
})
