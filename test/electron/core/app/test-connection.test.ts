import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PostgisFields } from '../../../../electron/contract'
import type { TestConnectionAnswer } from '../../../../electron/contract/app/postgis'
import { createCore, type Core } from '../../../../electron/core/app-core'
import { MemorySecretStore } from '../../../../electron/core/secrets/memory-secret-store'
import { postgisCheck } from '../../../../electron/local-service/postgis-check'
import { postgresMissing, startTestCluster, type TestCluster } from '../../../support/postgres'

/**
 * "Test connection" of a PostGIS workspace profile through the core, against a throw-away cluster (Debian's
 * postgresql-15-postgis-3; skipped, saying why, where it is not installed): each problem in plain words,
 * and the keychain password never in settings.json nor in any answer.
 */
const missing = postgresMissing()
const PASSWORD = `analyst-Secret-${Math.random().toString(36).slice(2)}`
const WRONG = `not-the-password-${Math.random().toString(36).slice(2)}`

let cluster: TestCluster
let gis: pg.Client
let core: Core
let configDir: string
/** Every answer's and error's text, to search for the password at the end. */
const said: string[] = []

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

function fields(change: Partial<PostgisFields> = {}): PostgisFields {
  return {
    host: '127.0.0.1',
    port: cluster.port,
    database: 'gis',
    user: 'analyst',
    schemas: ['work', 'public'],
    sslmode: 'prefer',
    ...change,
  }
}

async function profile(name: string, change: Partial<PostgisFields>, password: string | null = PASSWORD) {
  const saved = await core.call('settings.savePostgisProfile', { name, postgis: fields(change) })
  expect(saved.ok).toBe(true)
  if (password) {
    const set = await core.call('secrets.setDatabasePassword', { profile: name, value: password })
    said.push(JSON.stringify(set))
    expect(set).toMatchObject({ ok: true, value: { profile: name, set: true } })
  }
}

async function test(name: string): Promise<TestConnectionAnswer> {
  const result = await core.call('settings.testConnection', { name })
  said.push(JSON.stringify(result))
  if (!result.ok) throw new Error(`settings.testConnection failed: ${result.error.message}`)
  return result.value as TestConnectionAnswer
}

