import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LocalServiceDatabase } from '../../../../electron/core/app/postgis-profile'
import { createCore, type Core } from '../../../../electron/core/app-core'
import { MemorySecretStore } from '../../../../electron/core/secrets/memory-secret-store'
import { startLocalService } from '../../../../electron/local-service/index'
import { Workspace } from '../../../../electron/local-service/workspace/workspace'
import { feature, square } from '../../local-service/helpers'
import { postgresMissing, startTestCluster, type TestCluster } from '../../../support/postgres'

/**
 * A PostGIS workspace profile made active: the built-in local service answers §4.6 over its database, and
 * over its folder again when Local is chosen. In process, as the browser host runs it, against a throw-away
 * cluster (skipped, saying why, where PostgreSQL with PostGIS is not installed).
 */
const missing = postgresMissing()
const PASSWORD = `active-Secret-${Math.random().toString(36).slice(2)}`

let cluster: TestCluster
let core: Core
let dir: string
const started: (LocalServiceDatabase | null)[] = []

async function layerNames(): Promise<string[]> {
  const result = await core.call('gis.layers', {})
  if (!result.ok) throw new Error(`gis.layers failed: ${result.error.message}`)
  return (result.value as { datasets: { layername: string }[] }).datasets.map((d) => d.layername)
}

describe.skipIf(missing)(
  `the active PostGIS workspace profile${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    beforeAll(async () => {
      cluster = await startTestCluster()
      await cluster.admin.query('CREATE DATABASE gis')
      await cluster.admin.query(`CREATE ROLE analyst LOGIN PASSWORD '${PASSWORD}'`)
      const gis = await cluster.connect('gis')
      await gis.query(`
      CREATE EXTENSION postgis;
      CREATE SCHEMA work AUTHORIZATION analyst;
      CREATE TABLE work.roads (id int, geom geometry(LineString, 4326));
      INSERT INTO work.roads VALUES (1, 'SRID=4326;LINESTRING(0 0, 1 1)');
      GRANT SELECT ON work.roads TO analyst;
    `)
      dir = mkdtempSync(path.join(os.tmpdir(), 'geo-analyst-active-postgis-'))
      const workspaceDir = path.join(dir, 'workspace')
      await new Workspace(workspaceDir).create('parcels', [feature(square(70, 10, 71, 11), { owner: 'A' })], {
        source: 'test',
      })
      core = await createCore({
        configDir: dir,
        dataDir: path.join(dir, 'data'),
        host: 'web',
        version: '0',
        secretStore: new MemorySecretStore(),
        startLocalService: (database) => {
          started.push(database)
          return startLocalService({
            workspaceDir,
            sampleData: false,
            ...(database ? { databaseUri: database.databaseUri, env: { ...database.env } } : {}),
          })
        },
      })
    }, 120_000)

    afterAll(async () => {
      await core?.close()
      await cluster?.stop()
      if (dir) rmSync(dir, { recursive: true, force: true })
    })

    it('serves the folder for Local, the database for the PostGIS profile, and the folder again', async () => {
      expect(await layerNames()).toEqual(['parcels'])
      const postgis = {
        host: '127.0.0.1',
        port: cluster.port,
        database: 'gis',
        user: 'analyst',
        schemas: ['work'],
        sslmode: 'prefer',
      }
      expect((await core.call('settings.savePostgisProfile', { name: 'Office db', postgis })).ok).toBe(true)
      expect(
        (await core.call('secrets.setDatabasePassword', { profile: 'Office db', value: PASSWORD })).ok,
      ).toBe(true)
      expect((await core.call('settings.chooseProfile', { name: 'Office db' })).ok).toBe(true)
      expect(await layerNames()).toEqual(['roads'])
      expect((await core.call('settings.chooseProfile', { name: 'Local' })).ok).toBe(true)
      expect(await layerNames()).toEqual(['parcels'])

      expect(started.map((d) => d?.databaseUri ?? 'folder')).toEqual([
        'folder',
        `postgresql://analyst@127.0.0.1:${cluster.port}/gis?schema=work&sslmode=prefer`,
        'folder',
      ])
      expect(started[1]?.env).toEqual({ PGPASSWORD: PASSWORD })
      const view = await core.call('settings.get', {})
      expect(JSON.stringify(view)).not.toContain(PASSWORD)
    })

    it('says in plain words why the service did not start when the profile has no password', async () => {
      const postgis = {
        host: '127.0.0.1',
        port: cluster.port,
        database: 'gis',
        user: 'analyst',
        schemas: ['work'],
      }
      expect((await core.call('settings.savePostgisProfile', { name: 'No password', postgis })).ok).toBe(true)
      expect((await core.call('settings.chooseProfile', { name: 'No password' })).ok).toBe(true)
      const result = await core.call('gis.layers', {})
      expect(result).toMatchObject({
        ok: false,
        error: { message: expect.stringMatching(/asks user "analyst" for a password and none was given/) },
      })
      expect((await core.call('settings.chooseProfile', { name: 'Local' })).ok).toBe(true)
      expect(await layerNames()).toEqual(['parcels'])
    })
  },
)
