import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createCore } from '../../../../electron/core/app-core'
import { KEYCHAIN_SERVICE } from '../../../../electron/core/secrets/keyring-secret-store'
import { runCliProcess } from '../../../support/cli'
import { countOccurrences, readTree } from '../../../support/files'
import { keychainAvailability } from '../../../support/keychain'
import { useTempDirs } from '../../../support/temp-dir'

const tempDir = useTempDirs()
const keychain = await keychainAvailability()
const canary = () => `canary-${randomBytes(12).toString('hex')}`

/** What the Secret Service itself holds, read with libsecret's own tool. */
function secretServiceLookup(account: string): string {
  return execFileSync('secret-tool', ['lookup', 'service', KEYCHAIN_SERVICE, 'username', account], {
    encoding: 'utf8',
  })
}

describe.skipIf(!keychain.available)(`OS keychain ${keychain.reason}`, () => {
  it('keeps a credential set through the app in the Secret Service and nowhere in the config folder', async () => {
    const configDir = tempDir()
    const core = await createCore({ configDir, host: 'web', version: '0' })
    const secret = canary()
    const set = await core.call('secrets.set', { name: 'token.gis', value: secret })
    expect(set).toMatchObject({ ok: true, value: { store: 'keychain', profile: 'Local' } })
    expect(JSON.stringify(set)).not.toContain(secret)
    const status = await core.call('secrets.status', {})
    expect(status).toMatchObject({
      ok: true,
      value: {
        credentials: expect.arrayContaining([
          expect.objectContaining({ name: 'token.gis', set: true, updatedAt: expect.any(String) }),
        ]),
      },
    })
    expect(JSON.stringify(status)).not.toContain(secret)
    expect(secretServiceLookup('Local:token.gis')).toBe(secret)
    for (const { file, text } of readTree(configDir)) expect(countOccurrences(text, secret), file).toBe(0)

    await core.call('secrets.clear', { name: 'token.gis' })
    expect(() => secretServiceLookup('Local:token.gis')).toThrow()
    await expect(core.call('secrets.status', {})).resolves.toMatchObject({
      value: { credentials: expect.arrayContaining([{ name: 'token.gis', set: false }]) },
    })
  })

  it('takes a credential from stdin in the CLI, never echoing it', async () => {
    const configDir = tempDir()
    const secret = canary()
    const env = { GEO_ANALYST_CONFIG_DIR: configDir }
    const set = await runCliProcess(['secret', 'set', 'licence-key'], { stdin: secret, env })
    expect(set.stderr).toBe('')
    expect(set.code).toBe(0)
    const status = await runCliProcess(['secret', 'status', '--json'], { env })
    expect(JSON.parse(status.stdout)).toMatchObject({
      store: 'keychain',
      credentials: expect.arrayContaining([expect.objectContaining({ name: 'licence-key', set: true })]),
    })
    expect(secretServiceLookup('Local:licence-key')).toBe(secret)
    for (const run of [set, status]) expect(run.stdout + run.stderr).not.toContain(secret)
    for (const { file, text } of readTree(configDir)) expect(countOccurrences(text, secret), file).toBe(0)
    const cleared = await runCliProcess(['secret', 'clear', 'licence-key'], { env })
    expect(cleared.code).toBe(0)
    expect(() => secretServiceLookup('Local:licence-key')).toThrow()
  })
})

describe('without a keychain', () => {
  it('keeps secrets for the session only and says so', async () => {
    const configDir = tempDir()
    const secret = canary()
    // An unreachable bus address makes the keychain probe fail the way a headless machine does.
    const result = await runCliProcess(['secret', 'set', 'token'], {
      stdin: secret,
      env: { GEO_ANALYST_CONFIG_DIR: configDir, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' },
    })
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/in memory for this session only/)
    expect(result.stdout + result.stderr).not.toContain(secret)
    for (const { text } of readTree(configDir)) expect(text).not.toContain(secret)
  })
})
