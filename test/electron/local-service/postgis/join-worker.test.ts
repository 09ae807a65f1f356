import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Feature } from 'geojson'
import type { JoinParams } from '../../../../electron/contract/gis/join-params'
import { startLocalService, type LocalService } from '../../../../electron/local-service/index'
import {
  estimateJoinRows,
  joinRowsBound,
  UNKNOWN_WEIGHT,
} from '../../../../electron/local-service/postgis/join-weight'
import { joinRows, prepare } from '../../../../electron/local-service/postgis/join-run'
import { PostgisWorkspace } from '../../../../electron/local-service/postgis/workspace'
import { postgresMissing, startTestCluster, type TestCluster } from '../../../support/postgres'
import { threadNices } from '../../../support/thread-nice'

/**
 * A PostGIS join's rows are read and written in the pool's database threads, not on the service's serving
 * thread (issue 32: there they kept every other user's dataset list waiting): the join runs in a database
 * worker, by its weight in the large lane or the one kept for small joins, its answer is the one the
 * service gave before (rows held with a Content-Length, or streamed), and a client that leaves stops the
 * statement in the database without the worker being terminated. A throw-away cluster (skipped, saying
 * why, where PostGIS is not installed).
 */
const missing = postgresMissing()
const TOKEN = 'join-worker-token'
const ROWS = 60_000

let cluster: TestCluster
let service: LocalService
let dir: string

const sql = (text: string, values?: unknown[]) => cluster.query('gis', text, values)

function joinUrl(source: string, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({
    queryType: 'spatialOperation',
    datasetSource: source,
    datasetRef: 'zones',
    operator: 'Within',
    sourceProperty: 'geom',
    selectionParamSource: 'id,geom',
    ...extra,
  })
  return `${service.urls.mgis_url}/query_apply/join?${query}`
}

const post = (url: string, signal?: AbortSignal) =>
  fetch(url, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, signal })

/** Join statements of the service running in the database now. */
const running = async () =>
  Number(
    (
      await sql(
        `SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'geo-analyst' AND state = 'active'
            AND (query LIKE '%FETCH%' OR query LIKE '%ST_Within%' OR query LIKE '%sleepy%')`,
      )
    )[0]!.n,
  )

async function until(test: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (await test()) return true
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return test()
}

