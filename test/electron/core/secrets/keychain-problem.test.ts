import { describe, expect, it } from 'vitest'
import { GeoFailure } from '../../../../electron/base/geo-failure'
import {
  KEYCHAIN_LOCKED,
  KEYCHAIN_WITHOUT_KEYRING,
  keychainProblem,
  withKeychain,
} from '../../../../electron/core/secrets/keychain-problem'

describe('keychain states the user can fix', () => {
  it.each([
    [
      'zbus error: org.freedesktop.Secret.Error.IsLocked: Cannot get secret of a locked object',
      KEYCHAIN_LOCKED,
    ],
    ["Couldn't access platform storage: Secret Service: unlock prompt was dismissed", KEYCHAIN_LOCKED],
    ["Couldn't access platform storage: Secret Service: no result found", KEYCHAIN_WITHOUT_KEYRING],
  ])('%s', async (message, advice) => {
    expect(keychainProblem(new Error(message))).toBe(advice)
    const failure = await withKeychain(() => Promise.reject(new Error(message))).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(GeoFailure)
    expect((failure as GeoFailure).error).toMatchObject({
      failureClass: 'local-configuration',
      message: advice,
    })
  })

  it('leaves other errors as they are', async () => {
    const other = new Error('connection refused')
    expect(keychainProblem(other)).toBeNull()
    await expect(withKeychain(() => Promise.reject(other))).rejects.toBe(other)
  })
})
