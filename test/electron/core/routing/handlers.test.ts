import { readFileSync } from 'node:fs'
import { Readable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import type { MatrixRun, NetworkInfo, PredictiveRun } from '../../../../electron/contract/routing/operations'
import { createCore, type Core } from '../../../../electron/core/app-core'
import { MemorySecretStore } from '../../../../electron/core/secrets/memory-secret-store'
import { startLocalService } from '../../../../electron/local-service'
import { townNode, writeTown } from '../../../support/road-town'
import { useTempDirs } from '../../../support/temp-dir'
import { UploadStore } from '../../../../electron/web/uploads'

const tempDir = useTempDirs()
const cores: Core[] = []
const stores: UploadStore[] = []
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()))
  await Promise.all(stores.splice(0).map((s) => s.close()))
})

/** A file offered for import as the browser host receives one: streamed to a private temp file, by reference. */
async function offer(uploads: UploadStore, bytes: Buffer, fileName: string): Promise<string> {
  return (await uploads.receive(Readable.from([bytes]), fileName)).file
}

async function localCore() {
  const workspaceDir = tempDir()
  const uploads = new UploadStore({ tempDir: tempDir() })
  stores.push(uploads)
  const core = await createCore({
    configDir: tempDir(),
    dataDir: tempDir(),
    host: 'web',
    version: '0',
    secretStore: new MemorySecretStore(),
    startLocalService: () => startLocalService({ workspaceDir, sampleData: false }),
    ports: { importFiles: uploads },
  })
  cores.push(core)
  return Object.assign(core, { uploads })
}

describe('routing operations of the core (Local profile)', () => {
  it('imports an extract with progress events, routes on it, lists and removes it', async () => {
    const core = await localCore()
    const { pbf } = await writeTown(tempDir())
    const phases: string[] = []
    const off = core.events.subscribe((name, payload) => {
      if (name === 'routing.importProgress') phases.push((payload as { phase: string }).phase)
    })
    const imported = await core.call('routing.importNetwork', {
      importId: 'i1',
      file: await offer(core.uploads, readFileSync(pbf), 'town.osm.pbf'),
      name: 'Town',
    })
    off()
    expect(imported).toMatchObject({ ok: true, value: { id: 'town', name: 'Town', bundled: false } })
    expect(phases).toContain('reading nodes')
    expect(phases.at(-1)).toBe('done')
    const matrix = await core.call('routing.matrix', {
      resources: 'distance_matrix',
      profile: 'driving',
      positions: [townNode(1).join(','), townNode(8).join(',')],
    })
    expect(matrix).toMatchObject({
      ok: true,
      value: { code: 'Ok', network: 'town', sources: [0], destinations: [0, 1] },
    })
    const run = (matrix as { value: MatrixRun }).value
    expect(run.snapped).toHaveLength(2)
    expect(run.durations[0]![1]).toBeCloseTo(110.5, 0)
    const listed = (await core.call('routing.networks', {})) as { value: { networks: NetworkInfo[] } }
    expect(listed.value.networks.map((n) => n.id)).toEqual(['town', 'gothenburg-sample'])
    expect(await core.call('routing.removeNetwork', { id: 'town' })).toMatchObject({ ok: true })
    const gone = await core.call('routing.removeNetwork', { id: 'town' })
    expect(gone).toMatchObject({ ok: false, error: { failureClass: 'not-found' } })
  })

  it('refuses bad input with the validator’s words and a failure class', async () => {
    const core = await localCore()
    const bad = await core.call('routing.matrix', {
      resources: 'distance_matrix_eta',
      profile: 'biking',
      positions: ['11.9668,57.7072', '11.9746,57.7089'],
    })
    expect(bad).toMatchObject({ ok: false, error: { failureClass: 'validation' } })
    expect(JSON.stringify(bad)).toMatch(/biking is available with resources distance_matrix only/)
    const wrongType = await core.call('routing.importNetwork', {
      importId: 'x',
      file: await offer(core.uploads, Buffer.from('a,b\n1,2\n'), 'table.csv'),
    })
    expect(wrongType).toMatchObject({ ok: false, error: { failureClass: 'validation', field: 'file' } })
    expect(JSON.stringify(wrongType)).toMatch(/only \.osm\.pbf/)
    const unknownRef = await core.call('routing.importNetwork', { importId: 'z', file: 'x'.repeat(20) })
    expect(unknownRef).toMatchObject({ ok: false, error: { failureClass: 'not-found' } })
    const notOsm = await core.call('routing.importNetwork', {
      importId: 'y',
      file: await offer(core.uploads, Buffer.from('<html/>'), 'notes.osm'),
    })
    expect(notOsm).toMatchObject({ ok: false, error: { failureClass: 'validation' } })
    expect(JSON.stringify(notOsm)).toMatch(/not an OSM XML file/)
  })

  it('computes a "when to leave" curve: one predictive run per departure', async () => {
    const core = await localCore()
    const night = Date.UTC(2024, 0, 8, 2, 0) / 1000
    const peak = Date.UTC(2024, 0, 8, 17, 0) / 1000
    const run = await core.call('routing.predictive', {
      coordinates: ['11.9668,57.7072', '11.94,57.699'],
      departures: [night, peak],
    })
    expect(run).toMatchObject({ ok: true, value: { network: 'gothenburg-sample', model: true } })
    const [a, b] = (run as { value: PredictiveRun }).value.results
    expect(b!.duration!).toBeGreaterThan(a!.duration! * 1.3)
  })
})
