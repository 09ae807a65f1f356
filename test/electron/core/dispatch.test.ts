import { describe, expect, it } from 'vitest'
import type { Handlers } from '../../../electron/core/area'
import { createCore } from '../../../electron/core/app-core'
import { dispatch } from '../../../electron/core/dispatch'
import { Redactor } from '../../../electron/core/http/redactor'
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

  it('says what a handler threw that is not an Error, never "[object Object]"', async () => {
    const thrown: unknown[] = [
      { message: 'the gazetteer is still loading' },
      { code: 'E_BUSY', retry: 3 },
      Object.create(null),
      'plain text',
    ]
    const said: string[] = []
    for (const value of thrown) {
      const handlers = {
        'app.info': async () => {
          throw value
        },
      } as unknown as Handlers
      const result = await dispatch(handlers, 'app.info', {}, new Redactor())
      said.push(result.ok ? '' : result.error.message)
    }
    expect(said).toEqual([
      'app.info failed: the gazetteer is still loading',
      'app.info failed: {"code":"E_BUSY","retry":3}',
      'app.info failed: a value without a message',
      'app.info failed: plain text',
    ])
  })
})
