import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalService, type LocalService } from '../../../../electron/local-service/index'
import {
  postgresMissing,
  startTestCluster,
  type TestCluster,
  SLOW_JOIN_WORKSPACE_SQL,
} from '../../../support/postgres'

/**
 * The database going away mid-join and mid-save: a classified error (§7), no half-written table, the other
 * groups keep answering, and the service reconnects when the database is back. A throw-away cluster,
 * terminated or stopped under the service (skipped, saying why, where PostGIS is not installed).
 */
const missing = postgresMissing()
const TOKEN = 'join-faults-token'

let cluster: TestCluster
let service: LocalService
let dir: string

/** A fresh superuser connection each time (the cluster itself is stopped and started by these tests). */
const sql = (text: string, values?: unknown[]) => cluster.query('gis', text, values)

async function join(params: Record<string, string | number | boolean>) {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))
  const response = await fetch(`${service.urls.mgis_url}/query_apply/join?${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}` },
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** Another group of the service (places): it must answer whatever the database does. */
async function otherGroupAnswers(): Promise<boolean> {
  const response = await fetch(`${service.urls.atlas_url}/local/places/saved`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  })
  await response.arrayBuffer()
  return response.status === 200
}

const quick = {
  queryType: 'spatialOperation',
  datasetSource: 'places',
  datasetRef: 'zones',
  operator: 'Within',
  sourceProperty: 'geom',
  selectionParamSource: 'id',
}
const slow = { ...quick, datasetSource: 'sleepy' }

/** The backend of the service's statement running now, once it runs. */
async function serviceBackend(): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const rows = await sql(
      `SELECT pid FROM pg_stat_activity WHERE application_name = 'geo-analyst' AND state = 'active' AND query NOT LIKE '%pg_stat_activity%'`,
    )
    if (rows.length > 0) return Number(rows[0]!.pid)
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('the service never ran its statement')
}

const tableExists = async (name: string) =>
  (await sql(`SELECT to_regclass($1) IS NOT NULL AS e`, [`work.${name}`]))[0]!.e as boolean

describe.skipIf(missing)(
  `PostGIS joins when the database goes away${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    beforeAll(async () => {
      cluster = await startTestCluster()
      await cluster.admin.query('CREATE DATABASE gis')
      await sql(SLOW_JOIN_WORKSPACE_SQL)
      dir = mkdtempSync(path.join(os.tmpdir(), 'geo-pg-faults-'))
      service = await startLocalService({
        workspaceDir: dir,
        databaseUri: cluster.uri('gis', 'schema=work'),
        env: { PGPASSWORD: cluster.password },
        token: TOKEN,
        sampleData: false,
      })
      expect((await join(quick)).status).toBe(200)
    }, 180_000)
    afterAll(async () => {
      await service?.close()
      await cluster?.stop()
      if (dir) rmSync(dir, { recursive: true, force: true })
    }, 60_000)

    it('a join whose connection is terminated answers 503 provider-unavailable; the next join reconnects', async () => {
      const pending = join(slow)
      await sql('SELECT pg_terminate_backend($1)', [await serviceBackend()])
      const answer = await pending
      expect(answer.status).toBe(503)
      expect(answer.body).toMatchObject({
        code: 'database-unavailable',
        failureClass: 'provider-unavailable',
      })
      expect(await otherGroupAnswers()).toBe(true)
      expect((await join(quick)).status).toBe(200)
    })

    it('a save whose connection is terminated leaves no table, and the same save succeeds after', async () => {
      const pending = join({ ...slow, saveAsNewDataset: true, newDatasetNme: 'cut_save' })
      await sql('SELECT pg_terminate_backend($1)', [await serviceBackend()])
      const answer = await pending
      expect(answer.status).toBe(503)
      expect(await tableExists('cut_save')).toBe(false)
      const again = await join({ ...quick, saveAsNewDataset: true, newDatasetNme: 'cut_save' })
      expect(again.status).toBe(200)
      expect((await sql('SELECT count(*)::int AS n FROM work.cut_save'))[0]!.n).toBe(100)
    })

    it('the database stopped mid-join and mid-save: 503, other groups answer, and joins work once it is back', async () => {
      const joining = join(slow)
      const saving = join({ ...slow, saveAsNewDataset: true, newDatasetNme: 'stopped_save' })
      await serviceBackend()
      // Both statements running, then the server stops at once.
      await new Promise((r) => setTimeout(r, 300))
      cluster.halt()
      const answers = await Promise.all([joining, saving])
      for (const answer of answers) {
        expect(answer.status).toBe(503)
        expect(answer.body.failureClass).toBe('provider-unavailable')
      }
      // While it is down: a join is refused in plain words; the other groups answer.
      const down = await join(quick)
      expect(down.status).toBe(503)
      expect(String(down.body.message)).toMatch(/refused the connection|closed the connection/)
      expect(await otherGroupAnswers()).toBe(true)
      cluster.resume()
      expect((await join(quick)).status).toBe(200)
      expect(await tableExists('stopped_save')).toBe(false)
    })
  },
)
