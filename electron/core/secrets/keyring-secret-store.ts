import { AsyncEntry, findCredentialsAsync, type EntryOptions } from '@napi-rs/keyring'
import type { SecretStore } from './secret-store'

export const KEYCHAIN_SERVICE = 'geo-analyst'

/**
 * Pinned to the Secret Service on Linux: the kernel keyutils store forgets everything on reboot,
 * so it must never be picked silently. Other platforms use their one persistent store.
 */
const ENTRY_OPTIONS: EntryOptions = { linux: { store: 'secret-service' } }

/** The OS keychain (Secret Service, macOS Keychain, Windows Credential Manager). */
export class KeyringSecretStore implements SecretStore {
  readonly kind = 'keychain' as const

  constructor(private readonly service = KEYCHAIN_SERVICE) {}

  async get(key: string): Promise<string | null> {
    return (await this.entry(key).getPassword()) ?? null
  }

  async set(key: string, value: string): Promise<void> {
    await this.entry(key).setPassword(value)
  }

  async delete(key: string): Promise<boolean> {
    return this.entry(key).deleteCredential()
  }

  /** Resolves when the keychain answers; rejects with its reason otherwise. */
  async probe(timeoutMs = 5000): Promise<void> {
    const signal = AbortSignal.timeout(timeoutMs)
    await findCredentialsAsync(this.service, null, signal)
  }

  private entry(key: string): AsyncEntry {
    return new AsyncEntry(this.service, key, ENTRY_OPTIONS)
  }
}
