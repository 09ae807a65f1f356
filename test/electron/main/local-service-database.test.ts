import { fork, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Profile } from '../../../electron/contract'
import { localServiceDatabase } from '../../../electron/core/app/postgis-profile'
import { Workspace } from '../../../electron/local-service/workspace/workspace'
import {
  LocalServiceLauncher,
  type LaunchedService,
  type ServiceChild,
} from '../../../electron/main/local-service-launcher'
import { feature, square } from '../local-service/helpers'
import { postgresMissing, startTestCluster, type TestCluster } from '../../support/postgres'
import { useTempDirs } from '../../support/temp-dir'

/**
 * A PostGIS workspace profile's decision carried out by the launcher: the local service's own process over
 * the database, the password only in that process's environment. Against a throw-away cluster (skipped,
 * saying why, where PostgreSQL with PostGIS is not installed).
 */
const missing = postgresMissing()
const ENTRY = path.resolve(import.meta.dirname, '../../../electron/local-service/process-entry.ts')
const PASSWORD = `launcher-Secret-${Math.random().toString(36).slice(2)}`
const tempDir = useTempDirs()
const children: ChildProcess[] = []
const services: LaunchedService[] = []
let cluster: TestCluster

afterEach(async () => {
  for (const service of services.splice(0)) await service.close()
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
})

/** What crossed into the service's process: its argv, the variables added, the messages sent. */
interface Crossed {
  argv: string[]
  added: Record<string, string> | undefined
  messages: unknown[]
}

function recordingFork(crossed: Crossed[]) {
  return (env?: Readonly<Record<string, string>>): ServiceChild => {
    // The test's own environment must not hold a password the service could find instead.
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PG')))
    const child = fork(ENTRY, [], {
      execArgv: ['--import', 'tsx'],
      env: { ...base, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    children.push(child)
    const seen: Crossed = { argv: child.spawnargs, added: env ? { ...env } : undefined, messages: [] }
    crossed.push(seen)
    return {
      postMessage: (request) => {
        seen.messages.push(structuredClone(request))
        child.send(request)
      },
      onMessage: (listener) => void child.on('message', listener),
      onExit: (listener) => void child.once('exit', (code) => listener(code)),
      kill: () => void child.kill('SIGKILL'),
    }
  }
}

function profileOn(database: string): Profile {
  return {
    name: 'Office db',
    builtIn: true,
    urls: null,
    kind: 'postgis',
    postgis: {
      host: '127.0.0.1',
      port: cluster.port,
      database,
      user: 'analyst',
      schemas: ['work'],
      sslmode: 'prefer',
    },
  }
}

describe.skipIf(missing)(
  `the local service over a PostGIS workspace profile${missing ? ` (skipped: ${missing})` : ''}`,
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
    }, 120_000)

    afterAll(async () => {
      await cluster?.stop()
    })

    async function folderWithParcels(): Promise<string> {
      const dir = tempDir()
      await new Workspace(dir).create('parcels', [feature(square(70, 10, 71, 11), { owner: 'A' })], {
        source: 'test',
      })
      return dir
    }

    it("serves the profile's database, the password only in the process's environment", async () => {
      const crossed: Crossed[] = []
      const launcher = new LocalServiceLauncher({
        fork: recordingFork(crossed),
        service: { workspaceDir: await folderWithParcels(), sampleData: false },
      })
      const decision = localServiceDatabase(profileOn('gis'), PASSWORD)!
      const service = await launcher.start(decision)
      services.push(service)
      expect(service.databaseUri).toBe(decision.databaseUri)
      const layers = await fetch(`${service.urls.mgis_v2_url}/getLayersList`, {
        headers: { authorization: `Bearer ${service.token}` },
      })
      expect(layers.status).toBe(200)
      const names = ((await layers.json()) as { data: { layername: string }[] }).data.map((d) => d.layername)
      expect(names).toContain('roads')

      expect(crossed).toHaveLength(1)
      expect(crossed[0]!.added).toEqual({ PGPASSWORD: PASSWORD })
      expect(crossed[0]!.messages[0]).toMatchObject({
        type: 'start',
        options: { databaseUri: decision.databaseUri },
      })
      expect(JSON.stringify(crossed[0]!.messages)).not.toContain(PASSWORD)
      expect(crossed[0]!.argv.join(' ')).not.toContain(PASSWORD)
    })

    it('without the password the service does not start, and says why in plain words', async () => {
      const crossed: Crossed[] = []
      const launcher = new LocalServiceLauncher({
        fork: recordingFork(crossed),
        service: { workspaceDir: await folderWithParcels(), sampleData: false },
      })
      await expect(launcher.start(localServiceDatabase(profileOn('gis'), null))).rejects.toThrow(
        /asks user "analyst" for a password and none was given/,
      )
      expect(crossed[0]!.added).toBeUndefined()
    })

    it('serves its folder for any other profile, as before', async () => {
      const crossed: Crossed[] = []
      const launcher = new LocalServiceLauncher({
        fork: recordingFork(crossed),
        service: { workspaceDir: await folderWithParcels(), sampleData: false },
      })
      const local: Profile = { name: 'Local', builtIn: true, urls: null }
      const service = await launcher.start(localServiceDatabase(local, null))
      services.push(service)
      expect(service.databaseUri).toBeUndefined()
      const layers = await fetch(`${service.urls.mgis_v2_url}/getLayersList`, {
        headers: { authorization: `Bearer ${service.token}` },
      })
      expect(await layers.json()).toMatchObject({ data: [{ layername: 'parcels' }] })
    })
  },
)
