import { promises as fs } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import {
  DEFAULT_PREFERENCES,
  LOCAL_PROFILE,
  baseUrlsSchema,
  caCertificateSchema,
  postgisFieldsSchema,
  preferencesSchema,
  profileNameSchema,
  type BaseUrls,
  type PostgisFields,
  type Preferences,
  type Profile,
  type SettingsView,
} from '../../contract'
import { writeJsonAtomic } from '../../base/atomic-write'
import { withFileLock } from '../../base/file-lock'
import { GeoFailure } from '../../base/geo-failure'
import { parseJsonText } from '../../contract/common/json-text'

const SETTINGS_FILE = 'settings.json'

const settingsFileSchema = z.object({
  version: z.literal(1),
  activeProfile: profileNameSchema,
  // A profile without `kind` is a remote one, as every settings file before PostGIS workspaces had.
  profiles: z.array(
    z.discriminatedUnion('kind', [
      z.object({ name: profileNameSchema, kind: z.literal('postgis'), postgis: postgisFieldsSchema }),
      z.object({
        name: profileNameSchema,
        kind: z.undefined().optional(),
        urls: baseUrlsSchema,
        caCertificate: caCertificateSchema.optional(),
      }),
    ]),
  ),
  preferences: preferencesSchema,
})

type FileProfile = SettingsFile['profiles'][number]

type SettingsFile = z.infer<typeof settingsFileSchema>

const DEFAULT_FILE: SettingsFile = {
  version: 1,
  activeProfile: LOCAL_PROFILE,
  profiles: [],
  preferences: DEFAULT_PREFERENCES,
}

export interface SettingsStoreOptions {
  configDir: string
  /** URLs of the built-in Local profile, or null while the local service is not running. */
  localUrls?: () => BaseUrls | null
  now?: () => Date
}

/**
 * What the user is told when `settings.json` could not be read: what happened, where the old file went
 * and how to get the profiles back. The same words in the CLI, the browser host and the app.
 */
export function settingsRecoveryNotice(file: string, aside: string, reason: string): string {
  return [
    `The settings file ${file} could not be read (${reason}).`,
    `It was moved to ${aside} and the defaults are in use: your connection profiles and preferences are not loaded (credentials in the OS keychain are kept).`,
    `To get them back, close the app, repair that file and rename it back to ${path.basename(file)}; or set the profiles again.`,
  ].join(' ')
}

/**
 * Connection profiles and preferences in `settings.json` in the config folder. Never holds a secret.
 * Reads and read-modify-write mutations take turns under one lock (and mutations under a lock folder beside
 * the file, across processes); writes are atomic. A file that cannot be read is moved aside and reported
 * (`notice`, `onRecovered`), never silently replaced.
 */
export class SettingsStore {
  readonly file: string
  private readonly localUrls: () => BaseUrls | null
  private readonly now: () => Date
  private lock: Promise<unknown> = Promise.resolve()
  private notice: string | undefined
  private readonly recoveryListeners = new Set<(notice: string) => void>()

  constructor(options: SettingsStoreOptions) {
    this.file = path.join(options.configDir, SETTINGS_FILE)
    this.localUrls = options.localUrls ?? (() => null)
    this.now = options.now ?? (() => new Date())
  }

  view(): Promise<SettingsView> {
    return this.exclusive(async () => this.toView(await this.read()))
  }

  /** Called once with the notice when this store finds the file unreadable and moves it aside. */
  onRecovered(listener: (notice: string) => void): () => void {
    this.recoveryListeners.add(listener)
    return () => this.recoveryListeners.delete(listener)
  }

  async activeProfile(): Promise<Profile> {
    const view = await this.view()
    const active = view.profiles.find((p) => p.name === view.activeProfile)
    if (!active)
      throw new GeoFailure('local-configuration', `Active profile "${view.activeProfile}" does not exist`)
    return active
  }

  async profile(name: string): Promise<Profile> {
    const view = await this.view()
    const found = view.profiles.find((p) => p.name === name)
    if (!found) {
      throw new GeoFailure(
        'not-found',
        `No profile named "${name}"; known: ${view.profiles.map((p) => p.name).join(', ')}`,
        {
          field: 'name',
        },
      )
    }
    return found
  }

  chooseProfile(name: string): Promise<SettingsView> {
    return this.mutate((file) => {
      if (name !== LOCAL_PROFILE && !file.profiles.some((p) => p.name === name)) {
        throw new GeoFailure('not-found', `No profile named "${name}"`, { field: 'name' })
      }
      file.activeProfile = name
    })
  }

  /** Create or replace a remote profile; `caCertificate` (PEM): its server's CA, trusted for it alone. */
  saveProfile(name: string, urls: BaseUrls, caCertificate?: string): Promise<SettingsView> {
    return this.mutate((file) =>
      putProfile(file, { name, urls, ...(caCertificate ? { caCertificate } : {}) }),
    )
  }

