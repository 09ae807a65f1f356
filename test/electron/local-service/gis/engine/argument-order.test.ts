import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Geometry } from 'geojson'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { districts, mulberry32, points, smallPolygons } from '../../../../../bench/join-data'
import { SPATIAL_OPERATORS, type JoinParams } from '../../../../../electron/contract/gis/join-params'
import { loadGeos, type Geos } from '../../../../../electron/local-service/engine/geos'
import {
  runJoin,
  tableFromFeatures,
  type FeatureTable,
  type JoinTrace,
} from '../../../../../electron/local-service/gis/engine/join'
import type { DatasetFeature } from '../../../../../electron/local-service/workspace/features'
import { Workspace } from '../../../../../electron/local-service/workspace/workspace'

const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-argument-order-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A dataset as the join service reads it from the workspace (a point dataset column-wise). */
function read(workspace: Workspace, name: string): FeatureTable {
  const found = workspace.readSync(name)
  const fields = found.manifest.fields.map((f) => f.name)
  return found.points
    ? {
        name,
        fields,
        index: found.index,
        points: found.points,
        get features() {
          return found.features
        },
      }
    : { name, fields, index: found.index, features: found.features }
}

/** Squares (or diamonds in the same cells) on a 6 × 4 lattice of unit cells: the same statistics either way. */
function lattice(diamonds: boolean): DatasetFeature[] {
  const out: DatasetFeature[] = []
  for (let y = 0; y < 4; y++)
    for (let x = 0; x < 6; x++) {
      const ring = diamonds
        ? [
            [x + 0.5, y],
            [x + 1, y + 0.5],
            [x + 0.5, y + 1],
            [x, y + 0.5],
            [x + 0.5, y],
          ]
        : [
            [x, y],
            [x + 1, y],
            [x + 1, y + 1],
            [x, y + 1],
            [x, y],
          ]
      const geometry: Geometry = { type: 'Polygon', coordinates: [ring] }
      out.push({ geometry, properties: { id: out.length } })
    }
  return out
}

const CONVERSE: Record<string, string> = { Within: 'Contains', Contains: 'Within' }

let geos: Geos
let pts: FeatureTable
let polys: FeatureTable
let dists: FeatureTable
let someDists: FeatureTable

beforeAll(async () => {
  geos = await loadGeos()
  const workspace = new Workspace(dir)
  const random = mulberry32(27)
  await workspace.create('points', points(20_000, random), { source: 'test' })
  await workspace.create('polys', smallPolygons(3_000, random), { source: 'test' })
  await workspace.create('districts', districts(), { source: 'test' })
  await workspace.create('some-districts', districts().slice(0, 60), { source: 'test' })
  pts = read(workspace, 'points')
  polys = read(workspace, 'polys')
  dists = read(workspace, 'districts')
  someDists = read(workspace, 'some-districts')
  expect(pts.points, 'the points are read column-wise, as the service reads them').toBeDefined()
})

/** `operator(source, ref)`: its rows and the work it did. */
function join(operator: string, source: FeatureTable, ref: FeatureTable) {
  const params: JoinParams = {
    queryType: 'spatialOperation',
    datasetSource: source.name,
    datasetRef: ref.name,
    operator,
    sourceProperty: 'geom',
    ...(operator === 'DWithin' ? { distance: 1_000 } : {}),
  }
  const trace: JoinTrace = { tested: [], geos: 0 }
  const out = runJoin(geos, { params, source, ref, rowCap: 10_000_000, trace })
  return { rows: out.pairs.toArray(), trace }
}

/** The join both ways round — `operator(a, b)` and its converse `(b, a)` — as a test compares them. */
function bothOrders(operator: string, a: FeatureTable, b: FeatureTable) {
  const forward = join(operator, a, b)
  const reversed = join(CONVERSE[operator] ?? operator, b, a)
  const key = (rows: Array<[number, number]>, swap: boolean) =>
    rows.map(([s, r]) => (swap ? `${r}:${s}` : `${s}:${r}`)).sort()
  return {
    forward,
    reversed,
    forwardPairs: key(forward.rows, false),
    reversedPairs: key(reversed.rows, true),
  }
}

/** Where two traces first differ, undefined when they are the same. */
function firstDifference(forward: JoinTrace, reversed: JoinTrace): string | undefined {
  const [a, b] = [forward.tested, reversed.tested]
  for (let i = 0; i < Math.max(a.length, b.length); i += 2)
    if (a[i] !== b[i] || a[i + 1] !== b[i + 1])
      return `candidate ${i / 2} of ${a.length / 2} and ${b.length / 2}: forward tests ${a[i]} × ${a[i + 1]}, reversed ${b[i]} × ${b[i + 1]}`
  return undefined
}

describe('a join between two datasets does the same work whichever comes first', () => {
  // Disjoint is left out: it always drives the reference, so that it can stop at the row cap (decision 011 §1).
  const operators = SPATIAL_OPERATORS.filter((op) => op !== 'Disjoint')

  it.each(operators)(
    '%s: the same dataset drives, and the same candidate pairs are tested in the same order, with as many GEOS evaluations',
    (operator) => {
      // DWithin measures distances to every candidate's edges: against fewer districts, to stay quick.
      const districtsHere = operator === 'DWithin' ? someDists : dists
      for (const [a, b] of [
        [pts, districtsHere],
        [polys, districtsHere],
        [pts, polys],
      ] as const) {
        const { forward, reversed, forwardPairs, reversedPairs } = bothOrders(operator, a, b)
        const label = `${a.name} ${operator} ${b.name}`
        expect(forward.trace.tested.length, label).toBeGreaterThan(0)
        expect(reversed.trace.drive, label).toBe(forward.trace.drive)
        expect(reversed.trace.geos, label).toBe(forward.trace.geos)
        // A difference in order fails as a difference in content would.
        expect(firstDifference(forward.trace, reversed.trace), label).toBeUndefined()
        expect(reversedPairs, label).toEqual(forwardPairs)
      }
    },
  )

  it('finds pairs for the cases above, and asks GEOS for some (the comparisons are not vacuous)', () => {
    const { forward } = bothOrders('Intersects', polys, dists)
    expect(forward.rows.length).toBeGreaterThan(1000)
    expect(forward.trace.geos).toBeGreaterThan(0)
    expect(bothOrders('Within', pts, dists).forward.rows.length).toBeGreaterThan(10_000)
  })

  it('settles a tie between two datasets the same way in both orders: the name that sorts first drives', () => {
    // Squares and diamonds in the same cells: the same counts, vertices, box sizes and extent, so the same
    // estimated cost each way; before, the tie went to whichever was the reference.
    const squares = tableFromFeatures('a-squares', lattice(false))
    const diamonds = tableFromFeatures('b-diamonds', lattice(true))
    for (const operator of ['Intersects', 'Touches', 'Within']) {
      const { forward, reversed, forwardPairs, reversedPairs } = bothOrders(operator, squares, diamonds)
      expect(forward.trace.drive, operator).toBe('a-squares')
      expect(reversed.trace.drive, operator).toBe('a-squares')
      expect(firstDifference(forward.trace, reversed.trace), operator).toBeUndefined()
      expect(reversedPairs, operator).toEqual(forwardPairs)
    }
    expect(bothOrders('Intersects', squares, diamonds).forward.rows.length).toBeGreaterThan(24)
  })
})
