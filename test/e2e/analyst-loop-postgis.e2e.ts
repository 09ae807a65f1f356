/// <reference lib="dom" />
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SAMPLE_DATASETS } from '../../electron/local-service/sample/sample-workspace'
import { analystLoop, readLargeResultByKeyboard } from '../support/analyst-loop'
import { openApp, useAppSession } from '../support/app'
import { runCliProcess } from '../support/cli'
import { postgresMissing, startTestCluster, type TestCluster } from '../support/postgres'

/**
 * The analyst's loop over a PostGIS workspace (issue 31): the browser host's local service pointed at a
 * throw-away cluster (GEO_ANALYST_WORKSPACE=postgresql://…, the password in PGPASSWORD) whose schema holds
 * the sample datasets the folder workspace starts with, loaded by the app's own import into a database
 * (`geo-analyst import FILE --workspace postgresql://…`). The same steps as analyst-loop.e2e.ts
 * (test/support/analyst-loop.ts): draw, join, save, export — and the database is asked what they did.
 */
const missing = postgresMissing()
const SAMPLE_DIR = path.resolve(import.meta.dirname, '../../resources/sample')

let cluster: TestCluster

/** The features a sample file holds (read here, not through the app). */
function featuresIn(file: string): number {
  const text = gunzipSync(readFileSync(path.join(SAMPLE_DIR, file))).toString('utf8')
  return (JSON.parse(text) as { features: unknown[] }).features.length
}

describe.skipIf(missing)(
  `the analyst's loop over a PostGIS workspace${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    beforeAll(async () => {
      cluster = await startTestCluster()
      await cluster.admin.query('CREATE DATABASE gis')
      const db = await cluster.connect('gis')
      await db.query('CREATE EXTENSION postgis; CREATE SCHEMA work')
      // The sample files, imported as a person would with the CLI.
      const env = { PGPASSWORD: cluster.password }
      const runs = await Promise.all(
        SAMPLE_DATASETS.map((sample) =>
          runCliProcess(
            [
              'import',
              path.join(SAMPLE_DIR, sample.file),
              '--name',
              sample.name,
              '--workspace',
              cluster.uri('gis', 'schema=work'),
              '--json',
            ],
            { env, timeoutMs: 120_000 },
          ),
        ),
      )
      runs.forEach((run, i) => {
        const sample = SAMPLE_DATASETS[i]!
        expect(run.code, `import of ${sample.file}: ${run.stderr}`).toBe(0)
        const made = JSON.parse(run.stdout) as { name: string; schema: string; featureCount: number }
        expect(made).toMatchObject({
          name: sample.name,
          schema: 'work',
          featureCount: featuresIn(sample.file),
        })
      })
    }, 240_000)

    // Registered before the session's hooks, so (hooks after tests run last-registered first) the cluster
    // stops after the host.
    afterAll(async () => {
      await cluster?.stop()
    })

    const session = useAppSession(() => ({
      env: { GEO_ANALYST_WORKSPACE: cluster.uri('gis', 'schema=work'), PGPASSWORD: cluster.password },
    }))

    it('lists the tables, draws a polygon, joins india_cities with it, saves a table with a GiST index, exports', async () => {
      const page = await openApp(session.browser, session.host, undefined, 'Spatial analytics')
      const datasets = page.getByRole('list', { name: 'Datasets' })
      for (const sample of SAMPLE_DATASETS)
        await datasets.getByRole('listitem', { name: sample.name }).waitFor({ timeout: 30_000 })

      const loop = await analystLoop(page)
      await page.context().close()

      // The rows found are the cities in the drawn polygon, as the database counts them itself.
      const db = await cluster.connect('gis')
      const inside = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM work.india_cities
          WHERE ST_Intersects(geom, ST_SetSRID(ST_GeomFromGeoJSON($1), 4326))`,
        [JSON.stringify(loop.drawn)],
      )
      expect(inside.rows[0]!.n).toBeGreaterThan(0)
      expect(loop.total).toBe(inside.rows[0]!.n)
      expect(loop.exported).toBe(loop.shown)

      // The saved dataset is a table of the workspace's schema holding every row, with a GiST index.
      const table = await db.query<{ n: number; kinds: string }>(
        `SELECT count(*)::int AS n, string_agg(DISTINCT GeometryType(geom), ',') AS kinds
           FROM work.${'"' + loop.saved + '"'}`,
      )
      expect(table.rows[0]).toEqual({ n: loop.total, kinds: 'POINT' })
      const indexes = await db.query<{ indexdef: string }>(
        `SELECT indexdef FROM pg_indexes WHERE schemaname = 'work' AND tablename = $1`,
        [loop.saved],
      )
      expect(indexes.rows.map((r) => r.indexdef)).toEqual(
        expect.arrayContaining([expect.stringMatching(/USING gist \(geom\)/)]),
      )
      // Each saved row is a city inside the polygon with its fields (the source's, under their own names).
      const missed = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM work.${'"' + loop.saved + '"'} s
          WHERE NOT EXISTS (SELECT 1 FROM work.india_cities c
                             WHERE ST_Equals(c.geom, s.geom) AND c.name = s.name
                               AND c.population IS NOT DISTINCT FROM s.population)`,
      )
      expect(missed.rows[0]!.n).toBe(0)
    }, 240_000)

    it('reads the large join of india_cities and india_states by keyboard, every row the database finds', async () => {
      const page = await openApp(session.browser, session.host, undefined, 'Spatial analytics')
      const total = await readLargeResultByKeyboard(page)
      await page.context().close()
      const db = await cluster.connect('gis')
      const pairs = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM work.india_cities c JOIN work.india_states s ON ST_Intersects(c.geom, s.geom)`,
      )
      expect(total).toBe(pairs.rows[0]!.n)
    }, 180_000)
  },
)
