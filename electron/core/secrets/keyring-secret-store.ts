import { AsyncEntry, findCredentialsAsync, type EntryOptions } from '@napi-rs/keyring'
import { keychainProblem, withKeychain } from './keychain-problem'
import type { SecretStore } from './secret-store'

export const KEYCHAIN_SERVICE = 'geo-analyst'
const PROBE_KEY = 'geo-analyst:probe'

/**
 * Pinned to the Secret Service on Linux: the kernel keyutils store forgets everything on reboot,
 * so it must never be picked silently. Other platforms use their one persistent store.
 */
const ENTRY_OPTIONS: EntryOptions = { linux: { store: 'secret-service' } }

/** The OS keychain (Secret Service, macOS Keychain, Windows Credential Manager). */
export class KeyringSecretStore implements SecretStore {
  readonly kind = 'keychain' as const

  constructor(private readonly service = KEYCHAIN_SERVICE) {}

  private ready = false

  async get(key: string): Promise<string | null> {
    return withKeychain(async () => (await this.entry(key).getPassword()) ?? null)
  }

  async set(key: string, value: string): Promise<void> {
    await withKeychain(() => this.entry(key).setPassword(value))
    this.ready = true
  }

  async delete(key: string): Promise<boolean> {
    return withKeychain(() => this.entry(key).deleteCredential())
  }

  /**
   * Whether a credential could be stored now, tried by storing and removing a probe entry (a search
   * succeeds even when the keyring is locked or missing). Null when it can; what to do when it cannot.
   * On a desktop, a locked keyring shows its unlock prompt here, as it would for a real credential.
   */
  async problem(): Promise<string | null> {
    if (this.ready) return null
    try {
      const probe = this.entry(PROBE_KEY)
      await probe.setPassword('probe')
      await probe.deleteCredential()
      this.ready = true
      return null
    } catch (error) {
      const problem = keychainProblem(error)
      if (problem) return problem
      throw error
    }
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
