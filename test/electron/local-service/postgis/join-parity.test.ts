import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Geometry } from 'geojson'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mulberry32 } from '../../../../bench/join-data'
import { startLocalService, type LocalService } from '../../../../electron/local-service/index'
import { Workspace } from '../../../../electron/local-service/workspace/workspace'
import type { DatasetFeature } from '../../../../electron/local-service/workspace/features'
import { loadFeatures, postgresMissing, startTestCluster, type TestCluster } from '../../../support/postgres'
import { square } from '../helpers'

/**
 * Same request, same data → the same answer from a folder workspace (the file engine) and from a PostGIS
 * workspace (the join pushed down to the database): every query type and operator, against a throw-away
 * cluster (skipped, saying why, where PostgreSQL/PostGIS are not installed).
 */
const missing = postgresMissing()
const TOKEN = 'join-parity-token'

const rnd = mulberry32(31)
const at = (n: number) => Math.round(n * 1e5) / 1e5
const NAMES = ['alpha', 'beta', 'Gamma', 'delta', '10', '9.5', 'zeta']

/** Points in [0, 10]², some exactly on the district grid's lines. */
const points: DatasetFeature[] = Array.from({ length: 160 }, (_, id) => ({
  geometry: {
    type: 'Point',
    coordinates: id % 10 === 0 ? [Math.floor(rnd() * 10), at(rnd() * 10)] : [at(rnd() * 10), at(rnd() * 10)],
  },
  properties: {
    id,
    name: NAMES[id % NAMES.length]!,
    value: id % 4 === 0 ? null : at(rnd() * 100),
    code: `${id % 13}`,
  },
}))

/** A 4 × 4 grid of districts over [0, 10]² (2.5° squares) with a code shared with some points. */
const districts: DatasetFeature[] = []
for (let i = 0; i < 4; i++)
  for (let j = 0; j < 4; j++)
    districts.push({
      geometry: square(i * 2.5, j * 2.5, (i + 1) * 2.5, (j + 1) * 2.5),
      properties: { id: i * 4 + j, code: `${(i * 4 + j) % 13}`, label: `d${i}${j}`, limit: i * 10 + j },
    })

/** Small polygons and lines scattered over the same extent, overlapping districts and each other. */
const shapes: DatasetFeature[] = Array.from({ length: 60 }, (_, id) => {
  const x = at(rnd() * 9)
  const y = at(rnd() * 9)
  const s = at(0.05 + rnd() * 1.5)
  const geometry: Geometry =
    id % 3 === 0
      ? {
          type: 'LineString',
          coordinates: [
            [x, y],
            [at(x + s), at(y + s / 2)],
            [at(x + s), at(y + s)],
          ],
        }
      : square(x, y, at(x + s), at(y + s))
  return { geometry, properties: { id, kind: id % 3 === 0 ? 'line' : 'area', size: s } }
})

const star: Geometry = {
  type: 'Polygon',
  coordinates: [
    [
      [5, 1],
      [6, 4],
      [9, 5],
      [6, 6],
      [5, 9],
      [4, 6],
      [1, 5],
      [4, 4],
      [5, 1],
    ],
  ],
}

type Params = Record<string, string | number | boolean | undefined>
interface Case {
  name: string
  params: Params
  user?: Geometry[]
}

const spatialOperators = [
  'Intersects',
  'Disjoint',
  'Overlaps',
  'Equals',
  'Touches',
  'DWithin',
  'Within',
  'Contains',
  'Crosses',
]
const basicOperators = ['=', '<>', '<', '>', '<=', '>=', 'IN', 'NOT IN']

