import { keychainProblem } from './keychain-problem'
import { KeyringSecretStore } from './keyring-secret-store'
import { MemorySecretStore } from './memory-secret-store'
import type { SecretStore } from './secret-store'

/**
 * The keychain when it answers (or answers that it is locked); otherwise secrets for this session only,
 * with the reason attached so the UI and the CLI can tell the user. Never a plaintext file.
 */
export async function openSecretStore(
  options: { service?: string; timeoutMs?: number } = {},
): Promise<SecretStore> {
  const keyring = new KeyringSecretStore(options.service)
  try {
    await keyring.probe(options.timeoutMs)
    return keyring
  } catch (error) {
    // A locked keyring is there: it is used (a desktop prompts to unlock it) and its state reported.
    if (keychainProblem(error)) return keyring
    const reason = error instanceof Error ? error.message : String(error)
    return new MemorySecretStore(
      `No OS keychain answered (${reason.split('\n')[0]}); credentials are kept in memory for this session only and are lost when it ends.`,
    )
  }
}
