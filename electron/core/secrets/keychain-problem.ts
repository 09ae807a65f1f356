import { GeoFailure } from '../../base/geo-failure'

/**
 * A Secret Service that answers but cannot store: its default keyring is locked, or there is none.
 * Both are local configuration the user can fix, so they are said with what to do, never as
 * "unclassified".
 */
export const KEYCHAIN_LOCKED =
  'The OS keychain’s default keyring is locked, so credentials cannot be read or stored. Unlock it — in Seahorse ("Passwords and Keys"), or from a terminal with `gnome-keyring-daemon --unlock` (it reads the keyring’s password from stdin) — and try again.'

export const KEYCHAIN_WITHOUT_KEYRING =
  'The OS keychain (Secret Service) answers but has no default keyring to store credentials in. Create one — in Seahorse ("Passwords and Keys": New, Password Keyring, then "Set as default"), or by logging in to a desktop session that creates the login keyring — and try again.'

/** What the user must do when the keychain's error is one of these states; null for any other error. */
export function keychainProblem(error: unknown): string | null {
  const text = error instanceof Error ? error.message : String(error)
  if (/IsLocked|is locked|prompt was dismissed/i.test(text)) return KEYCHAIN_LOCKED
  if (/no result found/i.test(text)) return KEYCHAIN_WITHOUT_KEYRING
  return null
}

/** Run a keychain call; its known states become a `local-configuration` failure saying what to do. */
export async function withKeychain<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    const problem = keychainProblem(error)
    throw problem ? new GeoFailure('local-configuration', problem) : error
  }
}
