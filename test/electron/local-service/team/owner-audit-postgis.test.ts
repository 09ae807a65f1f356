import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalService, type LocalService } from '../../../../electron/local-service/index'
import { THREAD_NICE } from '../../../../electron/local-service/postgis/join-job'
import { PostgisAuditSink } from '../../../../electron/local-service/team/audit-postgis'
import { postgresMissing, startTestCluster, type TestCluster } from '../../../support/postgres'
import { threadNices } from '../../../support/thread-nice'
import { cli } from '../../cli/cli-harness'
import { bearer, saveQuery, teamUsers } from './team-users'

/**
 * Owner attribution and the shared audit over a PostGIS workspace (issue 32), against a throw-away cluster:
 * a save and an import by a user record them in `geo_analyst.dataset_owner` (the list shows `owner`), and
 * two instances over one database write their audit entries to `geo_analyst.audit`.
 */
const missing = postgresMissing()

let cluster: TestCluster
let db: pg.Client
const services: LocalService[] = []
let dir: string
let tokens: Record<string, string>

async function listed(service: LocalService): Promise<Map<string, Record<string, unknown>>> {
  const r = await fetch(`${service.urls.mgis_v2_url}/getLayersList`, { headers: bearer(tokens.rita!) })
  expect(r.status).toBe(200)
  const data = ((await r.json()) as { data: Record<string, unknown>[] }).data
  return new Map(data.map((d) => [String(d.layername), d]))
}

async function until(check: () => Promise<boolean>, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await check()) return true
    await new Promise((r) => setTimeout(r, 100))
  }
  return check()
}

