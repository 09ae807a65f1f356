import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalService, type LocalService } from '../../../../electron/local-service/index'
import { postgresMissing, startTestCluster, type TestCluster } from '../../../support/postgres'

/**
 * Two service instances over one PostGIS workspace (a throw-away cluster; two `startLocalService` on their
 * own 127.0.0.1 ports and their own folders, as two machines behind a load balancer): what one writes, the
 * other reads at once, and the database decides between two writes at once.
 */
const missing = postgresMissing()
const TOKEN = 'two-instances-token'

let cluster: TestCluster
let db: pg.Client
let a: LocalService
let b: LocalService
const dirs: string[] = []
let deviceId: number

interface Answer {
  status: number
  json: Record<string, unknown>
  headers: Headers
}

async function call(
  service: LocalService,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(url.startsWith('http') ? url : service.urls.telematics_url + url, {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return {
    status: response.status,
    json: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
    headers: response.headers,
  }
}

const listed = async (service: LocalService) =>
  (await call(service, 'GET', '/alarm')).json.data as Array<Record<string, unknown>>

const rowsWithKey = async (key: string) =>
  Number(
    (
      await db.query(`SELECT count(*) AS n FROM geo_analyst.telematics_alarms WHERE idempotency_key = $1`, [
        key,
      ])
    ).rows[0].n,
  )

async function save(service: LocalService, name: string): Promise<Answer> {
  const query = new URLSearchParams({
    queryType: 'spatialOperation',
    datasetSource: 'places',
    datasetRef: 'zones',
    operator: 'Within',
    sourceProperty: 'geom',
    selectionParamSource: 'id,name',
    selectionParamRef: 'zone',
    saveAsNewDataset: 'true',
    newDatasetNme: name,
  })
  return call(service, 'POST', `${service.urls.mgis_url}/query_apply/join?${query}`)
}

async function datasetNames(service: LocalService): Promise<string[]> {
  const answer = await call(service, 'GET', `${service.urls.mgis_v2_url}/getLayersList`)
  expect(answer.status, JSON.stringify(answer.json).slice(0, 300)).toBe(200)
  return (answer.json.data as { layername: string }[]).map((d) => d.layername)
}

async function waitFor(check: () => Promise<boolean>, ms = 10_000): Promise<boolean> {
  const until = Date.now() + ms
  while (Date.now() < until) {
    if (await check()) return true
    await new Promise((r) => setTimeout(r, 100))
  }
  return check()
}

describe.skipIf(missing)(
  `two service instances over one PostGIS workspace${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    beforeAll(async () => {
      cluster = await startTestCluster()
      await cluster.admin.query('CREATE DATABASE gis')
      db = await cluster.connect('gis')
      await db.query(`
        CREATE EXTENSION postgis;
        CREATE SCHEMA work;
        CREATE TABLE work.places (id int, name text, geom geometry(Point, 4326));
        INSERT INTO work.places SELECT i, 'p' || i, ST_SetSRID(ST_MakePoint(i % 10 + 0.5, i / 10 % 10 + 0.5), 4326)
          FROM generate_series(0, 199) i;
        CREATE TABLE work.zones (zone text, geom geometry(Polygon, 4326));
        INSERT INTO work.zones VALUES ('west', ST_MakeEnvelope(0, 0, 5, 10, 4326)),
                                      ('east', ST_MakeEnvelope(5, 0, 10, 10, 4326));
        ANALYZE;
      `)
      const start = () => {
        const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-two-instances-'))
        dirs.push(dir)
        return startLocalService({
          workspaceDir: dir,
          databaseUri: cluster.uri('gis', 'schema=work'),
          env: { PGPASSWORD: cluster.password },
          token: TOKEN,
          sampleData: false,
        })
      }
      ;[a, b] = await Promise.all([start(), start()])
      // A recorded drive, imported into each instance's (simulated, per-instance) fleet: the same device id.
      const track = path.join(dirs[0]!, 'drive.csv')
      writeFileSync(
        track,
        ['time,lat,lon,speed', '1700000000,57.7,11.95,60', '1700000090,57.718,11.968,60'].join('\n'),
      )
      // Both instances reach their alarm table for the first time at once (its creation must not race).
      const fleets = await Promise.all([a, b].map((s) => call(s, 'PUT', '/local/fleet', { vehicles: 0 })))
      expect(fleets.map((f) => f.status)).toEqual([200, 200])
      const devices = await Promise.all([a, b].map((s) => call(s, 'POST', '/local/tracks', { path: track })))
      expect(devices.map((d) => d.status)).toEqual([201, 201])
      deviceId = devices[0]!.json.deviceId as number
      expect(devices[1]!.json.deviceId).toBe(deviceId)
    }, 180_000)
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()])
      await cluster?.stop()
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
    })

    it('lists through B, at once, an alarm configuration created through A; B evaluates it from its next tick', async () => {
      const created = await call(a, 'POST', '/alarm', { alarmType: 21, deviceId: [deviceId], type: 2 })
      expect(created.status).toBe(201)
      const id = (created.json.data as { id: number }).id
      expect(await listed(b)).toContainEqual(created.json.data)
      expect((await listed(a)).map((c) => c.id)).toEqual((await listed(b)).map((c) => c.id))
      // The configuration lives in the database, not in either instance's folder.
      for (const dir of dirs) expect(existsSync(path.join(dir, 'telematics', 'alarms.json'))).toBe(false)
      // With the user who created it (the single-token service acts as "local").
      const { rows } = await db.query(`SELECT created_by FROM geo_analyst.telematics_alarms WHERE id = $1`, [
        id,
      ])
      expect(rows).toEqual([{ created_by: 'local' }])
      // B's alarm engine picks it up (the store's version changes): its configurations count follows.
      const count = async (s: LocalService) =>
        ((await call(s, 'GET', '/local/fleet')).json.stats as { configurations: number }).configurations
      const inDb = (await listed(a)).length
      expect(await waitFor(async () => (await count(b)) === inDb)).toBe(true)
      expect(await count(a)).toBe(inDb)
    })

    it('of one Idempotency-Key sent through A and B at once, keeps one configuration; both get it', async () => {
      const body = { alarmType: 21, deviceId: [deviceId], type: 1 }
      for (let round = 0; round < 5; round++) {
        const key = { 'Idempotency-Key': `both-at-once-${round}` }
        const before = (await listed(a)).length
        const answers = await Promise.all([
          call(a, 'POST', '/alarm', body, key),
          call(b, 'POST', '/alarm', body, key),
        ])
        expect(answers.map((x) => x.status)).toEqual([201, 201])
        expect(answers[0]!.json.data).toEqual(answers[1]!.json.data)
        expect(answers.filter((x) => x.headers.get('idempotent-replayed') === 'true')).toHaveLength(1)
        expect(await rowsWithKey(key['Idempotency-Key'])).toBe(1)
        expect((await listed(b)).length).toBe(before + 1)
      }
    })

    it('refuses through B the key A used with another body, as one instance does (409), storing nothing', async () => {
      const key = { 'Idempotency-Key': 'a-then-b' }
      const first = await call(a, 'POST', '/alarm', { alarmType: 21, deviceId: [deviceId], type: 2 }, key)
      expect(first.status).toBe(201)
      const before = (await listed(a)).length
      const other = await call(b, 'POST', '/alarm', { alarmType: 21, deviceId: [deviceId], type: 3 }, key)
      expect(other).toMatchObject({ status: 409, json: { field: 'Idempotency-Key', success: false } })
      expect(other.json.message).toMatch(
        new RegExp(`created alarm configuration ${(first.json.data as { id: number }).id} with another body`),
      )
      const again = await call(b, 'POST', '/alarm', { alarmType: 21, deviceId: [deviceId], type: 2 }, key)
      expect(again.status).toBe(201)
      expect(again.headers.get('idempotent-replayed')).toBe('true')
      expect(again.json.data).toEqual(first.json.data)
      expect((await listed(a)).length).toBe(before)
      expect(await rowsWithKey('a-then-b')).toBe(1)
    })

    it('of one dataset name saved through A and B at once, exactly one is 200 and the other 409', async () => {
      for (let round = 0; round < 3; round++) {
        const name = `shared_${round}`
        const answers = await Promise.all([save(a, name), save(b, name)])
        expect(answers.map((x) => x.status).sort()).toEqual([200, 409])
        expect(answers.find((x) => x.status === 409)!.json.field).toBe('newDatasetNme')
        const { rows } = await db.query(`SELECT count(*)::int AS n FROM work.${name}`)
        expect(rows[0].n).toBe(200)
      }
    })

    it('lists through B, at once, a dataset saved through A (and the other way round)', async () => {
      expect((await save(a, 'from_a')).status).toBe(200)
      expect(await datasetNames(b)).toContain('from_a')
      expect((await save(b, 'from_b')).status).toBe(200)
      expect(await datasetNames(a)).toContain('from_b')
    })

    it('answers 500 naming the database while it is down, runs the fleet on, and shares again once it is back', async () => {
      const before = await listed(b)
      cluster.halt()
      try {
        const down = await call(a, 'GET', '/alarm')
        expect(down.status).toBe(500)
        expect(down.json).toMatchObject({ success: false, code: expect.stringMatching(/^database-/) })
        expect(down.json.message).toContain(`127.0.0.1:${cluster.port}`)
        expect(JSON.stringify(down.json)).not.toContain(cluster.password)
        const refused = await call(b, 'POST', '/alarm', { alarmType: 21, deviceId: [deviceId], type: 2 })
        expect(refused.status).toBe(500)
        // The simulation does not need the database: its status still answers.
        expect((await call(b, 'GET', '/local/fleet')).status).toBe(200)
      } finally {
        cluster.resume()
      }
      expect(await waitFor(async () => (await call(a, 'GET', '/alarm')).status === 200)).toBe(true)
      const created = await call(b, 'POST', '/alarm', { alarmType: 21, deviceId: [deviceId], type: 2 })
      expect(created.status).toBe(201)
      expect(await listed(a)).toEqual([...before, created.json.data])
    })
  },
)
