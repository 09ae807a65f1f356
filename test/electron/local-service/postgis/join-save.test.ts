import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalService, type LocalService } from '../../../../electron/local-service/index'
import { qualified, quoteIdent } from '../../../../electron/local-service/postgis/sql'
import { postgresMissing, startTestCluster, type TestCluster } from '../../../support/postgres'

/**
 * Over a PostGIS workspace: "save as new dataset" in one transaction, hostile names and values, cancel and
 * the time limit — against a throw-away cluster (skipped, saying why, where PostGIS is not installed).
 */
const missing = postgresMissing()
const TOKEN = 'join-save-token'

/** Names that are datasets, fields and values exactly as written, and never SQL. */
const HOSTILE = [
  `x"; DROP TABLE public.victim; --`,
  `it's /* not */ a comment`,
  '$$ SELECT 1 $$',
  'semi;colon',
  'Straßen Mit Großbuchstaben',
  'ünïcødé 東京',
]
const HOSTILE_SCHEMA = `Ref "Data"; DROP TABLE public.victim; --`

let cluster: TestCluster
let db: pg.Client
let service: LocalService
let dir: string

async function join(
  params: Record<string, string | number | boolean>,
  body?: unknown,
  svc = service,
  signal?: AbortSignal,
) {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))
  const response = await fetch(`${svc.urls.mgis_url}/query_apply/join?${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
    ...(signal ? { signal } : {}),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const victimKept = async () =>
  (await db.query(`SELECT to_regclass('public.victim') IS NOT NULL AS kept`)).rows[0].kept as boolean

const tableExists = async (schema: string, name: string) =>
  (await db.query(`SELECT to_regclass($1) IS NOT NULL AS e`, [qualified(schema, name)])).rows[0].e as boolean

/** Statements of the service still running in the database (its pool's and its cursors'). */
const activeJoins = async () =>
  Number(
    (
      await db.query(
        `SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'geo-analyst' AND state = 'active'`,
      )
    ).rows[0].n,
  )

async function waitFor(check: () => Promise<boolean>, ms = 10_000): Promise<boolean> {
  const until = Date.now() + ms
  while (Date.now() < until) {
    if (await check()) return true
    await new Promise((r) => setTimeout(r, 100))
  }
  return check()
}

const pointsWithin = {
  queryType: 'spatialOperation',
  datasetSource: 'places',
  datasetRef: 'zones',
  operator: 'Within',
  sourceProperty: 'geom',
  selectionParamSource: 'id,name',
  selectionParamRef: 'zone',
}

describe('quoteIdent', () => {
  it('quotes capitals, spaces, quotes and non-ASCII letters, and refuses NUL', () => {
    expect(quoteIdent('Roads')).toBe('"Roads"')
    expect(quoteIdent('two words')).toBe('"two words"')
    expect(quoteIdent('a"b')).toBe('"a""b"')
    expect(quoteIdent('x"; DROP TABLE t; --')).toBe('"x""; DROP TABLE t; --"')
    expect(quoteIdent('東京')).toBe('"東京"')
    expect(() => quoteIdent('a\0b')).toThrow(/NUL/)
    expect(() => quoteIdent('')).toThrow(/empty/)
  })
})

describe.skipIf(missing)(
  `PostGIS joins: save, hostile input, cancel${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    beforeAll(async () => {
      cluster = await startTestCluster()
      await cluster.admin.query('CREATE DATABASE gis')
      db = await cluster.connect('gis')
      await db.query(`
      CREATE EXTENSION postgis;
      CREATE TABLE public.victim (id int);
      CREATE SCHEMA work; CREATE SCHEMA unlisted; CREATE SCHEMA ${quoteIdent(HOSTILE_SCHEMA)};
      CREATE TABLE work.places (id int, name text, geom geometry(Point, 4326));
      INSERT INTO work.places SELECT i, 'p' || i, ST_SetSRID(ST_MakePoint(i % 10 + 0.5, i / 10 % 10 + 0.5), 4326)
        FROM generate_series(0, 199) i;
      CREATE TABLE work.zones (zone text, geom geometry(Polygon, 4326));
      INSERT INTO work.zones VALUES ('west', ST_MakeEnvelope(0, 0, 5, 10, 4326)),
                                    ('east', ST_MakeEnvelope(5, 0, 10, 10, 4326));
      CREATE TABLE unlisted.secret (id int, geom geometry(Point, 4326));
      INSERT INTO unlisted.secret VALUES (1, 'SRID=4326;POINT(1 1)');
      CREATE TABLE ${qualified(HOSTILE_SCHEMA, 'towns')} (id int, geom geometry(Point, 4326));
      INSERT INTO ${qualified(HOSTILE_SCHEMA, 'towns')} VALUES (7, 'SRID=4326;POINT(1 1)');
      -- A dataset whose statement takes 30 s: for cancel and the time limit.
      CREATE VIEW work.sleepy AS SELECT id, name, geom FROM work.places WHERE (SELECT pg_sleep(30)) IS NULL;
    `)
      for (const name of HOSTILE) {
        // A table, a column and a value of that name: each must be exactly itself.
        await db.query(
          `CREATE TABLE ${qualified('work', name)} (${quoteIdent(name)} text, geom geometry(Point, 4326))`,
        )
        await db.query(
          `INSERT INTO ${qualified('work', name)} VALUES ($1, 'SRID=4326;POINT(1 1)'), ('other', 'SRID=4326;POINT(2 2)')`,
          [name],
        )
      }
      await db.query('ANALYZE')
      dir = mkdtempSync(path.join(os.tmpdir(), 'geo-pg-save-'))
      service = await startLocalService({
        workspaceDir: dir,
        databaseUri: cluster.uri('gis', `schema=work,${encodeURIComponent(HOSTILE_SCHEMA)}`),
        env: { PGPASSWORD: cluster.password },
        token: TOKEN,
        sampleData: false,
      })
    }, 180_000)
    afterAll(async () => {
      await service?.close()
      await cluster?.stop()
      if (dir) rmSync(dir, { recursive: true, force: true })
    })

    it('saves the result as a table of the first schema, with a GiST index, analysed, in one transaction', async () => {
      const answer = await join({ ...pointsWithin, saveAsNewDataset: true, newDatasetNme: 'Saved_Within' })
      expect(answer.status).toBe(200)
      expect(answer.body).toMatchObject({ savedDataset: 'Saved_Within', rowCount: 200, truncated: false })
      const table = qualified('work', 'Saved_Within')
      const { rows } = await db.query(
        `SELECT id, name, ref_zone, ST_AsText(geom) AS wkt FROM ${table} ORDER BY id`,
      )
      expect(rows).toHaveLength(200)
      expect(rows[0]).toEqual({ id: 0, name: 'p0', ref_zone: 'west', wkt: 'POINT(0.5 0.5)' })
      // The answer's rows are the saved rows.
      const answered = (answer.body.result as { prop1: string; prop2: string; prop3: string }[])
        .map((r) => `${r.prop1}|${r.prop2}|${r.prop3}`)
        .sort()
      expect(answered).toEqual(rows.map((r) => `${r.id}|${r.name}|${r.ref_zone}`).sort())
      const index = await db.query(
        `SELECT indexdef FROM pg_indexes WHERE schemaname = 'work' AND tablename = 'Saved_Within'`,
      )
      expect(index.rows.map((r) => r.indexdef).join()).toMatch(/USING gist \(geom\)/)
      const stats = await db.query(`SELECT reltuples FROM pg_class WHERE oid = to_regclass($1)`, [table])
      expect(Number(stats.rows[0].reltuples)).toBe(200)
      // Listed like any dataset.
      const list = await fetch(`${service.urls.mgis_v2_url}/getLayersList`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      })
      const names = ((await list.json()) as { data: { layername: string }[] }).data.map((d) => d.layername)
      expect(names).toContain('Saved_Within')
    })

    it('answers 409 for a name taken in any letter case, and writes nothing', async () => {
      const answer = await join({ ...pointsWithin, saveAsNewDataset: true, newDatasetNme: 'saved_within' })
      expect(answer.status).toBe(409)
      expect(answer.body.field).toBe('newDatasetNme')
      expect(await tableExists('work', 'saved_within')).toBe(false)
    })

    it('of two saves of one name at once, exactly one wins and the other answers 409; no half-made table', async () => {
      const params = { ...pointsWithin, saveAsNewDataset: true, newDatasetNme: 'raced' }
      for (let round = 0; round < 3; round++) {
        const name = `raced_${round}`
        const answers = await Promise.all([
          join({ ...params, newDatasetNme: name }),
          join({ ...params, newDatasetNme: name }),
        ])
        expect(answers.map((a) => a.status).sort()).toEqual([200, 409])
        const { rows } = await db.query(`SELECT count(*)::int AS n FROM ${qualified('work', name)}`)
        expect(rows[0].n).toBe(200)
      }
    })

    it('reads hostile dataset, property and schema names and values as exactly themselves', async () => {
      for (const name of HOSTILE) {
        const answer = await join({
          queryType: 'basic',
          datasetSource: name,
          datasetRef: name,
          operator: '=',
          sourceProperty: name,
          refProperty: name,
          selectionParamSource: name,
        })
        expect(answer.status, name).toBe(200)
        // Each table holds the name as a value and 'other': each matches itself.
        expect((answer.body.result as { prop1: string }[]).map((r) => r.prop1).sort()).toEqual(
          [name, 'other'].sort(),
        )
        expect(answer.body.columns).toEqual([{ prop: 'prop1', table: 'source', name }])
      }
      const town = await join({
        queryType: 'spatialOperation',
        datasetSource: `${HOSTILE_SCHEMA}.towns`,
        datasetRef: 'zones',
        operator: 'Within',
        sourceProperty: 'geom',
        selectionParamSource: 'id',
      })
      expect(town.status).toBe(200)
      expect(town.body.result).toEqual([{ prop1: '7' }])
      // A user geometry's hostile property values are saved as values.
      const saved = await join(
        {
          queryType: 'spatialOperation',
          datasetSource: 'zones',
          operator: 'Intersects',
          sourceProperty: 'geom',
          userGeom: true,
          saveAsNewDataset: true,
          newDatasetNme: 'hostile_values',
        },
        {
          type: 'FeatureCollection',
          features: HOSTILE.map((label) => ({
            type: 'Feature',
            properties: { label },
            geometry: { type: 'Point', coordinates: [1, 1] },
          })),
        },
      )
      expect(saved.status).toBe(200)
      const { rows } = await db.query(`SELECT ref_label FROM work.hostile_values ORDER BY ref_label`)
      expect(rows.map((r) => r.ref_label)).toEqual([...HOSTILE].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
      expect(await victimKept()).toBe(true)
    })

    it('refuses NUL and 10 KB names with 400, and a dataset outside the workspace schemas with 404', async () => {
      for (const datasetSource of ['a\0b', 'K'.repeat(10_240), `places\0; DROP TABLE public.victim`]) {
        const answer = await join({ ...pointsWithin, datasetSource })
        expect(answer.status).toBe(400)
      }
      const nul = await join({ ...pointsWithin, selectionParamSource: 'id\0name' })
      expect(nul.status).toBe(400)
      for (const datasetSource of ['unlisted.secret', '"unlisted"."secret"', 'secret', 'public.victim']) {
        const answer = await join({ ...pointsWithin, datasetSource })
        expect(answer.status, datasetSource).toBe(404)
      }
      expect(await victimKept()).toBe(true)
    })

    it('cancels the statement in the database when the client leaves', async () => {
      const controller = new AbortController()
      const pending = join(
        { ...pointsWithin, datasetSource: 'sleepy' },
        undefined,
        service,
        controller.signal,
      ).catch((error: unknown) => error)
      expect(await waitFor(async () => (await activeJoins()) > 0)).toBe(true)
      controller.abort()
      await pending
      // Cancelled well before the 30 s the statement would take.
      expect(await waitFor(async () => (await activeJoins()) === 0, 5_000)).toBe(true)
      // And the service answers the next request on a sound connection.
      expect((await join(pointsWithin)).status).toBe(200)
    })

    it('cancels a statement past the time limit in the database (504, classified)', async () => {
      const limited = await startLocalService({
        workspaceDir: dir,
        databaseUri: cluster.uri('gis', 'schema=work'),
        env: { PGPASSWORD: cluster.password, PGOPTIONS: '-c statement_timeout=1000' },
        token: TOKEN,
        sampleData: false,
      })
      try {
        const started = Date.now()
        const answer = await join({ ...pointsWithin, datasetSource: 'sleepy' }, undefined, limited)
        expect(answer.status).toBe(504)
        expect(answer.body).toMatchObject({ code: 'database-timeout', failureClass: 'timeout-network' })
        expect(Date.now() - started).toBeLessThan(10_000)
        expect(await waitFor(async () => (await activeJoins()) === 0, 5_000)).toBe(true)
      } finally {
        await limited.close()
      }
    })
  },
)
