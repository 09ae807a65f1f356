import type { Geometry, Position } from 'geojson'
import { beforeAll, describe, expect, it } from 'vitest'
import { mulberry32 } from '../../../../../bench/join-data'
import type { JoinParams } from '../../../../../electron/contract/gis/join-params'
import { loadGeos, type Geos } from '../../../../../electron/local-service/engine/geos'
import {
  resultFeatures,
  resultRowsJson,
  runJoin,
  selection,
  type FeatureTable,
} from '../../../../../electron/local-service/gis/engine/join'
import {
  readFlatGeobuf,
  readFlatGeobufTable,
  writeFlatGeobuf,
} from '../../../../../electron/local-service/workspace/fgb'
import type { DatasetFeature, FieldInfo } from '../../../../../electron/local-service/workspace/features'
import { buildIndex } from '../../../../../electron/local-service/workspace/workspace'

const rnd = mulberry32(17)
const at = (n: number) => Math.round(n * 1000) / 1000

const FIELDS: FieldInfo[] = [
  { name: 'id', type: 'number' },
  { name: 'name', type: 'string' },
  { name: 'extra', type: 'json' },
]

/** Points in 0..10 with an id, a name (sometimes missing or empty) and a JSON value (sometimes). */
function points(count: number): DatasetFeature[] {
  return Array.from({ length: count }, (_, i) => {
    const properties: Record<string, unknown> = { id: i % 50 }
    if (i % 9 !== 0) properties.name = i % 13 === 0 ? '' : `P${i % 40}`
    if (i % 4 === 0) properties.extra = { k: i }
    return { geometry: { type: 'Point', coordinates: [at(rnd() * 10), at(rnd() * 10)] }, properties }
  })
}

function polygons(count: number): DatasetFeature[] {
  return Array.from({ length: count }, (_, i) => {
    const cx = at(rnd() * 10)
    const cy = at(rnd() * 10)
    const ring: Position[] = []
    for (let v = 0; v < 8; v++) {
      const a = ((v + 0.5) / 8) * 2 * Math.PI
      ring.push([at(cx + 1.5 * Math.cos(a)), at(cy + 1.5 * Math.sin(a))])
    }
    ring.push(ring[0]!)
    const geometry: Geometry = { type: 'Polygon', coordinates: [ring] }
    return { geometry, properties: { id: i * 3, name: i % 2 ? `P${i}` : null } }
  })
}

/**
 * A dataset as the join service read it before (a feature list) and as it reads it now (a point dataset
 * column-wise, its features never asked for here).
 */
function tables(name: string, features: DatasetFeature[]): { old: FeatureTable; now: FeatureTable } {
  const bytes = writeFlatGeobuf(features, FIELDS)
  const list = readFlatGeobuf(bytes).features
  const index = buildIndex(list)
  const fields = FIELDS.map((f) => f.name)
  const read = readFlatGeobufTable(bytes)
  const points = read.points
  const now: FeatureTable = points
    ? {
        name,
        fields,
        index,
        points,
        get features() {
          return points.features()
        },
      }
    : { name, features: read.features!, fields, index }
  return { old: { name, features: list, fields, index }, now }
}

let geos: Geos
let pts: ReturnType<typeof tables>
let others: ReturnType<typeof tables>
let polys: ReturnType<typeof tables>
beforeAll(async () => {
  geos = await loadGeos()
  pts = tables('pts', points(500))
  others = tables('others', points(60))
  polys = tables('polys', polygons(8))
})

/** The answer a caller gets: the rows as JSON, and the features a saved result would hold. */
function answer(
  params: Partial<JoinParams>,
  source: FeatureTable,
  ref: FeatureTable | undefined,
  drive?: 'ref' | 'source',
) {
  const p = { datasetSource: source.name, sourceProperty: 'geom', ...params } as JoinParams
  const output = runJoin(geos, { params: p, source, ref, rowCap: 100_000, drive })
  const sel = selection(p, source, ref)
  return {
    truncated: output.truncated,
    rows: resultRowsJson(geos, output.pairs, sel, source, ref),
    saved: JSON.stringify(resultFeatures(output.pairs, source, ref)),
  }
}

describe('joins over a point dataset read column-wise', () => {
  it('is what the feature list answered: every spatial operator, either side driving, points as either side', () => {
    expect(pts.now.points).toBeDefined()
    expect(polys.now.points).toBeUndefined()
    const select = { selectionParamSource: 'id,name,geom,extra', selectionParamRef: 'name,geom' }
    for (const operator of ['Intersects', 'Within', 'Contains', 'Disjoint', 'DWithin', 'Touches', 'Equals']) {
      for (const drive of [undefined, 'ref', 'source'] as const) {
        const params = { queryType: 'spatialOperation', operator, distance: 20_000, ...select } as const
        for (const [source, ref] of [
          [pts, polys],
          [polys, pts],
          [pts, others],
        ] as const) {
          const now = answer(params, source.now, ref.now, drive)
          expect(now, `${operator} ${source.old.name}/${ref.old.name} ${drive}`).toEqual(
            answer(params, source.old, ref.old, drive),
          )
        }
      }
    }
  })

  it('is what the feature list answered for basic and function joins and the default selection', () => {
    const cases: Array<[Partial<JoinParams>, typeof pts, typeof pts | undefined]> = [
      [{ queryType: 'basic', operator: '=', sourceProperty: 'name', refProperty: 'name' }, pts, polys],
      [{ queryType: 'basic', operator: 'IN', sourceProperty: 'id', refProperty: 'id' }, pts, polys],
      [{ queryType: 'basic', operator: 'NOT IN', sourceProperty: 'name', refProperty: 'name' }, pts, polys],
      [{ queryType: 'basic', operator: '<', sourceProperty: 'id', refProperty: 'id' }, others, polys],
      [
        {
          queryType: 'functionBased',
          operator: 'Within',
          comparisonFunction: 'isEmpty',
          comparisonOperator: '=',
          comparisonValue: false,
        },
        pts,
        undefined,
      ],
      [
        {
          queryType: 'functionBased',
          operator: 'Intersects',
          comparisonFunction: 'Area',
          comparisonOperator: '=',
          comparisonValue: 0,
        },
        pts,
        polys,
      ],
    ]
    for (const [params, source, ref] of cases) {
      const now = answer(params, source.now, ref?.now)
      expect(now.rows.length, JSON.stringify(params)).toBeGreaterThan(2)
      expect(now, JSON.stringify(params)).toEqual(answer(params, source.old, ref?.old))
    }
  })
})
