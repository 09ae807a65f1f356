import type { SecretStore } from './secret-store'

/** Secrets held in this process only: used when no keychain answers, and said so to the user. */
export class MemorySecretStore implements SecretStore {
  readonly kind = 'session-memory' as const
  private readonly values = new Map<string, string>()

  constructor(readonly warning?: string) {}

  async get(key: string): Promise<string | null> {
    return this.values.get(key) ?? null
  }

  async set(key: string, value: string): Promise<void> {
    this.values.set(key, value)
  }

  async delete(key: string): Promise<boolean> {
    return this.values.delete(key)
  }
}
