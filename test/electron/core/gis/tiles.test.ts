import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import MVT from 'ol/format/MVT'
import type RenderFeature from 'ol/render/Feature'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Dataset, Result } from '../../../../electron/contract'
import { createCore, type Core } from '../../../../electron/core/app-core'
import { MemorySecretStore } from '../../../../electron/core/secrets/memory-secret-store'
import { startLocalService } from '../../../../electron/local-service'
import { fakeUrls } from '../../../support/fake-provider'
import { createPointTable } from '../../../support/postgis-points'
import { postgresMissing, startTestCluster, type TestCluster } from '../../../support/postgres'

/**
 * `gis.tile` and the dataset list's `tiles` flag through `core.call`, as the hosts call them, over a
 * real local service whose workspace is a throw-away PostGIS cluster (and one whose workspace is a folder).
 */
const missing = postgresMissing()
const dirs: string[] = []
const temp = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-core-tiles-'))
  dirs.push(dir)
  return dir
}

type TileAnswer = { bytes: Uint8Array; thinning?: string }

let cluster: TestCluster
let core: Core
let folderCore: Core

async function coreOver(databaseUri?: string): Promise<Core> {
  return createCore({
    configDir: temp(),
    dataDir: temp(),
    host: 'web',
    version: '0',
    secretStore: new MemorySecretStore(),
    startLocalService: () =>
      startLocalService({
        workspaceDir: temp(),
        sampleData: !databaseUri,
        ...(databaseUri ? { databaseUri, env: { PGPASSWORD: cluster.password } } : {}),
      }),
  })
}

describe.skipIf(missing)(`gis.tile through the core${missing ? ` (skipped: ${missing})` : ''}`, () => {
  beforeAll(async () => {
    cluster = await startTestCluster()
    await cluster.admin.query('CREATE DATABASE gis')
    const db = await cluster.connect('gis')
    await db.query('CREATE EXTENSION postgis; CREATE SCHEMA work')
    await createPointTable(db, 'work.places', 2000)
    core = await coreOver(cluster.uri('gis', 'schema=work'))
    folderCore = await coreOver()
  }, 120_000)

  afterAll(async () => {
    await core?.close()
    await folderCore?.close()
    await cluster?.stop()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  it('marks the datasets of a database workspace as drawn from tiles, and a folder workspace not', async () => {
    const listed = await core.call('gis.layers', {})
    expect(listed).toMatchObject({
      ok: true,
      value: { datasets: [{ layername: 'places', local: true, tiles: true }] },
    })
    const folder = (await folderCore.call('gis.layers', {})) as Result<{ datasets: Dataset[] }>
    expect(folder.ok).toBe(true)
    if (folder.ok) {
      expect(folder.value.datasets.length).toBeGreaterThan(0)
      for (const d of folder.value.datasets) expect(d.tiles).toBeUndefined()
    }
  })

  it('answers a tile as bytes OpenLayers reads, and an empty tile as no bytes', async () => {
    // Zoom 3 over India: the 2,000 points thinned to one per grid cell.
    const tile = (await core.call('gis.tile', { dataset: 'places', z: 3, x: 5, y: 3 })) as Result<TileAnswer>
    expect(tile.ok).toBe(true)
    if (!tile.ok) return
    expect(tile.value.bytes).toBeInstanceOf(Uint8Array)
    const b = tile.value.bytes
    const features = new MVT().readFeatures(
      b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer,
    ) as RenderFeature[]
    expect(features.length).toBeGreaterThan(200)
    expect(features.length).toBeLessThan(2000)
    expect(Object.keys(features[0]!.getProperties()).sort()).toEqual(['id', 'kind', 'layer', 'name', 'value'])
    const empty = (await core.call('gis.tile', { dataset: 'places', z: 3, x: 0, y: 0 })) as Result<TileAnswer>
    expect(empty).toMatchObject({ ok: true })
    if (empty.ok) expect(empty.value.bytes.byteLength).toBe(0)
  })

  it('says what is wrong: a dataset outside the workspace, a folder workspace, a remote profile', async () => {
    expect(await core.call('gis.tile', { dataset: 'nope', z: 3, x: 5, y: 3 })).toMatchObject({
      ok: false,
      error: { failureClass: 'not-found', message: expect.stringContaining('no dataset named "nope"') },
    })
    expect(await folderCore.call('gis.tile', { dataset: 'india_states', z: 3, x: 5, y: 3 })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('vector tiles are a database feature') },
    })
    // Outside the tile grid: refused by the contract before anything is sent.
    expect(await core.call('gis.tile', { dataset: 'places', z: 25, x: 0, y: 0 })).toMatchObject({ ok: false })
    expect(await core.call('gis.tile', { dataset: 'places', z: 3, x: 8, y: 0 })).toMatchObject({
      ok: false,
      error: {
        failureClass: 'validation',
        message: expect.stringContaining('x: must be a whole number from 0 to 7'),
      },
    })
    await core.call('settings.saveProfile', { name: 'Cloud', urls: fakeUrls('http://127.0.0.1:9') })
    await core.call('settings.chooseProfile', { name: 'Cloud' })
    expect(await core.call('gis.tile', { dataset: 'places', z: 3, x: 5, y: 3 })).toMatchObject({
      ok: false,
      error: { failureClass: 'local-configuration' },
    })
  })
})