describe.skipIf(missing)(`owner and audit over PostGIS${missing ? ` (skipped: ${missing})` : ''}`, () => {
  beforeAll(async () => {
    cluster = await startTestCluster()
    await cluster.admin.query('CREATE DATABASE team')
    db = await cluster.connect('team')
    await db.query(`
      CREATE EXTENSION postgis;
      CREATE SCHEMA work;
      CREATE TABLE work.places (id int, name text, geom geometry(Point, 4326));
      INSERT INTO work.places SELECT i, 'p' || i, ST_SetSRID(ST_MakePoint(i % 10 + 0.5, 0.5), 4326)
        FROM generate_series(0, 19) i;
      CREATE TABLE work.zones (zone text, geom geometry(Polygon, 4326));
      INSERT INTO work.zones VALUES ('west', ST_MakeEnvelope(0, 0, 5, 10, 4326));
      ANALYZE;
    `)
    dir = mkdtempSync(path.join(os.tmpdir(), 'geo-team-pg-'))
    const users = await teamUsers(dir)
    tokens = users.tokens
    for (const name of ['a', 'b'])
      services.push(
        await startLocalService({
          workspaceDir: path.join(dir, name),
          databaseUri: cluster.uri('team', 'schema=work'),
          env: { PGPASSWORD: cluster.password },
          usersFile: users.file,
          // The users import by path from this folder (a team server takes no other path from them).
          importDir: dir,
          auditLog: { file: path.join(dir, name, 'audit.log') },
          sampleData: false,
        }),
      )
  }, 180_000)
  afterAll(async () => {
    await Promise.all(services.map((s) => s.close()))
    await cluster?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('a join saved by a user through one instance shows its owner in the list of the other', async () => {
    const [a, b] = services as [LocalService, LocalService]
    const r = await fetch(`${a.urls.mgis_url}/query_apply/join?${saveQuery('anns_places')}`, {
      method: 'POST',
      headers: bearer(tokens.ann!),
    })
    const answer = (await r.json()) as Record<string, unknown>
    expect([r.status, answer.message]).toEqual([200, expect.any(String)])
    expect(answer.savedDataset).toBe('anns_places')
    const { rows } = await db.query(`SELECT schema, name, owner FROM geo_analyst.dataset_owner`)
    expect(rows).toEqual([{ schema: 'work', name: 'anns_places', owner: 'ann' }])
    expect((await listed(b)).get('anns_places')).toMatchObject({ owner: 'ann' })
    expect((await listed(b)).get('places')).not.toHaveProperty('owner')
  })

  it.runIf(process.platform === 'linux')(
    'a team server’s joins run in database threads below the serving thread (the lists get the cores first)',
    async () => {
      const query = saveQuery('unused')
      query.delete('saveAsNewDataset')
      query.delete('newDatasetNme')
      const r = await fetch(`${services[0]!.urls.mgis_url}/query_apply/join?${query}`, {
        method: 'POST',
        headers: bearer(tokens.ann!),
      })
      expect(r.status).toBe(200)
      expect(((await r.json()) as { rowCount: number }).rowCount).toBe(10)
      expect(threadNices()).toContain(Math.min(19, os.getPriority() + THREAD_NICE))
    },
  )

  it('an import by a user records them in the same transaction as the table', async () => {
    const file = path.join(dir, 'bobs.geojson')
    writeFileSync(
      file,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          { type: 'Feature', geometry: { type: 'Point', coordinates: [3, 3] }, properties: { n: 1 } },
        ],
      }),
    )
    const r = await fetch(`${new URL(services[1]!.urls.mgis_url).origin}/local/datasets/import`, {
      method: 'POST',
      headers: bearer(tokens.bob!, true),
      body: JSON.stringify({ path: file, name: 'bobs_points' }),
    })
    expect(r.status).toBe(201)
    expect((await listed(services[0]!)).get('bobs_points')).toMatchObject({ owner: 'bob' })
  })

  it('`geo-analyst datasets --workspace postgresql://…` shows the OWNER column', async () => {
    const run = await cli(['datasets', '--workspace', cluster.uri('team', 'schema=work')], {
      PGPASSWORD: cluster.password,
      HOME: dir,
    })
    expect(run.code).toBe(0)
    const lines = run.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^NAME\s+TYPE\s+FEATURES\s+OWNER\s+SOURCE$/)
    expect(lines.find((l) => l.startsWith('anns_places'))).toMatch(/~\d+\s+ann\s/)
    expect(lines.find((l) => l.startsWith('bobs_points'))).toMatch(/~\d+\s+bob\s/)
    expect(lines.find((l) => l.startsWith('zones'))).toMatch(/~\d+\s+-\s/)
  })

  it('a table dropped and made again by another program is not shown as the first saver’s', async () => {
    await db.query(`DROP TABLE work.anns_places;
      CREATE TABLE work.anns_places (id int, geom geometry(Point, 4326))`)
    const again = (await listed(services[0]!)).get('anns_places')
    expect(again).toBeDefined()
    expect(again).not.toHaveProperty('owner')
  })

  it("both instances' audit entries go to geo_analyst.audit (the files stay per instance)", async () => {
    const refused = await fetch(`${services[1]!.urls.mgis_url}/query_apply/join?${saveQuery('ritas')}`, {
      method: 'POST',
      headers: bearer(tokens.rita!),
    })
    expect(refused.status).toBe(403)
    const rows = async () =>
      (
        await db.query(
          `SELECT "user", operation, target, outcome, status, instance FROM geo_analyst.audit ORDER BY id`,
        )
      ).rows
    expect(await until(async () => (await rows()).length >= 3)).toBe(true)
    const got = await rows()
    expect(got.map((r) => [r.user, r.target, r.outcome, r.status])).toEqual([
      ['ann', 'anns_places', 'ok', 200],
      ['bob', null, 'ok', 201],
      ['rita', 'ritas', 'refused', 403],
    ])
    expect(got[0]!.operation).toBe('POST /mgis/query_apply/join')
    expect(got[1]!.operation).toBe('POST /local/datasets/import')
    const fileA = readFileSync(path.join(dir, 'a', 'audit.log'), 'utf8')
    const fileB = readFileSync(path.join(dir, 'b', 'audit.log'), 'utf8')
    expect(fileA).toContain('anns_places')
    expect(fileA).not.toContain('ritas')
    expect(fileB).toContain('ritas')
  })

  it('the table sink drops (and counts) entries past its buffer, and reports a failing database once', async () => {
    const reports: string[] = []
    let calls = 0
    const failing = {
      query: async () => {
        calls++
        throw new Error('connection refused')
      },
    }
    const sink = new PostgisAuditSink(failing, 'test', (m) => reports.push(m))
    const entry = {
      time: new Date().toISOString(),
      user: 'ann',
      operation: 'POST /local/datasets/import',
      target: null,
      outcome: 'ok' as const,
      status: 201,
      ms: 1,
      address: '127.0.0.1',
    }
    for (let i = 0; i < 6000; i++) sink.add(entry)
    await sink.flush()
    expect(sink.dropped).toBe(6000)
    expect(calls).toBeGreaterThan(0)
    expect(reports.filter((m) => /cannot insert/.test(m))).toHaveLength(1)
  })
})
