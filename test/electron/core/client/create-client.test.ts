import { promises as fs } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { clientForProfile } from '../../../../electron/core/client/create-client'
import { Redactor } from '../../../../electron/core/http/redactor'
import { Credentials } from '../../../../electron/core/secrets/credentials'
import { MemorySecretStore } from '../../../../electron/core/secrets/memory-secret-store'
import { SettingsStore } from '../../../../electron/core/settings/settings-store'
import { historyFile } from '../../../../electron/core/workspace/request-history'
import { FakeProvider, fakeUrls } from '../../../support/fake-provider'
import { tempDir } from '../../cli/cli-harness'

let fake: FakeProvider
let dir: string
beforeEach(async () => {
  fake = await new FakeProvider().start()
  dir = await tempDir('ga-client-')
})
afterEach(async () => {
  await fake.stop()
  await fs.rm(dir, { recursive: true, force: true })
})

describe('clientForProfile', () => {
  it('follows the active profile, its group token before the shared one, and records history', async () => {
    const settings = new SettingsStore({ configDir: dir })
    const credentials = new Credentials(new MemorySecretStore(), dir)
    const redactor = new Redactor()
    const client = clientForProfile({ settings, credentials, redactor, dataDir: dir })
    fake.on('*', { status: 200, json: { data: [] } })

    const local = await client.gis.layers()
    expect(local.ok ? null : local.error).toMatchObject({
      failureClass: 'local-configuration',
      field: 'mgis_v2_url',
    })

    await settings.saveProfile('Cloud', fakeUrls(fake.base))
    await settings.chooseProfile('Cloud')
    await credentials.set('Cloud', 'token', 'shared-token-abc')
    await credentials.set('Cloud', 'token.telematics', 'telematics-token-xyz')
    expect((await client.gis.layers()).ok).toBe(true)
    expect((await client.telematics.devices({})).ok).toBe(true)
    expect(fake.received.map((r) => r.headers.authorization)).toEqual([
      'Bearer shared-token-abc',
      'Bearer telematics-token-xyz',
    ])
    const lines = (await fs.readFile(historyFile(dir), 'utf8')).trim().split('\n')
    expect(lines.map((l) => JSON.parse(l).operation)).toEqual([
      'gis.layers',
      'gis.layers',
      'telematics.devices',
    ])
  })
})
