import { promises as fs } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { CREDENTIAL_NAMES, type CredentialName, type SecretsStatus } from '../../contract'
import type { DatabasePasswordStatus } from '../../contract/app/postgis'
import { writeJsonAtomic } from '../../base/atomic-write'
import type { SecretStore } from './secret-store'

/** When each credential was set: names and times only, never a value. */
const metaSchema = z.record(z.string(), z.record(z.string(), z.string()))
const META_FILE = 'credentials-meta.json'

/** Every live secret value this process has seen, for the redactor. */
export type SecretListener = (value: string) => void

/**
 * Credentials per profile over a SecretStore. The values go to the store only; status (set or not,
 * when) is what leaves this module towards the renderer.
 */
export class Credentials {
  private readonly metaFile: string
  private lock: Promise<unknown> = Promise.resolve()
  private readonly listeners = new Set<SecretListener>()
  /** Values the app itself provides for this session, such as the local service's credentials. */
  private readonly provided = new Map<string, string>()
  /** Set times of a session-only store stay in memory too: no file may outlive the secrets it describes. */
  private memoryMeta: Record<string, Record<string, string>> = {}

  constructor(
    readonly store: SecretStore,
    configDir: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.metaFile = path.join(configDir, META_FILE)
  }

  /** Called with every secret value read or written, so a redactor can learn it. */
  onSecret(listener: SecretListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Hold a value the app provides (never persisted); it takes precedence over the store. */
  provide(profile: string, name: CredentialName, value: string): void {
    this.announce(value)
    this.provided.set(key(profile, name), value)
  }

  async status(profile: string): Promise<SecretsStatus> {
    const meta = await this.readMeta()
    // A keychain that cannot be used now is said so; which credentials are set then comes from the
    // record of when each was set here, since the keychain cannot be asked.
    const problem = (await this.store.problem?.()) ?? null
    const credentials = await Promise.all(
      CREDENTIAL_NAMES.map(async (name) => {
        if (this.provided.has(key(profile, name))) return { name, set: true, managed: true }
        const set = problem
          ? meta[profile]?.[name] !== undefined
          : (await this.store.get(key(profile, name))) !== null
        const updatedAt = set ? meta[profile]?.[name] : undefined
        return updatedAt ? { name, set, updatedAt } : { name, set }
      }),
    )
    const status: SecretsStatus = { profile, store: this.store.kind, credentials }
    const warning = problem ?? this.store.warning
    if (warning) status.warning = warning
    return status
  }

  async set(profile: string, name: CredentialName, value: string): Promise<SecretsStatus> {
    this.announce(value)
    await this.store.set(key(profile, name), value)
    await this.updateMeta((meta) => {
      meta[profile] = { ...meta[profile], [name]: this.now().toISOString() }
    })
    return this.status(profile)
  }

  async clear(profile: string, name: CredentialName): Promise<SecretsStatus> {
    await this.store.delete(key(profile, name))
    await this.updateMeta((meta) => {
      if (meta[profile]) delete meta[profile][name]
    })
    return this.status(profile)
  }

  async clearProfile(profile: string): Promise<void> {
    for (const name of CREDENTIAL_NAMES) await this.store.delete(key(profile, name))
    await this.store.delete(key(profile, DATABASE_PASSWORD))
    await this.updateMeta((meta) => {
      delete meta[profile]
    })
  }

  /** Whether a PostGIS workspace profile's password is in the store (never its value). */
  async databasePasswordStatus(profile: string): Promise<DatabasePasswordStatus> {
    const meta = await this.readMeta()
    const problem = (await this.store.problem?.()) ?? null
    const set = problem
      ? meta[profile]?.[DATABASE_PASSWORD] !== undefined
      : (await this.store.get(key(profile, DATABASE_PASSWORD))) !== null
    const updatedAt = set ? meta[profile]?.[DATABASE_PASSWORD] : undefined
    const status: DatabasePasswordStatus = { profile, set, store: this.store.kind }
    if (updatedAt) status.updatedAt = updatedAt
    const warning = problem ?? this.store.warning
    if (warning) status.warning = warning
    return status
  }

  async setDatabasePassword(profile: string, value: string): Promise<DatabasePasswordStatus> {
    this.announce(value)
    await this.store.set(key(profile, DATABASE_PASSWORD), value)
    await this.updateMeta((meta) => {
      meta[profile] = { ...meta[profile], [DATABASE_PASSWORD]: this.now().toISOString() }
    })
    return this.databasePasswordStatus(profile)
  }

  async clearDatabasePassword(profile: string): Promise<DatabasePasswordStatus> {
    await this.store.delete(key(profile, DATABASE_PASSWORD))
    await this.updateMeta((meta) => {
      if (meta[profile]) delete meta[profile][DATABASE_PASSWORD]
    })
    return this.databasePasswordStatus(profile)
  }

  /** A PostGIS workspace profile's password, for the core's own use (connecting). Never sent to the renderer. */
  async revealDatabasePassword(profile: string): Promise<string | null> {
    const value = await this.store.get(key(profile, DATABASE_PASSWORD))
    if (value !== null) this.announce(value)
    return value
  }

  /** The value, for the core's own use when it calls the interface. Never sent to the renderer. */
  async reveal(profile: string, name: CredentialName): Promise<string | null> {
    const value = this.provided.get(key(profile, name)) ?? (await this.store.get(key(profile, name)))
    if (value !== null) this.announce(value)
    return value
  }

  private announce(value: string): void {
    for (const listener of this.listeners) listener(value)
  }

  private async readMeta(): Promise<Record<string, Record<string, string>>> {
    if (this.store.kind === 'session-memory') return structuredClone(this.memoryMeta)
    try {
      const parsed = metaSchema.safeParse(JSON.parse(await fs.readFile(this.metaFile, 'utf8')))
      return parsed.success ? parsed.data : {}
    } catch {
      // Missing or unreadable metadata only loses the "when"; the keychain stays the truth for "set".
      return {}
    }
  }

  private updateMeta(change: (meta: Record<string, Record<string, string>>) => void): Promise<void> {
    const run = this.lock.then(async () => {
      const meta = await this.readMeta()
      change(meta)
      if (this.store.kind === 'session-memory') this.memoryMeta = meta
      else await writeJsonAtomic(this.metaFile, meta)
    })
    this.lock = run.catch(() => undefined)
    return run
  }
}

/** Where a PostGIS workspace profile's password is kept, beside the profile's interface credentials. */
export const DATABASE_PASSWORD = 'database-password'

export function key(profile: string, name: CredentialName | typeof DATABASE_PASSWORD): string {
  return `${profile}:${name}`
}
