import type { SecretStoreKind } from '../../contract'

/** Where secret values live. Keys are opaque strings such as `Cloud:token.gis`. */
export interface SecretStore {
  readonly kind: SecretStoreKind
  /** Why secrets are not persisted, when they are not. */
  readonly warning?: string
  get(key: string): Promise<string | null>
  set(key: string, value: string): Promise<void>
  delete(key: string): Promise<boolean>
  /** Why values cannot be stored now although the store exists (a locked keyring), or null. */
  problem?(): Promise<string | null>
}
