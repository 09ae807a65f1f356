import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importFile } from '../../../../electron/local-service/import/import-dataset'
import { startLocalService, type LocalService } from '../../../../electron/local-service/index'
import { qualified } from '../../../../electron/local-service/postgis/sql'
import { Workspace } from '../../../../electron/local-service/workspace/workspace'
import { runCliProcess } from '../../../support/cli'
import { postgresMissing, startTestCluster, type TestCluster } from '../../../support/postgres'

/**
 * Import into and export from a PostGIS workspace (issue 31), against a throw-away cluster: files of three
 * formats imported through the service and the CLI, compared with the folder import of the same files;
 * hostile names; two imports of one name at once; the backend terminated mid-COPY; export read back by GDAL.
 */
const missing = postgresMissing()
const TOKEN = 'import-export-token'

let cluster: TestCluster
let db: pg.Client
let dbService: LocalService
let folderService: LocalService
let dir: string
let folder: Workspace
const files: Record<string, string> = {}

async function importVia(svc: LocalService, body: Record<string, unknown>) {
  const response = await fetch(`http://127.0.0.1:${svc.port}/local/datasets/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

async function join(svc: LocalService, params: Record<string, string>) {
  const query = new URLSearchParams(params)
  const response = await fetch(`${svc.urls.mgis_url}/query_apply/join?${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}` },
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const tableExists = async (name: string) =>
  (await db.query(`SELECT to_regclass($1) IS NOT NULL AS e`, [qualified('work', name)])).rows[0].e as boolean

const victimKept = async () =>
  (await db.query(`SELECT to_regclass('public.victim') IS NOT NULL AS kept`)).rows[0].kept as boolean

const cliEnv = () => ({ PGPASSWORD: cluster.password, GEO_ANALYST_WORKSPACE: '' })

/** A CSV of `n` points (a name, a population, a flag) spread over [0, 10) × [0, 10). */
function placesCsv(n: number, bad = false): string {
  const lines = ['lon,lat,name,pop,capital']
  for (let i = 0; i < n; i++)
    lines.push(
      `${(i % 100) / 10 + 0.05},${(Math.floor(i / 100) % 100) / 10 + 0.05},"p ""${i}"", tab\there",${i * 1.5},${i % 7 === 0}`,
    )
  if (bad) lines.push('12,200,bad row,1,false')
  return lines.join('\n') + '\n'
}

const zonesGeojson = JSON.stringify({
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { zone: 'west', meta: { level: 1, tags: ['a', 'b'] } },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [5, 0],
            [5, 10],
            [0, 10],
            [0, 0],
          ],
        ],
      },
    },
    {
      type: 'Feature',
      properties: { zone: 'east', meta: { level: 2 } },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [5, 0],
            [10, 0],
            [10, 10],
            [5, 10],
            [5, 0],
          ],
        ],
      },
    },
  ],
})

describe.skipIf(missing)(`PostGIS import and export${missing ? ` (skipped: ${missing})` : ''}`, () => {
  beforeAll(async () => {
    cluster = await startTestCluster()
    await cluster.admin.query('CREATE DATABASE gis')
    db = await cluster.connect('gis')
    await db.query(`
      CREATE EXTENSION postgis;
      CREATE TABLE public.victim (id int);
      CREATE SCHEMA work; CREATE SCHEMA unlisted;
      CREATE TABLE unlisted.secret (id int, geom geometry(Point, 4326));
      INSERT INTO unlisted.secret VALUES (1, 'SRID=4326;POINT(1 1)');
    `)
    dir = mkdtempSync(path.join(os.tmpdir(), 'geo-pg-import-'))
    files.places = path.join(dir, 'places.csv')
    writeFileSync(files.places, placesCsv(500))
    files.zones = path.join(dir, 'zones.geojson')
    writeFileSync(files.zones, zonesGeojson)
    const roadsJson = path.join(dir, 'roads-src.geojson')
    writeFileSync(
      roadsJson,
      JSON.stringify({
        type: 'FeatureCollection',
        features: Array.from({ length: 40 }, (_, i) => ({
          type: 'Feature',
          properties: { road: `r${i}`, lanes: (i % 3) + 1 },
          geometry: {
            type: 'LineString',
            coordinates: [
              [i / 4 + 0.123456789012, 1.987654321098],
              [i / 4 + 0.2, 8.5],
            ],
          },
        })),
      }),
    )
    files.roads = path.join(dir, 'roads.gpkg')
    execFileSync('ogr2ogr', ['-f', 'GPKG', files.roads, roadsJson, '-nln', 'roads'])
    files.big = path.join(dir, 'big.csv')
    writeFileSync(files.big, placesCsv(400_000))
    files.bad = path.join(dir, 'bad.csv')
    writeFileSync(files.bad, placesCsv(10, true))
    files.broken = path.join(dir, 'broken.geojson')
    writeFileSync(files.broken, '{"type":"FeatureCollection","features":[{"type":"Feature",')

    folder = new Workspace(path.join(dir, 'folder'))
    for (const name of ['places', 'zones', 'roads']) await importFile(folder, files[name]!)
    dbService = await startLocalService({
      workspaceDir: path.join(dir, 'unused'),
      databaseUri: cluster.uri('gis', 'schema=work'),
      env: { PGPASSWORD: cluster.password },
      token: TOKEN,
      sampleData: false,
    })
    folderService = await startLocalService({ workspaceDir: folder.dir, token: TOKEN, sampleData: false })
  }, 180_000)

  afterAll(async () => {
    await dbService?.close()
    await folderService?.close()
    await cluster?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('imports a CSV and a GeoJSON through the service and a GeoPackage through the CLI, as the folder import reads them', async () => {
    const places = await importVia(dbService, { path: files.places })
    expect(places.status).toBe(201)
    expect(places.body).toMatchObject({ layername: 'places', geometrytype: 'POINT', featureCount: 500 })
    const zones = await importVia(dbService, { path: files.zones })
    expect(zones.status).toBe(201)
    const cli = await runCliProcess(
      ['import', files.roads!, '--workspace', cluster.uri('gis', 'schema=work')],
      { env: cliEnv(), timeoutMs: 60_000 },
    )
    expect(cli.stderr).toBe('')
    expect(cli.code).toBe(0)
    expect(cli.stdout).toMatch(/Imported roads into work: 40 LINESTRING features, 2 fields/)

    // Typed columns, a GiST index, analysed.
    const columns = await db.query(
      `SELECT column_name, data_type FROM information_schema.columns
        WHERE table_schema = 'work' AND table_name = 'places' ORDER BY ordinal_position`,
    )
    expect(columns.rows.map((r) => `${r.column_name}:${r.data_type}`)).toEqual([
      'name:text',
      'pop:double precision',
      'capital:text',
      'geom:USER-DEFINED',
    ])
    const index = await db.query(
      `SELECT indexdef FROM pg_indexes WHERE schemaname = 'work' AND tablename = 'roads'`,
    )
    expect(index.rows.map((r) => r.indexdef).join()).toMatch(/USING gist \(geom\)/)
    const stats = await db.query(`SELECT reltuples FROM pg_class WHERE oid = 'work.places'::regclass`)
    expect(Number(stats.rows[0].reltuples)).toBe(500)

    // Listed, with the folder import's counts.
    const list = await fetch(`${dbService.urls.mgis_v2_url}/getLayersList`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    const listed = ((await list.json()) as { data: { layername: string; featureCount: number }[] }).data
    for (const name of ['places', 'zones', 'roads']) {
      const manifest = await folder.manifest(name)
      expect(listed.find((d) => d.layername === name)?.featureCount).toBe(manifest.featureCount)
    }

    // A value and a coordinate, exactly as the folder import holds them.
    const { features: folderPlaces } = await folder.read('places')
    const p = await db.query(`SELECT name, pop, capital, ST_X(geom) AS x, ST_Y(geom) AS y FROM work.places`)
    const byName = new Map(folderPlaces.map((f) => [f.properties.name, f]))
    expect(p.rows).toHaveLength(folderPlaces.length)
    for (const row of p.rows) {
      const f = byName.get(row.name)!
      expect(f).toBeDefined()
      expect([row.pop, row.capital]).toEqual([f.properties.pop, f.properties.capital])
      expect([row.x, row.y]).toEqual((f.geometry as { coordinates: number[] }).coordinates)
    }
    expect(p.rows.find((r) => r.name === 'p "7", tab\there')?.pop).toBe(10.5)
    const { features: folderRoads } = await folder.read('roads')
    const r = await db.query(`SELECT ST_AsGeoJSON(geom, 15) AS g, lanes FROM work.roads WHERE road = 'r0'`)
    const road0 = folderRoads.find((f) => f.properties.road === 'r0')!
    expect(JSON.parse(r.rows[0].g).coordinates).toEqual(
      (road0.geometry as { coordinates: number[][] }).coordinates,
    )
    const z = await db.query(`SELECT meta FROM work.zones WHERE zone = 'west'`)
    expect(z.rows[0].meta).toEqual({ level: 1, tags: ['a', 'b'] })

    // Joined over the database as over the folder: the same rows.
    const params = {
      queryType: 'spatialOperation',
      datasetSource: 'places',
      datasetRef: 'zones',
      operator: 'Within',
      sourceProperty: 'geom',
      selectionParamSource: 'name,pop',
      selectionParamRef: 'zone',
    }
    const overDb = await join(dbService, params)
    const overFolder = await join(folderService, params)
    expect(overDb.status).toBe(200)
    expect(overFolder.status).toBe(200)
    const rows = (b: Record<string, unknown>) =>
      (b.result as Record<string, string>[]).map((x) => `${x.prop1}|${x.prop2}|${x.prop3}`).sort()
    expect(rows(overDb.body)).toHaveLength(500)
    expect(rows(overDb.body)).toEqual(rows(overFolder.body))
  }, 120_000)

  it('answers 409 for a name taken in any letter case, and leaves the table as it was', async () => {
    const again = await importVia(dbService, { path: files.zones, name: 'ZONES' })
    expect(again.status).toBe(409)
    expect(again.body.field).toBe('name')
    expect(await tableExists('ZONES')).toBe(false)
    expect((await db.query('SELECT count(*)::int AS n FROM work.zones')).rows[0].n).toBe(2)
  })

  it('imports hostile names as exactly that name, and refuses names PostgreSQL cannot keep', async () => {
    for (const name of [`x"; DROP TABLE public.victim; --`, `it's /* not */ $$ a; name`]) {
      const made = await importVia(dbService, { path: files.zones, name })
      expect(made.status).toBe(201)
      expect(made.body.layername).toBe(name)
      expect(await tableExists(name)).toBe(true)
      expect((await db.query(`SELECT count(*)::int AS n FROM ${qualified('work', name)}`)).rows[0].n).toBe(2)
    }
    expect(await victimKept()).toBe(true)
    for (const name of ['a\0b', 'x'.repeat(64), '']) {
      const refused = await importVia(dbService, { path: files.zones, name })
      expect(refused.status).toBe(400)
      expect(refused.body.message).toMatch(/63 bytes without NUL/)
    }
  })

  it('refuses invalid features as the folder import does, and imports the rest with skipInvalid', async () => {
    const refused = await importVia(dbService, { path: files.bad })
    expect(refused.status).toBe(400)
    expect(refused.body.code).toBe('invalid-features')
    expect(await tableExists('bad')).toBe(false)
    const broken = await importVia(dbService, { path: files.broken })
    expect(broken.status).toBe(400)
    expect(await tableExists('broken')).toBe(false)
    const skipped = await importVia(dbService, { path: files.bad, skipInvalid: true })
    expect(skipped.status).toBe(201)
    expect(skipped.body).toMatchObject({ featureCount: 10, skippedInvalid: 1 })
    expect((await db.query('SELECT count(*)::int AS n FROM work.bad')).rows[0].n).toBe(10)
  })

  it('of two imports of one name at once, exactly one wins and the other answers 409', async () => {
    for (let round = 0; round < 2; round++) {
      const name = `raced_${round}`
      const answers = await Promise.all([
        importVia(dbService, { path: files.zones, name }),
        importVia(dbService, { path: files.zones, name }),
      ])
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409])
      expect((await db.query(`SELECT count(*)::int AS n FROM ${qualified('work', name)}`)).rows[0].n).toBe(2)
    }
  }, 60_000)

  it('leaves no table when the database connection is terminated mid-COPY', async () => {
    let terminated = false
    const killer = (async () => {
      const until = Date.now() + 90_000
      while (!terminated && Date.now() < until) {
        const { rows } = await db.query(
          `SELECT pg_terminate_backend(pid) AS t FROM pg_stat_activity
            WHERE query LIKE 'COPY %big%' AND state = 'active' AND pid <> pg_backend_pid()`,
        )
        if (rows.some((r) => r.t)) terminated = true
        else await new Promise((r) => setTimeout(r, 10))
      }
    })()
    const answer = await importVia(dbService, { path: files.big })
    await killer
    expect(terminated).toBe(true)
    expect(answer.status).toBe(503)
    expect(String(answer.body.message)).toMatch(/closed the connection|shutting down/)
    expect(await tableExists('big')).toBe(false)
    // The service goes on answering.
    const list = await fetch(`${dbService.urls.mgis_v2_url}/getLayersList`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    expect(list.status).toBe(200)
  }, 120_000)

  it('exports an imported table as GeoJSON and CSV that GDAL reads with the same count; refuses a dataset outside the schemas', async () => {
    const uri = cluster.uri('gis', 'schema=work')
    for (const [format, ext] of [
      ['geojson', 'geojson'],
      ['csv', 'csv'],
    ] as const) {
      const out = path.join(dir, `places-out.${ext}`)
      const run = await runCliProcess(
        ['export', 'places', '--format', format, '--out', out, '--workspace', uri],
        {
          env: cliEnv(),
          timeoutMs: 60_000,
        },
      )
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
      expect(run.stdout).toMatch(/Exported 500 features of places/)
      const info = execFileSync('ogrinfo', ['-so', '-al', out]).toString()
      expect(info).toMatch(/Feature Count: 500/)
      if (format === 'geojson') {
        const text = readFileSync(out, 'utf8')
        const fc = JSON.parse(text) as { features: { properties: Record<string, unknown> }[] }
        expect(fc.features.find((f) => f.properties.name === 'p "7", tab\there')?.properties.pop).toBe(10.5)
      }
    }
    const outside = await runCliProcess(
      [
        'export',
        'unlisted.secret',
        '--format',
        'geojson',
        '--out',
        path.join(dir, 'secret.geojson'),
        '--workspace',
        uri,
      ],
      { env: cliEnv(), timeoutMs: 60_000 },
    )
    expect(outside.code).toBe(4)
    expect(outside.stderr).toMatch(/No dataset named "unlisted.secret" in the workspace's schemas \(work\)/)
    const gpkg = await runCliProcess(
      ['export', 'places', '--format', 'gpkg', '--out', path.join(dir, 'p.gpkg'), '--workspace', uri],
      { env: cliEnv(), timeoutMs: 60_000 },
    )
    expect(gpkg.code).toBe(2)
    expect(gpkg.stderr).toMatch(/exports as geojson or csv/)
  }, 120_000)
})
