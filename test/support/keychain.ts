import { KeyringSecretStore } from '../../electron/core/secrets/keyring-secret-store'

/**
 * Whether a real Secret Service answers. `npm test` provides one (gnome-keyring under dbus-run-session);
 * in CI its absence is a failure, elsewhere the keychain tests are skipped with this reason.
 */
export async function keychainAvailability(): Promise<{ available: boolean; reason: string }> {
  try {
    await new KeyringSecretStore('geo-analyst-probe').probe(3000)
    return { available: true, reason: '' }
  } catch (error) {
    const reason = `no Secret Service answered (${(error as Error).message.split('\n')[0]}); run the tests with npm test`
    if (process.env.CI) throw new Error(`Keychain tests need a Secret Service in CI: ${reason}`)
    return { available: false, reason }
  }
}