  /** Create or replace a PostGIS workspace profile (never a password: that is the keychain's). */
  savePostgisProfile(name: string, postgis: PostgisFields): Promise<SettingsView> {
    return this.mutate((file) => putProfile(file, { name, kind: 'postgis', postgis }))
  }

  deleteProfile(name: string): Promise<SettingsView> {
    return this.mutate((file) => {
      if (name === LOCAL_PROFILE) {
        throw new GeoFailure('validation', `"${LOCAL_PROFILE}" is built in and cannot be deleted`, {
          field: 'name',
        })
      }
      const before = file.profiles.length
      file.profiles = file.profiles.filter((p) => p.name !== name)
      if (file.profiles.length === before)
        throw new GeoFailure('not-found', `No profile named "${name}"`, { field: 'name' })
      if (file.activeProfile === name) file.activeProfile = LOCAL_PROFILE
    })
  }

  savePreferences(preferences: Preferences): Promise<SettingsView> {
    return this.mutate((file) => {
      file.preferences = preferences
    })
  }

  /**
   * Read, change and write the file holding `settings.json.lock`: the app, the CLI beside it and a second
   * CLI each change it in turn, so none loses another's profile.
   */
  private mutate(change: (file: SettingsFile) => void): Promise<SettingsView> {
    return this.exclusive(async () => {
      await fs.mkdir(path.dirname(this.file), { recursive: true })
      return withFileLock(
        `${this.file}.lock`,
        async () => {
          const file = structuredClone(await this.read())
          change(file)
          await writeJsonAtomic(this.file, file)
          return this.toView(file)
        },
        {
          waitMs: 10_000,
          busy: (lock, pid) =>
            new GeoFailure(
              'conflict',
              `The settings file ${this.file} is being changed by another process (${pid ?? 'unknown'}, holding ${lock}); try again`,
            ),
        },
      )
    })
  }

  /** Run `work` when every earlier read and mutation is done: one at a time sees or moves the file. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.lock.then(work)
    this.lock = run.catch(() => undefined)
    return run
  }

  private async read(): Promise<SettingsFile> {
    let text: string
    try {
      text = await fs.readFile(this.file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return structuredClone(DEFAULT_FILE)
      throw error
    }
    let reason: string
    try {
      // A byte order mark (Windows Notepad writes one) is not part of the JSON.
      const parsed = settingsFileSchema.safeParse(parseJsonText(text))
      if (parsed.success) return parsed.data
      const issue = parsed.error.issues[0]
      reason = `${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}`
    } catch (error) {
      reason = `not valid JSON (${(error as Error).message})`
    }
    const aside = `${this.file}.corrupt-${this.now().toISOString().replace(/[:.]/g, '-')}`
    try {
      await fs.rename(this.file, aside)
    } catch (error) {
      // Another process (the CLI beside the app) moved it first and tells its own user.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return structuredClone(DEFAULT_FILE)
      throw error
    }
    this.notice = settingsRecoveryNotice(this.file, aside, reason)
    for (const listener of this.recoveryListeners) listener(this.notice)
    return structuredClone(DEFAULT_FILE)
  }

  private toView(file: SettingsFile): SettingsView {
    const local: Profile = { name: LOCAL_PROFILE, builtIn: true, urls: this.localUrls() }
    // A PostGIS workspace is the built-in local service over a database: built in, the local service's URLs
    // (editable and deletable all the same: `kind` tells it from Local).
    const remote: Profile[] = file.profiles.map((p) =>
      p.kind === 'postgis'
        ? { name: p.name, builtIn: true, urls: this.localUrls(), kind: p.kind, postgis: p.postgis }
        : {
            name: p.name,
            builtIn: false,
            urls: p.urls,
            ...(p.caCertificate ? { caCertificate: p.caCertificate } : {}),
          },
    )
    const known = file.activeProfile === LOCAL_PROFILE || remote.some((p) => p.name === file.activeProfile)
    const view: SettingsView = {
      activeProfile: known ? file.activeProfile : LOCAL_PROFILE,
      profiles: [local, ...remote],
      preferences: file.preferences,
    }
    if (this.notice) view.notice = this.notice
    return view
  }
}

function putProfile(file: SettingsFile, profile: FileProfile): void {
  if (profile.name.toLowerCase() === LOCAL_PROFILE.toLowerCase()) {
    throw new GeoFailure(
      'validation',
      `"${LOCAL_PROFILE}" is the built-in profile of the local service and cannot be changed`,
      { field: 'name' },
    )
  }
  const index = file.profiles.findIndex((p) => p.name === profile.name)
  if (index >= 0) file.profiles[index] = profile
  else file.profiles.push(profile)
}
