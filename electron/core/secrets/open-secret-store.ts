import { KeyringSecretStore } from './keyring-secret-store'
import { MemorySecretStore } from './memory-secret-store'
import type { SecretStore } from './secret-store'

/**
 * The keychain when it answers; otherwise secrets for this session only, with the reason attached so
 * the UI and the CLI can tell the user. Never a plaintext file.
 */
export async function openSecretStore(
  options: { service?: string; timeoutMs?: number } = {},
): Promise<SecretStore> {
  const keyring = new KeyringSecretStore(options.service)
  try {
    await keyring.probe(options.timeoutMs)
    return keyring
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return new MemorySecretStore(
      `No OS keychain answered (${reason.split('\n')[0]}); credentials are kept in memory for this session only and are lost when it ends.`,
    )
  }
}
