import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCliProcess, type CliRun } from '../support/cli'
import { postgresMissing, startTestCluster, type TestCluster } from '../support/postgres'
import { useTempDirs } from '../support/temp-dir'

/**
 * The built `geo-analyst` (out/cli: an entry and the chunks it loads as commands need them, decision 037) as
 * a person runs it. A command's start is what they wait for at every call: `--help` read the local service,
 * the image and database libraries and every schema before (0.38 s; 0.09 s now), `datasets` over a database
 * with 2,000 tables took 0.55 s (0.27 s now, `npm run bench:postgis`). Tests never time: these read which
 * packages the process loaded (module hooks, `test/support/module-log.mjs`), and that the commands work from
 * their chunks — a folder import through the pool worker beside them, a database listed.
 */
const ROOT = path.resolve(import.meta.dirname, '../..')
const MODULE_LOG = path.join(ROOT, 'test/support/module-log.mjs')
const tempDir = useTempDirs()
const missing = postgresMissing()

/** Packages a listing has no use for: images, models, geometry engines, SQLite, the HTTP client, the keychain. */
const NOT_FOR_LISTING = [
  'sharp',
  'onnxruntime-node',
  'geos-wasm',
  'sql.js',
  '@sqlite.org/sqlite-wasm',
  'undici',
  '@napi-rs/keyring',
  'osm-pbf-parser-node',
]

/** A run of the built command, and the packages (node_modules) its process imported, by name. */
type BuiltRun = CliRun & { packages: string[] }

/** Run the built command in a process of its own, its config and data in a throw-away folder. */
async function runBuilt(args: string[], env: NodeJS.ProcessEnv = {}): Promise<BuiltRun> {
  const home = tempDir()
  const log = path.join(home, 'modules.log')
  writeFileSync(log, '')
  const run = await runCliProcess(args, {
    built: true,
    nodeArgs: ['--import', MODULE_LOG],
    cwd: home,
    timeoutMs: 60_000,
    env: {
      HOME: home,
      GEO_ANALYST_CONFIG_DIR: path.join(home, 'config'),
      GEO_ANALYST_DATA_DIR: path.join(home, 'data'),
      GEO_ANALYST_MODULE_LOG: log,
      ...env,
    },
  })
  const packages = new Set<string>()
  for (const url of readFileSync(log, 'utf8').split('\n')) {
    const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)
    if (m) packages.add(m[1]!)
  }
  return { ...run, packages: [...packages].sort() }
}

describe('the built geo-analyst command', () => {
  it('prints its commands without loading any package', async () => {
    const run = await runBuilt(['--help'])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^Usage: geo-analyst COMMAND/)
    expect(run.stdout).toContain('datasets [--workspace')
    expect(run.packages).toEqual([])
  })

  it("loads the operation tables when `call --help` asks for them, and names each operation's parameters", async () => {
    const all = await runBuilt(['call', '--help'])
    expect(all.code).toBe(0)
    expect(all.stdout).toContain('gis.join')
    const one = await runBuilt(['call', 'places.autosuggest', '--help'])
    expect(one.code).toBe(0)
    expect(one.stdout).toMatch(/Usage: geo-analyst call places\.autosuggest/)
    expect(one.stdout).toContain('query (required)')
  })

  it('imports a GeoJSON file into a folder workspace through the pool worker beside its chunks, and lists it', async () => {
    const dir = tempDir()
    const file = path.join(dir, 'wells.geojson')
    writeFileSync(
      file,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          [77.2, 28.6],
          [72.8, 19.1],
          [88.4, 22.6],
        ].map((coordinates, i) => ({
          type: 'Feature',
          properties: { id: i + 1 },
          geometry: { type: 'Point', coordinates },
        })),
      }),
    )
    const workspace = path.join(dir, 'workspace')
    const imported = await runBuilt(['import', file, '--name', 'wells', '--workspace', workspace])
    expect(imported.stderr).toBe('')
    expect(imported.code).toBe(0)
    expect(imported.stdout).toContain('Imported wells: 3 POINT features')

    const listed = await runBuilt(['datasets', '--json', '--workspace', workspace])
    expect(listed.code).toBe(0)
    const datasets = JSON.parse(listed.stdout) as Array<{ name: string; featureCount: number }>
    expect(datasets.map((d) => [d.name, d.featureCount])).toEqual([['wells', 3]])
    expect(listed.packages.filter((p) => NOT_FOR_LISTING.includes(p))).toEqual([])
  })

  it('refuses an unknown command by name, with the exit code of a validation error', async () => {
    const run = await runBuilt(['dataset'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('Unknown command "dataset"')
  })
})

describe.skipIf(missing)(
  `the built geo-analyst over a PostGIS workspace${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    let cluster: TestCluster
    beforeAll(async () => {
      cluster = await startTestCluster()
      await cluster.admin.query('CREATE DATABASE gis')
      const db = await cluster.connect('gis')
      await db.query(`CREATE EXTENSION postgis; CREATE SCHEMA work;
        CREATE TABLE work."Wells & bores" (id int PRIMARY KEY, depth_m double precision, geom geometry(Point, 4326));
        INSERT INTO work."Wells & bores" SELECT g, g * 2.5, ST_SetSRID(ST_MakePoint(77 + g / 100.0, 28), 4326)
          FROM generate_series(1, 40) g;
        ANALYZE work."Wells & bores"`)
    }, 120_000)
    afterAll(async () => {
      await cluster?.stop()
    })

    it('lists the database from the catalogs with no package loaded but its own chunks', async () => {
      const run = await runBuilt(['datasets', '--json', '--workspace', cluster.uri('gis', 'schema=work')], {
        PGPASSWORD: cluster.password,
      })
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
      const datasets = JSON.parse(run.stdout) as Array<{ name: string; fields: Array<{ name: string }> }>
      expect(datasets.map((d) => d.name)).toEqual(['Wells & bores'])
      expect(datasets[0]!.fields.map((f) => f.name)).toEqual(['id', 'depth_m'])
      // node-postgres and zod are part of the build (decision 037): nothing else is read.
      expect(run.packages).toEqual([])
    })

    it('says what is wrong with a database that refuses, with the exit code of an unavailable provider', async () => {
      const uri = cluster.uri('gis', 'schema=work').replace(`:${cluster.port}/`, ':1/')
      const run = await runBuilt(['datasets', '--workspace', uri], { PGPASSWORD: cluster.password })
      expect(run.code).toBe(6)
      expect(run.stderr).toMatch(/^geo-analyst: provider-unavailable: .*refused/i)
      expect(run.stderr).not.toContain(cluster.password)
      expect(run.packages).toEqual([])
    })
  },
)