const cases: Case[] = [
  ...spatialOperators.map((operator) => ({
    name: `points ${operator} districts`,
    params: {
      queryType: 'spatialOperation',
      datasetSource: 'points',
      datasetRef: 'districts',
      operator,
      sourceProperty: 'geom',
      selectionParamSource: 'id,name',
      selectionParamRef: 'label',
      ...(operator === 'DWithin' ? { distance: 20_000 } : {}),
    },
  })),
  ...spatialOperators.map((operator) => ({
    name: `shapes ${operator} districts`,
    params: {
      queryType: 'spatialOperation',
      datasetSource: 'shapes',
      datasetRef: 'districts',
      operator,
      sourceProperty: 'geom',
      selectionParamSource: 'id,kind',
      selectionParamRef: 'id',
      ...(operator === 'DWithin' ? { distance: 5_000 } : {}),
    },
  })),
  ...spatialOperators.map((operator) => ({
    name: `shapes ${operator} the user's star`,
    params: {
      queryType: 'spatialOperation',
      datasetSource: 'shapes',
      operator,
      sourceProperty: 'geom',
      userGeom: true,
      selectionParamSource: 'id,geom',
      ...(operator === 'DWithin' ? { distance: 30_000 } : {}),
    },
    user: [star],
  })),
  {
    name: 'points Within two user polygons (a point in both comes twice)',
    params: {
      queryType: 'spatialOperation',
      datasetSource: 'points',
      operator: 'Within',
      sourceProperty: 'geom',
      userGeom: true,
    },
    user: [square(2, 2, 6, 6), square(4, 4, 8, 8)],
  },
  {
    name: 'districts Contains points, geometry of both as WKT',
    params: {
      queryType: 'spatialOperation',
      datasetSource: 'districts',
      datasetRef: 'points',
      operator: 'Contains',
      sourceProperty: 'geom',
      selectionParamSource: 'label,geom',
      selectionParamRef: 'geom,value',
    },
  },
  ...basicOperators.map((operator) => ({
    name: `points.code ${operator} districts.code`,
    params: {
      queryType: 'basic',
      datasetSource: 'points',
      datasetRef: 'districts',
      operator,
      sourceProperty: 'code',
      refProperty: 'code',
      selectionParamSource: 'id,code',
      selectionParamRef: 'label',
    },
  })),
  ...['<', '>=', '='].map((operator) => ({
    name: `points.value ${operator} districts.limit (numbers, nulls)`,
    params: {
      queryType: 'basic',
      datasetSource: 'points',
      datasetRef: 'districts',
      operator,
      sourceProperty: 'value',
      refProperty: 'limit',
      selectionParamSource: 'id,value',
      selectionParamRef: 'limit',
    },
  })),
  {
    name: 'points.name < districts.label (text, mixed with numbers)',
    params: {
      queryType: 'basic',
      datasetSource: 'points',
      datasetRef: 'districts',
      operator: '<',
      sourceProperty: 'name',
      refProperty: 'label',
    },
  },
  ...(
    [
      ['Area', '>', 5e9],
      ['Area', '<=', 1e9],
      ['Length', '>', 50_000],
      ['Length', '<', 1],
      ['isEmpty', '=', false],
      ['isEmpty', '<>', false],
    ] as const
  ).flatMap(([fn, op, value]) => [
    {
      name: `shapes ${fn} ${op} ${value}, alone`,
      params: {
        queryType: 'functionBased',
        datasetSource: 'shapes',
        operator: 'Intersects',
        sourceProperty: 'geom',
        comparisonFunction: fn,
        comparisonOperator: op,
        comparisonValue: value,
        selectionParamSource: 'id',
      },
    },
    {
      name: `shapes ${fn} ${op} ${value}, Intersects districts`,
      params: {
        queryType: 'functionBased',
        datasetSource: 'shapes',
        datasetRef: 'districts',
        operator: 'Intersects',
        sourceProperty: 'geom',
        comparisonFunction: fn,
        comparisonOperator: op,
        comparisonValue: value,
        selectionParamSource: 'id',
        selectionParamRef: 'label',
      },
    },
  ]),
  // A column without a declared SRID (a view's expression): the SRID its values have.
  {
    name: 'shapes_any (no declared SRID) Intersects the user star',
    params: {
      queryType: 'spatialOperation',
      datasetSource: 'shapes_any',
      operator: 'Intersects',
      sourceProperty: 'geom',
      userGeom: true,
      selectionParamSource: 'id',
    },
    user: [star],
  },
  {
    name: 'points Within shapes_any (no declared SRID)',
    params: {
      queryType: 'spatialOperation',
      datasetSource: 'points',
      datasetRef: 'shapes_any',
      operator: 'Within',
      sourceProperty: 'geom',
      selectionParamSource: 'id',
      selectionParamRef: 'id',
    },
  },
  {
    name: 'shapes_any DWithin points',
    params: {
      queryType: 'spatialOperation',
      datasetSource: 'shapes_any',
      datasetRef: 'points',
      operator: 'DWithin',
      distance: 1000,
      sourceProperty: 'geom',
      selectionParamSource: 'id',
      selectionParamRef: 'id',
    },
  },
  {
    name: 'default selection (the first eight source fields)',
    params: {
      queryType: 'spatialOperation',
      datasetSource: 'points',
      datasetRef: 'districts',
      operator: 'Within',
      sourceProperty: 'geom',
    },
  },
  // Refusals: the same status and message from both.
  {
    name: 'no row satisfies the query (404)',
    params: {
      queryType: 'functionBased',
      datasetSource: 'shapes',
      operator: 'Intersects',
      sourceProperty: 'geom',
      comparisonFunction: 'Area',
      comparisonOperator: '>',
      comparisonValue: 1e15,
    },
  },
  {
    name: 'unknown dataset (404)',
    params: {
      queryType: 'spatialOperation',
      datasetSource: 'nowhere',
      datasetRef: 'districts',
      operator: 'Within',
      sourceProperty: 'geom',
    },
  },
  {
    name: 'unknown field (400)',
    params: {
      queryType: 'basic',
      datasetSource: 'points',
      datasetRef: 'districts',
      operator: '=',
      sourceProperty: 'nope',
      refProperty: 'code',
    },
  },
  {
    name: 'spatial query on a property (400)',
    params: {
      queryType: 'spatialOperation',
      datasetSource: 'points',
      datasetRef: 'districts',
      operator: 'Within',
      sourceProperty: 'name',
    },
  },
  {
    name: 'spatial query without a reference (422)',
    params: {
      queryType: 'spatialOperation',
      datasetSource: 'points',
      operator: 'Within',
      sourceProperty: 'geom',
    },
  },
]

