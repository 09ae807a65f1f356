import { describe, expect, it } from 'vitest'
import { createCore } from '../../../electron/core/app-core'
import { MemorySecretStore } from '../../../electron/core/secrets/memory-secret-store'
import { useTempDirs } from '../../support/temp-dir'

const tempDir = useTempDirs()
const newCore = () =>
  createCore({ configDir: tempDir(), host: 'cli', version: '1.2.3', secretStore: new MemorySecretStore() })

describe('dispatch, the one entry every host calls', () => {
  it('refuses an operation outside the table', async () => {
    const core = await newCore()
    await expect(core.call('fs.readFile', { path: '/etc/passwd' })).resolves.toMatchObject({
      ok: false,
      error: { failureClass: 'validation', message: expect.stringContaining('Unknown operation') },
    })
  })

  it('validates the request before any work and names the field', async () => {
    const core = await newCore()
    const result = await core.call('settings.saveProfile', { name: 'Cloud', urls: { atlas_url: 'ftp://x' } })
    expect(result).toMatchObject({
      ok: false,
      error: { failureClass: 'validation', field: expect.stringMatching(/^urls\./) },
    })
    expect(
      (await core.call('settings.get', {})) as { ok: true; value: { profiles: unknown[] } },
    ).toMatchObject({
      ok: true,
      value: { profiles: [{ name: 'Local' }] },
    })
  })

  it('refuses unexpected request members instead of ignoring them', async () => {
    const core = await newCore()
    await expect(core.call('secrets.status', { profile: 'Local', extra: 1 })).resolves.toMatchObject({
      ok: false,
    })
  })

  it('returns failures as values with their class and next step', async () => {
    const core = await newCore()
    await expect(core.call('settings.chooseProfile', { name: 'Nowhere' })).resolves.toMatchObject({
      ok: false,
      error: { failureClass: 'not-found', retry: 'do-not-retry', field: 'name' },
    })
  })

  it('answers app.info with the host it runs in', async () => {
    const core = await newCore()
    await expect(core.call('app.info', {})).resolves.toMatchObject({
      ok: true,
      value: { host: 'cli', version: '1.2.3' },
    })
  })
})