describe.skipIf(missing)(
  `PostGIS join rows in the database threads${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    beforeAll(async () => {
      // A small buffer: the large join streams through the cursor, batch by batch.
      process.env.GEO_ANALYST_PG_BUFFER_BYTES = String(256 * 1024)
      cluster = await startTestCluster()
      await cluster.admin.query('CREATE DATABASE gis')
      await sql(`
        CREATE EXTENSION postgis;
        CREATE SCHEMA work;
        CREATE TABLE work.places (id int, geom geometry(Point, 4326));
        INSERT INTO work.places
          SELECT i, ST_SetSRID(ST_MakePoint((i % 1000) / 100.0, (i / 1000) / 100.0), 4326)
            FROM generate_series(0, ${ROWS - 1}) i;
        CREATE TABLE work.few (id int, geom geometry(Point, 4326));
        INSERT INTO work.few SELECT i, ST_SetSRID(ST_MakePoint(i + 0.5, 1), 4326) FROM generate_series(0, 4) i;
        CREATE TABLE work.zones (zone text, geom geometry(Polygon, 4326));
        INSERT INTO work.zones VALUES ('all', ST_MakeEnvelope(-1, -1, 11, 11, 4326));
        CREATE VIEW work.sleepy AS SELECT id, geom FROM work.places WHERE (SELECT pg_sleep(30)) IS NULL;
        ANALYZE;
      `)
      dir = mkdtempSync(path.join(os.tmpdir(), 'geo-pg-worker-'))
      service = await startLocalService({
        workspaceDir: dir,
        databaseUri: cluster.uri('gis', 'schema=work'),
        env: { PGPASSWORD: cluster.password },
        token: TOKEN,
        sampleData: false,
      })
    }, 180_000)
    afterAll(async () => {
      delete process.env.GEO_ANALYST_PG_BUFFER_BYTES
      await service?.close()
      await cluster?.stop()
      if (dir) rmSync(dir, { recursive: true, force: true })
    }, 60_000)

    it('a small join is answered by a database thread, whole with its Content-Length, no thread added or terminated', async () => {
      const before = service.poolStats().databaseWorkers!
      const response = await post(joinUrl('few'))
      const text = await response.text()
      expect(response.status).toBe(200)
      expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(text)))
      const body = JSON.parse(text) as { rowCount: number; result: { prop1: string; prop2: string }[] }
      expect(body.rowCount).toBe(5)
      expect(body.result[0]).toEqual({ prop1: '0', prop2: 'POINT (0.5 1)' })
      const after = service.poolStats().databaseWorkers!
      // Every thread was started with the service; none was terminated or added for the join.
      expect(after.spawned).toBe(before.spawned)
      expect(after.retired).toBe(0)
    })

    it.runIf(process.platform === 'linux')(
      'on the analyst’s own machine the database threads keep their priority (a team server lowers them)',
      async () => {
        const response = await post(joinUrl('places'))
        expect(response.status).toBe(200)
        await response.arrayBuffer()
        expect(service.poolStats().databaseWorkers!.spawned).toBeGreaterThan(0)
        expect(threadNices().filter((nice) => nice !== os.getPriority())).toEqual([])
      },
    )

    it('a large join streams batch by batch from a database thread, the same rows', async () => {
      const response = await post(joinUrl('places'))
      expect(response.status).toBe(200)
      expect(response.headers.get('content-length')).toBeNull()
      const reader = response.body!.getReader()
      const first = await reader.read()
      expect(first.done).toBe(false)
      // The job is running in a database thread while its rows stream.
      expect(service.poolStats().databaseWorkers!.load.running).toBe(1)
      const chunks: Uint8Array[] = [first.value!]
      for (;;) {
        const next = await reader.read()
        if (next.done) break
        chunks.push(next.value)
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        rowCount: number
        result: { prop1: string; prop2: string }[]
      }
      expect(body.rowCount).toBe(ROWS)
      expect(body.result).toHaveLength(ROWS)
      expect(body.result[ROWS - 1]).toEqual({ prop1: String(ROWS - 1), prop2: 'POINT (9.99 0.59)' })
      expect(await until(() => service.poolStats().databaseWorkers!.load.running === 0, 5_000)).toBe(true)
    })

    it('a client that leaves mid-stream stops the cursor in the database; the thread stays', async () => {
      const leave = new AbortController()
      const response = await post(joinUrl('places'), leave.signal)
      const reader = response.body!.getReader()
      await reader.read()
      leave.abort()
      await reader.cancel().catch(() => undefined)
      expect(await until(async () => (await running()) === 0, 5_000)).toBe(true)
      expect(await until(() => service.poolStats().databaseWorkers!.load.running === 0, 5_000)).toBe(true)
      expect(service.poolStats().databaseWorkers!.retired).toBe(0)
    })

    it('a client that leaves while the statement runs cancels it in the database within seconds', async () => {
      const leave = new AbortController()
      const pending = post(joinUrl('sleepy'), leave.signal).catch(() => undefined)
      expect(await until(async () => (await running()) === 1, 10_000)).toBe(true)
      leave.abort()
      await pending
      expect(await until(async () => (await running()) === 0, 5_000)).toBe(true)
      expect(await until(() => service.poolStats().databaseWorkers!.load.running === 0, 5_000)).toBe(true)
      // Stopped by its own cancel, not by terminating the thread.
      expect(service.poolStats().databaseWorkers!.retired).toBe(0)
      // And the next join is answered.
      const again = await post(joinUrl('few'))
      expect(again.status).toBe(200)
      await again.arrayBuffer()
    })

    it('weighs a join by the statistics: a large result large, a small one small, a view unknown (large)', async () => {
      const ws = PostgisWorkspace.fromUri(cluster.uri('gis', 'schema=work'), {
        env: { PGPASSWORD: cluster.password },
      })
      try {
        const [places, few, zones, sleepy] = await ws.resolve(['places', 'few', 'zones', 'sleepy'])
        const params = {
          queryType: 'spatialOperation',
          datasetSource: 'places',
          operator: 'Within',
          sourceProperty: 'geom',
        } as JoinParams
        const box = (x: number, y: number): Feature[] => [
          {
            type: 'Feature',
            properties: {},
            geometry: {
              type: 'Polygon',
              coordinates: [
                [
                  [-1, -1],
                  [x, -1],
                  [x, y],
                  [-1, y],
                  [-1, -1],
                ],
              ],
            },
          },
        ]
        // The pool's default smallWeight.
        const small = 50_000
        expect(await estimateJoinRows(ws, params, places!, zones, undefined)).toBeGreaterThan(small)
        expect(await estimateJoinRows(ws, params, few!, zones, undefined)).toBeLessThan(100)
        // Against the user geometry, by the share of the source its box meets.
        expect(await estimateJoinRows(ws, params, places!, undefined, box(0.5, 0.5))).toBeLessThan(small)
        expect(await estimateJoinRows(ws, params, places!, undefined, box(11, 11))).toBeGreaterThan(small)
        expect(await estimateJoinRows(ws, params, sleepy!, zones, undefined)).toBe(UNKNOWN_WEIGHT)
        // The tables' own estimates, kept with the resolved datasets, bound a join: within `small` no
        // statement is asked (a workspace whose statements all fail still weighs it).
        expect(places!.rows).toBe(ROWS)
        expect(sleepy!.rows).toBeUndefined()
        expect(joinRowsBound(few!, zones)).toBe(few!.rows! * zones!.rows!)
        expect(joinRowsBound(places!, undefined)).toBe(ROWS)
        expect(joinRowsBound(sleepy!, undefined)).toBeUndefined()
        const failing = { checked: ws.checked.bind(ws), db: { query: () => Promise.reject(new Error('no')) } }
        const offline = failing as unknown as PostgisWorkspace
        expect(await estimateJoinRows(offline, params, few!, zones, undefined, small)).toBe(
          few!.rows! * zones!.rows!,
        )
        expect(await estimateJoinRows(offline, params, places!, zones, undefined, small)).toBe(UNKNOWN_WEIGHT)
      } finally {
        await ws.close()
      }
    })

    it('a join the statistics expect past the buffer goes straight to the cursor, with the same rows', async () => {
      const ws = PostgisWorkspace.fromUri(cluster.uri('gis', 'schema=work'), {
        env: { PGPASSWORD: cluster.password },
      })
      const params = {
        queryType: 'spatialOperation',
        datasetSource: 'places',
        datasetRef: 'zones',
        operator: 'Within',
        sourceProperty: 'geom',
        selectionParamSource: 'id,geom',
      } as JoinParams
      const answer = async (p: JoinParams, expectedRows?: number) => {
        const signal = new AbortController().signal
        const prepared = await prepare(ws, { params: p, rowCap: 1_000_000, signal, res: undefined as never })
        if (!('stmt' in prepared)) throw new Error('not prepared')
        let way = ''
        const parts: Uint8Array[] = []
        const reply = await joinRows(
          ws,
          prepared.stmt,
          1_000_000,
          signal,
          {
            whole: (_status, head, rows) => {
              way = 'held'
              parts.push(Buffer.from(JSON.stringify(head).slice(0, -1) + ',"result":['), ...rows)
              parts.push(Buffer.from(']}'))
            },
            sink: {
              start: () => (way = 'cursor'),
              write: (bytes) => parts.push(bytes.slice()),
              drained: async () => true,
              end: (bytes) => (parts.push(bytes.slice()), true),
            },
          },
          { bufferBytes: 16 * 1024 * 1024, ...(expectedRows !== undefined ? { expectedRows } : {}) },
        )
        return {
          way,
          reply,
          body: JSON.parse(Buffer.concat(parts).toString() || '{}') as { result?: unknown[] },
        }
      }
      try {
        // The whole answer (~3.5 MB) fits the buffer (16 MiB): held, unless the statistics said far more rows.
        const held = await answer(params)
        const straight = await answer(params, 10_000_000)
        expect(held.way).toBe('held')
        expect(straight.way).toBe('cursor')
        expect(straight.body.result).toHaveLength(ROWS)
        expect(straight.body).toEqual(held.body)
        // Expected large, found none: still the service's 404.
        const none = await answer({ ...params, datasetSource: 'few', operator: 'Disjoint' }, 10_000_000)
        expect(none.reply).toMatchObject({ status: 404 })
      } finally {
        await ws.close()
      }
    })
  },
)