interface Answer {
  status: number
  body: Record<string, unknown>
}

async function ask(service: LocalService, c: Case): Promise<Answer> {
  const query = new URLSearchParams(
    Object.entries(c.params).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
  )
  const response = await fetch(`${service.urls.mgis_url}/query_apply/join?${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: c.user
      ? JSON.stringify({
          type: 'FeatureCollection',
          features: c.user.map((geometry, i) => ({ type: 'Feature', properties: { n: i }, geometry })),
        })
      : undefined,
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** The rows as sorted JSON texts: the database's row order is its plan's, the file engine's its own. */
const rowSet = (body: Record<string, unknown>) =>
  ((body.result as unknown[] | undefined) ?? []).map((r) => JSON.stringify(r)).sort()

let cluster: TestCluster
let db: pg.Client
let files: LocalService
let database: LocalService
let dir: string

describe.skipIf(missing)(
  `joins over PostGIS match the file engine${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    beforeAll(async () => {
      cluster = await startTestCluster()
      await cluster.admin.query('CREATE DATABASE parity')
      db = await cluster.connect('parity')
      await db.query('CREATE EXTENSION postgis')
      await loadFeatures(
        db,
        'public',
        'points',
        { id: 'int', name: 'text', value: 'float8', code: 'text' },
        points,
      )
      await loadFeatures(
        db,
        'public',
        'districts',
        { id: 'int', code: 'text', label: 'text', limit: 'int' },
        districts,
      )
      await loadFeatures(db, 'public', 'shapes', { id: 'int', kind: 'text', size: 'float8' }, shapes)
      await db.query(
        'CREATE VIEW public.shapes_any AS SELECT id, kind, size, geom::geometry AS geom FROM public.shapes',
      )
      dir = mkdtempSync(path.join(os.tmpdir(), 'geo-parity-'))
      const workspace = new Workspace(dir)
      await workspace.create('points', points, { source: 'parity' })
      await workspace.create('districts', districts, { source: 'parity' })
      await workspace.create('shapes', shapes, { source: 'parity' })
      await workspace.create('shapes_any', shapes, { source: 'parity' })
      files = await startLocalService({ workspaceDir: dir, token: TOKEN, sampleData: false })
      const empty = mkdtempSync(path.join(os.tmpdir(), 'geo-parity-db-'))
      database = await startLocalService({
        workspaceDir: empty,
        databaseUri: cluster.uri('parity'),
        env: { PGPASSWORD: cluster.password },
        token: TOKEN,
        sampleData: false,
      })
    }, 180_000)
    afterAll(async () => {
      await files?.close()
      await database?.close()
      await cluster?.stop()
      if (dir) rmSync(dir, { recursive: true, force: true })
    })

    it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
      const [fromFiles, fromDatabase] = await Promise.all([ask(files, c), ask(database, c)])
      expect(fromDatabase.status).toBe(fromFiles.status)
      if (fromFiles.status >= 300) {
        expect(fromDatabase.body.message).toBe(fromFiles.body.message)
        return
      }
      const { result: _a, ...fileHead } = fromFiles.body
      const { result: _b, ...databaseHead } = fromDatabase.body
      expect(databaseHead).toEqual(fileHead)
      expect(rowSet(fromDatabase.body)).toEqual(rowSet(fromFiles.body))
    })

    it.each(cases.filter((c) => !c.name.includes('(4')).map((c) => [c.name, c] as const))(
      'the same through the temporary table and cursor (a result past the held bytes): %s',
      async (_name, c) => {
        process.env.GEO_ANALYST_PG_BUFFER_BYTES = '0'
        try {
          const [fromFiles, fromDatabase] = await Promise.all([ask(files, c), ask(database, c)])
          expect(fromDatabase.status).toBe(fromFiles.status)
          const { result: _a, ...fileHead } = fromFiles.body
          const { result: _b, ...databaseHead } = fromDatabase.body
          expect(databaseHead).toEqual(fileHead)
          expect(rowSet(fromDatabase.body)).toEqual(rowSet(fromFiles.body))
        } finally {
          delete process.env.GEO_ANALYST_PG_BUFFER_BYTES
        }
      },
    )

    it('answers 206 with the row cap both ways, the head as the file engine writes it', async () => {
      const capped = await startLocalService({
        workspaceDir: mkdtempSync(path.join(os.tmpdir(), 'geo-parity-cap-')),
        databaseUri: cluster.uri('parity'),
        env: { PGPASSWORD: cluster.password },
        token: TOKEN,
        sampleData: false,
        rowCap: 25,
      })
      const cappedFiles = await startLocalService({
        workspaceDir: dir,
        token: TOKEN,
        sampleData: false,
        rowCap: 25,
      })
      try {
        const c = cases.find((x) => x.name === 'points.code <> districts.code')!
        const fromFiles = await ask(cappedFiles, c)
        expect(fromFiles.status).toBe(206)
        for (const held of ['16777216', '0']) {
          process.env.GEO_ANALYST_PG_BUFFER_BYTES = held
          const fromDatabase = await ask(capped, c)
          expect(fromDatabase.status).toBe(206)
          const { result: rows, ...head } = fromDatabase.body
          const { result: _f, ...fileHead } = fromFiles.body
          expect(head).toEqual(fileHead)
          expect(rows).toHaveLength(25)
        }
      } finally {
        delete process.env.GEO_ANALYST_PG_BUFFER_BYTES
        await capped.close()
        await cappedFiles.close()
      }
    })

    it('covers every operator with rows from both (no case passes by being empty on both sides)', async () => {
      const answered = await Promise.all(
        cases
          .filter((c) => c.params.queryType === 'spatialOperation' && c.params.datasetRef === 'districts')
          .map((c) => ask(files, c)),
      )
      // Equals, Overlaps, Crosses, Contains of points or shapes by districts may be empty; most must not be.
      expect(answered.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(10)
    })
  },
)
