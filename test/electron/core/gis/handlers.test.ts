import { describe, expect, it } from 'vitest'
import { createCore } from '../../../../electron/core/app-core'
import { MemorySecretStore } from '../../../../electron/core/secrets/memory-secret-store'
import { fakeUrls } from '../../../support/fake-provider'
import { useTempDirs } from '../../../support/temp-dir'

const tempDir = useTempDirs()

async function webCore() {
  return createCore({
    configDir: tempDir(),
    dataDir: tempDir(),
    host: 'web',
    version: '0',
    secretStore: new MemorySecretStore(),
  })
}

describe('loop operations a host cannot serve', () => {
  it('datasets.features on a remote profile says only local datasets can be shown', async () => {
    const core = await webCore()
    await core.call('settings.saveProfile', { name: 'Cloud', urls: fakeUrls('http://127.0.0.1:9') })
    await core.call('settings.chooseProfile', { name: 'Cloud' })
    const result = await core.call('datasets.features', { name: 'india_states' })
    expect(result).toMatchObject({ ok: false, error: { failureClass: 'local-configuration' } })
    expect(JSON.stringify(result)).toMatch(
      /only datasets of the built-in Local profile can be shown on the map/,
    )
    expect(JSON.stringify(result)).toContain('Cloud')
  })

  it('datasets.import takes a file reference, never a path, and says when the host takes no files', async () => {
    const core = await webCore()
    const path = await core.call('datasets.import', { file: '/home/me/.ssh/id_rsa' })
    expect(path).toMatchObject({ ok: false, error: { failureClass: 'validation', field: 'file' } })
    const none = await core.call('datasets.import', { file: 'A'.repeat(24) })
    expect(none).toMatchObject({ ok: false, error: { failureClass: 'local-configuration' } })
    expect(JSON.stringify(none)).toMatch(/geo-analyst import FILE/)
  })

  it('runs.get of an unknown run is not-found', async () => {
    const core = await webCore()
    expect(await core.call('runs.list', {})).toEqual({ ok: true, value: { runs: [] } })
    expect(await core.call('runs.get', { id: 'nope' })).toMatchObject({
      ok: false,
      error: { failureClass: 'not-found', field: 'id' },
    })
  })
})
