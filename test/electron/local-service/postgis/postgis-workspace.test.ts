import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalService } from '../../../../electron/local-service/index'
import type { Queryable } from '../../../../electron/local-service/postgis/catalog'
import {
  DatabaseWorkspaceError,
  PostgisWorkspace,
} from '../../../../electron/local-service/postgis/workspace'
import { runCliProcess } from '../../../support/cli'
import { postgresMissing, startTestCluster, type TestCluster } from '../../../support/postgres'

/**
 * A PostGIS database as a workspace, against a throw-away cluster started here (Debian's
 * postgresql-15-postgis-3; skipped, saying why, where it is not installed).
 */
const missing = postgresMissing()
const TOKEN = 'postgis-workspace-test-token'

/** Names a workspace must list exactly as the catalog holds them, and never run. */
const HOSTILE = [
  'Straßen Mit Großbuchstaben',
  'x"; DROP TABLE victim; --',
  "it's /* not */ a comment",
  '$$ SELECT 1 $$',
  'semi;colon',
  'ünïcødé 東京',
  // PostgreSQL keeps at most 63 bytes of a name: the longest name a table can have.
  'L'.repeat(63),
]

let cluster: TestCluster
let db: pg.Client

describe.skipIf(missing)(`PostGIS workspace${missing ? ` (skipped: ${missing})` : ''}`, () => {
  beforeAll(async () => {
    cluster = await startTestCluster()
    await cluster.admin.query('CREATE DATABASE gis')
    await cluster.admin.query('CREATE DATABASE plain')
    await cluster.admin.query(`CREATE ROLE reader LOGIN PASSWORD 'reader-pw'`)
    db = await cluster.connect('gis')
    await db.query(`
      CREATE EXTENSION postgis;
      CREATE SCHEMA work; CREATE SCHEMA "Ref Data"; CREATE SCHEMA unlisted; CREATE SCHEMA closed;
      CREATE TABLE victim (id int);
      CREATE TABLE work.roads (id int, name text, lanes int, open bool, tags jsonb,
                               geom geometry(LineString, 4326));
      INSERT INTO work.roads SELECT i, 'r' || i, 2, true, '{}',
        ST_SetSRID(ST_MakeLine(ST_MakePoint(i % 10, 0), ST_MakePoint(i % 10 + 1, 1)), 4326)
        FROM generate_series(1, 500) i;
      CREATE VIEW work.big_roads AS SELECT * FROM work.roads WHERE lanes > 2;
      CREATE MATERIALIZED VIEW work.road_points AS SELECT id, ST_StartPoint(geom) AS geom FROM work.roads;
      CREATE TABLE work.areas (code text, g geography(Polygon, 4326));
      CREATE TABLE work.metric (geom geometry(MultiPolygon, 3857));
      INSERT INTO work.metric VALUES (ST_Multi(ST_Buffer(ST_SetSRID(ST_MakePoint(1113195, 1118890), 3857), 50000)));
      CREATE TABLE work.no_geometry (id int);
      CREATE TABLE "Ref Data".towns (id int, geom geometry(Point, 4326));
      INSERT INTO "Ref Data".towns VALUES (1, 'SRID=4326;POINT(5 5)');
      CREATE TABLE unlisted.secret_places (geom geometry(Point, 4326));
      CREATE TABLE closed.inside (geom geometry(Point, 4326));
      GRANT CONNECT ON DATABASE gis TO reader;
      GRANT USAGE ON SCHEMA work TO reader;
      GRANT SELECT ON ALL TABLES IN SCHEMA work TO reader;
    `)
    for (const name of HOSTILE) {
      const q = `"${name.replaceAll('"', '""')}"`
      await db.query(`CREATE TABLE work.${q} (${q} text, geom geometry(Point, 4326))`)
      await db.query(`INSERT INTO work.${q} VALUES ('v', 'SRID=4326;POINT(1 2)')`)
    }
    // A 10 KB name: PostgreSQL keeps its first 63 bytes; the dataset is what the catalog then holds.
    await db.query(`CREATE TABLE work."${'K'.repeat(10_240)}" (geom geometry(Point, 4326))`)
    await db.query('ANALYZE')
  }, 120_000)
  afterAll(async () => {
    await cluster?.stop()
  })

  const env = () => ({ PGPASSWORD: cluster.password })
  const open = (
    query: string,
    options: { user?: string; wrap?: (db: Queryable) => Queryable; listReuseMs?: number } = {},
  ) =>
    PostgisWorkspace.fromUri(cluster.uri('gis', query, options.user), {
      env: options.user === 'reader' ? { PGPASSWORD: 'reader-pw' } : env(),
      ...(options.wrap ? { wrap: options.wrap } : {}),
      ...(options.listReuseMs !== undefined ? { listReuseMs: options.listReuseMs } : {}),
    })
  const listOf = async (query: string) => {
    const ws = open(query)
    try {
      return await ws.list()
    } finally {
      await ws.close()
    }
  }

  it('lists tables, views and materialized views with a geometry or geography column, in two catalog statements', async () => {
    let statements = 0
    const ws = open('schema=work,Ref%20Data', {
      wrap: (inner) => ({ query: (text, values) => (statements++, inner.query(text, values)) }),
    })
    const list = await ws.list().finally(() => ws.close())
    expect(statements).toBeLessThanOrEqual(3)
    const byName = new Map(list.map((d) => [d.name, d]))
    expect([...byName.keys()]).toEqual(
      expect.arrayContaining(['roads', 'big_roads', 'road_points', 'areas', 'metric', 'Ref Data.towns']),
    )
    expect(byName.has('no_geometry')).toBe(false)
    const roads = byName.get('roads')!
    expect(roads).toMatchObject({
      kind: 'table',
      geometryType: 'LINESTRING',
      geometryColumn: 'geom',
      featureCount: 500,
      fields: [
        { name: 'id', type: 'number' },
        { name: 'name', type: 'string' },
        { name: 'lanes', type: 'number' },
        { name: 'open', type: 'boolean' },
        { name: 'tags', type: 'json' },
      ],
    })
    expect(roads.extent![0]).toBeCloseTo(0, 0)
    expect(roads.extent![2]).toBeCloseTo(10, 0)
    expect(byName.get('big_roads')).toMatchObject({ kind: 'view', featureCount: null })
    // An expression column has no type modifier: GEOMETRY, as geometry_columns says.
    expect(byName.get('road_points')).toMatchObject({ kind: 'materialized view', geometryType: 'GEOMETRY' })
    expect(byName.get('areas')).toMatchObject({ geometryKind: 'geography', geometryType: 'POLYGON' })
    // EPSG:3857 statistics come back as lon/lat: a 50 km buffer around (10°, 10°).
    const metric = byName.get('metric')!.extent!
    expect((metric[0] + metric[2]) / 2).toBeCloseTo(10, 1)
    expect((metric[1] + metric[3]) / 2).toBeCloseTo(10, 1)
    expect(byName.get('Ref Data.towns')).toMatchObject({ schema: 'Ref Data', table: 'towns' })
  })

  it('lists only the schemas named: a dataset in an unlisted schema is not a dataset', async () => {
    const names = (await listOf('schema=work')).map((d) => d.name)
    expect(names.some((n) => n.includes('secret_places') || n.includes('towns'))).toBe(false)
    expect(names).toContain('roads')
  })

  it('lists hostile names exactly as named, runs none of them, and cuts nothing the database kept', async () => {
    const list = await listOf('schema=work')
    const names = list.map((d) => d.name)
    for (const name of HOSTILE) {
      expect(names).toContain(name)
      const d = list.find((x) => x.name === name)!
      expect(d.fields).toEqual([{ name, type: 'string' }])
      expect(d.featureCount).toBe(1)
      // PostGIS's ST_EstimatedExtent cannot take a name holding a quote: no extent then, never a wrong one.
      expect(d.extent).toEqual(name.includes('"') ? null : [1, 2, 1, 2])
    }
    expect(names).toContain('K'.repeat(63))
    expect((await db.query(`SELECT to_regclass('public.victim') IS NOT NULL AS kept`)).rows[0].kept).toBe(
      true,
    )
  })

  it('lists again in one statement while the catalogs are unchanged, and shows a change to them at once', async () => {
    await db.query(`
      CREATE SCHEMA changing;
      CREATE TABLE changing.sites (id int, label text, geom geometry(Point, 4326));
      INSERT INTO changing.sites VALUES (1, 'a', 'SRID=4326;POINT(1 1)');
      CREATE TABLE changing.parks (name text, geom geometry(Polygon, 4326));
      GRANT USAGE ON SCHEMA changing TO reader;
      GRANT SELECT ON changing.sites TO reader;
      ANALYZE changing.sites;
    `)
    let statements = 0
    const counting = (user?: string, listReuseMs?: number) =>
      open('schema=changing', {
        ...(user ? { user } : {}),
        ...(listReuseMs !== undefined ? { listReuseMs } : {}),
        wrap: (inner) => ({ query: (text, values) => (statements++, inner.query(text, values)) }),
      })
    const ws = counting()
    const reader = counting('reader')
    const listed = async (w: PostgisWorkspace) => {
      statements = 0
      const list = await w.list()
      return { statements, list, byName: new Map(list.map((d) => [d.name, d])) }
    }
    try {
      expect((await listed(ws)).byName.get('sites')!.fields.map((f) => f.name)).toEqual(['id', 'label'])
      const again = await listed(ws)
      expect(again.statements).toBe(1)
      expect([...again.byName.keys()].sort()).toEqual(['parks', 'sites'])

      // Each change made by another session (another instance, psql) is in the very next list, which is
      // the listing a workspace opened afresh gives (the relations not changed are not read again).
      const changes: [string, (l: Awaited<ReturnType<typeof listed>>) => void][] = [
        [
          'CREATE TABLE changing.roads (geom geometry(LineString, 4326))',
          (l) => expect(l.byName.get('roads')).toMatchObject({ geometryType: 'LINESTRING' }),
        ],
        [
          'ALTER TABLE changing.sites ALTER COLUMN id TYPE text',
          (l) => expect(l.byName.get('sites')!.fields[0]).toEqual({ name: 'id', type: 'string' }),
        ],
        [
          'ALTER TABLE changing.sites ADD COLUMN visits int',
          (l) => expect(l.byName.get('sites')!.fields.map((f) => f.name)).toEqual(['id', 'label', 'visits']),
        ],
        [
          `INSERT INTO changing.sites SELECT i::text, 'b', 'SRID=4326;POINT(2 2)' FROM generate_series(1, 99) i;
           ANALYZE changing.sites`,
          (l) => expect(l.byName.get('sites')!.featureCount).toBe(100),
        ],
        [
          'ALTER TABLE changing.parks RENAME TO gardens',
          (l) => expect([...l.byName.keys()].sort()).toEqual(['gardens', 'roads', 'sites']),
        ],
        ['DROP TABLE changing.roads', (l) => expect(l.byName.has('roads')).toBe(false)],
      ]
      for (const [sql, expectation] of changes) {
        await db.query(sql)
        const after = await listed(ws)
        expect(after.statements, sql).toBeGreaterThan(1)
        expectation(after)
        const fresh = open('schema=changing')
        expect(after.list, sql).toEqual(await fresh.list().finally(() => fresh.close()))
      }
      expect((await listed(reader)).byName.has('sites')).toBe(true)
      await db.query('REVOKE SELECT ON changing.sites FROM reader')
      expect((await listed(reader)).byName.has('sites')).toBe(false)

      // A column renamed or dropped changes pg_attribute alone: listed again once the listing is older than
      // the reuse time (here 100 ms).
      const briefly = counting(undefined, 100)
      try {
        await briefly.list()
        await db.query('ALTER TABLE changing.sites RENAME COLUMN label TO title')
        await db.query('ALTER TABLE changing.sites DROP COLUMN visits')
        await new Promise((r) => setTimeout(r, 150))
        const after = await listed(briefly)
        expect(after.byName.get('sites')!.fields.map((f) => f.name)).toEqual(['id', 'title'])
      } finally {
        await briefly.close()
      }
    } finally {
      await Promise.all([ws.close(), reader.close()])
    }
  })

  it('lists once for many lists asking at the same time', async () => {
    let listings = 0
    const ws = open('schema=work', {
      wrap: (inner) => ({
        query: (text, values) => (/WITH rel AS/.test(text) && listings++, inner.query(text, values)),
      }),
    })
    try {
      const lists = await Promise.all(Array.from({ length: 8 }, () => ws.list()))
      expect(listings).toBe(1)
      for (const list of lists) expect(list).toEqual(lists[0])
    } finally {
      await ws.close()
    }
  })

  it('answers GET /mgis/v2/getLayersList from the database in the shape of a file workspace', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-pg-svc-'))
    const service = await startLocalService({
      workspaceDir: dir,
      databaseUri: cluster.uri('gis', 'schema=work,Ref%20Data'),
      env: env(),
      token: TOKEN,
      sampleData: false,
    })
    try {
      const response = await fetch(`${service.urls.mgis_v2_url}/getLayersList`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      })
      expect(response.status).toBe(200)
      const body = (await response.json()) as { success: boolean; data: Record<string, unknown>[] }
      expect(body.success).toBe(true)
      const towns = body.data.find((d) => d.layername === 'Ref Data.towns')!
      expect(Object.keys(towns).sort()).toEqual(
        [
          'layername',
          'geometrytype',
          'source',
          'fields',
          'featureCount',
          'featureCountEstimated',
          'extent',
          'geometryColumn',
          'created',
        ].sort(),
      )
      expect(towns).toMatchObject({ geometrytype: 'POINT', featureCount: 1, extent: [5, 5, 5, 5] })
      expect(body.data.map((d) => d.layername)).not.toContain('unlisted.secret_places')
    } finally {
      await service.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('answers 404 "no data found" for schemas without datasets', async () => {
    await db.query('CREATE SCHEMA IF NOT EXISTS empty')
    const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-pg-svc-'))
    const service = await startLocalService({
      workspaceDir: dir,
      databaseUri: cluster.uri('gis', 'schema=empty'),
      env: env(),
      token: TOKEN,
      sampleData: false,
    })
    try {
      const response = await fetch(`${service.urls.mgis_v2_url}/getLayersList`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      })
      expect(response.status).toBe(404)
    } finally {
      await service.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  describe('"Test connection" names what is wrong', () => {
    const problemOf = async (ws: PostgisWorkspace) => {
      try {
        await ws.check()
        return 'ok'
      } catch (error) {
        expect(error).toBeInstanceOf(DatabaseWorkspaceError)
        return `${(error as DatabaseWorkspaceError).problem}: ${(error as Error).message}`
      } finally {
        await ws.close()
      }
    }
    it('connects', async () => {
      expect(await problemOf(open('schema=work'))).toBe('ok')
    })
    it('refused', async () => {
      const ws = PostgisWorkspace.fromUri('postgresql://x@127.0.0.1:1/gis?sslmode=disable', { env: env() })
      expect(await problemOf(ws)).toMatch(/^refused: .*127\.0\.0\.1:1 refused the connection/)
    })
    it('wrong password, never repeating it', async () => {
      const ws = PostgisWorkspace.fromUri(cluster.uri('gis'), { env: { PGPASSWORD: 'wrong-pw-123' } })
      const found = await problemOf(ws)
      expect(found).toMatch(/^wrong-password: .*wrong password/)
      expect(found).not.toContain('wrong-pw-123')
    })
    it('database missing', async () => {
      const ws = PostgisWorkspace.fromUri(cluster.uri('nowhere'), { env: env() })
      expect(await problemOf(ws)).toMatch(/^database-missing: The database "nowhere" does not exist/)
    })
    it('PostGIS extension missing', async () => {
      const ws = PostgisWorkspace.fromUri(cluster.uri('plain'), { env: env() })
      expect(await problemOf(ws)).toMatch(/^postgis-missing: The PostGIS extension is not installed/)
    })
    it('no permission on the schema', async () => {
      expect(await problemOf(open('schema=work', { user: 'reader' }))).toBe('ok')
      expect(await problemOf(open('schema=work,closed', { user: 'reader' }))).toMatch(
        /^no-permission: User "reader" has no permission on the schema "closed"/,
      )
    })
    it('schema missing', async () => {
      expect(await problemOf(open('schema=work,nope'))).toMatch(/^schema-missing: The schema "nope"/)
    })
  })

  describe('geo-analyst datasets --workspace postgresql://…', () => {
    const home = () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-pg-home-'))
      return { dir, env: { HOME: dir, PGPASSFILE: path.join(dir, '.pgpass'), PGPASSWORD: '' } }
    }
    it('lists the datasets with the password from ~/.pgpass', async () => {
      const h = home()
      try {
        writeFileSync(h.env.PGPASSFILE, `127.0.0.1:${cluster.port}:gis:${cluster.user}:${cluster.password}\n`)
        chmodSync(h.env.PGPASSFILE, 0o600)
        const run = await runCliProcess(['datasets', '--workspace', cluster.uri('gis', 'schema=work')], {
          env: h.env,
          timeoutMs: 60_000,
        })
        expect(run.stderr).toBe('')
        expect(run.code).toBe(0)
        expect(run.stdout).toMatch(/^roads\s+LINESTRING\s+~500\s+PostGIS table "work"."roads"$/m)
        expect(run.stdout).not.toContain(cluster.password)
      } finally {
        rmSync(h.dir, { recursive: true, force: true })
      }
    }, 60_000)
    it('prints the problem in plain words, and refuses a password in the URI', async () => {
      const h = home()
      try {
        const wrong = await runCliProcess(['datasets', '--workspace', cluster.uri('gis')], {
          env: { ...h.env, PGPASSWORD: 'not-the-pw-42' },
          timeoutMs: 60_000,
        })
        expect(wrong.code).not.toBe(0)
        expect(wrong.stderr).toMatch(/wrong password/)
        expect(wrong.stdout + wrong.stderr).not.toContain('not-the-pw-42')
        // No password anywhere (no PGPASSWORD, no ~/.pgpass): said in plain words, and the command ends.
        const none = await runCliProcess(['datasets', '--workspace', cluster.uri('gis')], {
          env: h.env,
          timeoutMs: 60_000,
        })
        expect(none.code).not.toBe(0)
        expect(none.code).not.toBeNull()
        expect(none.stderr).toMatch(/asks user "geo_super" for a password and none was given/)
        const inUri = await runCliProcess(
          ['datasets', '--workspace', `postgresql://u:hunter2secret@127.0.0.1:${cluster.port}/gis`],
          { env: h.env, timeoutMs: 60_000 },
        )
        expect(inUri.code).not.toBe(0)
        expect(inUri.stderr).toMatch(/must not contain a password/)
        expect(inUri.stdout + inUri.stderr).not.toContain('hunter2secret')
      } finally {
        rmSync(h.dir, { recursive: true, force: true })
      }
    }, 60_000)
  })
})