describe.skipIf(missing)(
  `Test connection of a PostGIS workspace${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    beforeAll(async () => {
      cluster = await startTestCluster()
      await cluster.admin.query('CREATE DATABASE gis')
      await cluster.admin.query('CREATE DATABASE plain')
      await cluster.admin.query(`CREATE ROLE analyst LOGIN PASSWORD '${PASSWORD}'`)
      gis = await cluster.connect('gis')
      await gis.query(`
      CREATE EXTENSION postgis;
      CREATE SCHEMA work; CREATE SCHEMA closed;
      GRANT USAGE ON SCHEMA work TO analyst;
      CREATE TABLE work.roads (id int, geom geometry(LineString, 4326));
      CREATE TABLE work.towns (id int, geom geometry(Point, 4326));
      CREATE VIEW work.big_towns AS SELECT * FROM work.towns WHERE id > 10;
      CREATE TABLE work.no_geometry (id int);
      CREATE TABLE public.parcels (id int, geom geometry(Polygon, 4326));
      CREATE TABLE closed.secret_sites (id int, geom geometry(Point, 4326));
      GRANT SELECT ON ALL TABLES IN SCHEMA work, public TO analyst;
    `)
      configDir = mkdtempSync(path.join(os.tmpdir(), 'geo-analyst-test-connection-'))
      core = await createCore({
        configDir,
        dataDir: path.join(configDir, 'data'),
        host: 'web',
        version: '0',
        secretStore: new MemorySecretStore(),
        ports: { postgisCheck: postgisCheck({ HOME: configDir }) },
      })
    }, 120_000)

    afterAll(async () => {
      await core?.close()
      await cluster?.stop()
      if (configDir) rmSync(configDir, { recursive: true, force: true })
    })

    it('answers PostGIS version, the schemas and the count of datasets when all is well', async () => {
      await profile('Office', {})
      const answer = await test('Office')
      expect(answer).toMatchObject({
        ok: true,
        profile: 'Office',
        database: 'gis',
        user: 'analyst',
        schemas: ['work', 'public'],
        // roads, towns, big_towns (a view) and public.parcels; no_geometry is no dataset.
        datasets: 4,
      })
      expect((answer as { postgisVersion: string }).postgisVersion).toMatch(/^3\.\d/)
    })

    it('names a refused connection (nothing listens on the port)', async () => {
      await profile('Closed port', { port: await closedPort() })
      const answer = await test('Closed port')
      expect(answer).toMatchObject({ ok: false, problem: 'refused' })
      expect((answer as { message: string }).message).toMatch(/127\.0\.0\.1:\d+ refused the connection/)
    })

    it('names a wrong password, without repeating it', async () => {
      await profile('Wrong password', {}, WRONG)
      const answer = await test('Wrong password')
      expect(answer).toMatchObject({ ok: false, problem: 'wrong-password' })
      expect((answer as { message: string }).message).toMatch(/wrong password/)
      expect(JSON.stringify(answer)).not.toContain(WRONG)
    })

    it('says a password is needed when none is in the keychain', async () => {
      await profile('No password', {}, null)
      expect(await test('No password')).toMatchObject({ ok: false, problem: 'no-password' })
    })

    it('names a database that does not exist', async () => {
      await profile('Missing database', { database: 'nowhere' })
      const answer = await test('Missing database')
      expect(answer).toMatchObject({ ok: false, problem: 'database-missing' })
      expect((answer as { message: string }).message).toMatch(/"nowhere" does not exist/)
    })

    it('names a database without the PostGIS extension', async () => {
      await profile('Plain database', { database: 'plain' })
      const answer = await test('Plain database')
      expect(answer).toMatchObject({ ok: false, problem: 'postgis-missing' })
      expect((answer as { message: string }).message).toMatch(
        /PostGIS extension is not installed in .*"plain"/,
      )
    })

    it('names a schema the user has no permission on', async () => {
      await profile('Closed schema', { schemas: ['work', 'closed'] })
      const answer = await test('Closed schema')
      expect(answer).toMatchObject({ ok: false, problem: 'no-permission' })
      expect((answer as { message: string }).message).toMatch(/no permission on the schema "closed"/)
    })

    it('names a schema that does not exist', async () => {
      await profile('Missing schema', { schemas: ['nope'] })
      expect(await test('Missing schema')).toMatchObject({ ok: false, problem: 'schema-missing' })
    })

    it('answers in plain words for a profile that is not a PostGIS workspace', async () => {
      expect(await test('Local')).toMatchObject({ ok: false, problem: 'not-a-postgis-profile' })
    })

    it('refuses a database password for a profile that is not a PostGIS workspace', async () => {
      const result = await core.call('secrets.setDatabasePassword', { profile: 'Local', value: PASSWORD })
      said.push(JSON.stringify(result))
      expect(result).toMatchObject({ ok: false, error: { failureClass: 'validation', field: 'profile' } })
    })

    it('deleting the profile removes its password from the keychain', async () => {
      await profile('Short lived', {})
      expect(await core.credentials.revealDatabasePassword('Short lived')).toBe(PASSWORD)
      expect((await core.call('settings.deleteProfile', { name: 'Short lived' })).ok).toBe(true)
      expect(await core.credentials.revealDatabasePassword('Short lived')).toBeNull()
    })

    it('never writes the password into settings.json nor into any answer', () => {
      const settings = readFileSync(path.join(configDir, 'settings.json'), 'utf8')
      expect(settings).toContain('"kind": "postgis"')
      expect(settings).not.toContain(PASSWORD)
      expect(settings).not.toContain(WRONG)
      expect(said.length).toBeGreaterThan(10)
      for (const text of said) {
        expect(text).not.toContain(PASSWORD)
        expect(text).not.toContain(WRONG)
      }
    })
  },
)

describe('Test connection on a host without database access', () => {
  it('says so in plain words', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-analyst-test-connection-'))
    const cli = await createCore({
      configDir: dir,
      dataDir: path.join(dir, 'data'),
      host: 'cli',
      version: '0',
      secretStore: new MemorySecretStore(),
    })
    try {
      const postgis = {
        host: 'db.example.org',
        port: 5432,
        database: 'gis',
        user: 'me',
        schemas: ['public'],
        sslmode: 'prefer',
      }
      expect((await cli.call('settings.savePostgisProfile', { name: 'Remote db', postgis })).ok).toBe(true)
      const result = await cli.call('settings.testConnection', { name: 'Remote db' })
      expect(result).toMatchObject({ ok: true, value: { ok: false, problem: 'cannot-test-here' } })
    } finally {
      await cli.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
