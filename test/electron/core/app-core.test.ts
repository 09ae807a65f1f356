import { describe, expect, it } from 'vitest'
import { createCore } from '../../../electron/core/app-core'
import { clientForProfile } from '../../../electron/core/client/create-client'
import { MemorySecretStore } from '../../../electron/core/secrets/memory-secret-store'
import { startLocalService } from '../../../electron/local-service'
import { useTempDirs } from '../../support/temp-dir'

const tempDir = useTempDirs()

describe('the core with the built-in local service', () => {
  it('points the Local profile at the local service with its credentials held in memory', async () => {
    const configDir = tempDir()
    const workspaceDir = tempDir()
    const core = await createCore({
      configDir,
      host: 'web',
      version: '0',
      secretStore: new MemorySecretStore(),
      startLocalService: () => startLocalService({ workspaceDir }),
    })
    try {
      const before = await core.call('settings.get', {})
      expect(before).toMatchObject({ ok: true, value: { profiles: [{ name: 'Local', urls: null }] } })
      const local = await core.ensureLocalService()
      expect(await core.ensureLocalService()).toBe(local)
      const view = await core.call('settings.get', {})
      expect(view).toMatchObject({
        ok: true,
        value: {
          profiles: [
            {
              name: 'Local',
              urls: { mgis_v2_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mgis\/v2$/) },
            },
          ],
        },
      })
      const status = await core.call('secrets.status', {})
      expect(status).toMatchObject({
        ok: true,
        value: {
          credentials: expect.arrayContaining([
            { name: 'token', set: true, managed: true },
            { name: 'licence-key', set: true, managed: true },
          ]),
        },
      })
      expect(JSON.stringify(status)).not.toContain(local!.token)

      // The same client the hosts use reaches the local service with the in-memory token.
      const client = clientForProfile({
        settings: core.settings,
        credentials: core.credentials,
        redactor: core.redactor,
        dataDir: tempDir(),
      })
      const layers = await client.gis.layers()
      expect(layers.ok && layers.value.layers.map((l) => l.layername)).toEqual(
        expect.arrayContaining(['india_states', 'india_cities', 'india_city_links']),
      )
    } finally {
      await core.close()
    }
  })

  it('has no local service where the host gives none', async () => {
    const core = await createCore({
      configDir: tempDir(),
      host: 'cli',
      version: '0',
      secretStore: new MemorySecretStore(),
    })
    await expect(core.ensureLocalService()).resolves.toBeNull()
  })
})
