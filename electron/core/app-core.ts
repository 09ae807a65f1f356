import { createHash } from 'node:crypto'
import os from 'node:os'
import {
  LOCAL_PROFILE,
  type AppInfo,
  type OperationName,
  type OperationResponse,
  type Result,
} from '../contract'
import {
  HandlerRegistry,
  type CoreContext,
  type CorePorts,
  type Handlers,
  type LocalServiceHandle,
} from './area'
import { CORE_AREAS } from './areas'
import { clientForProfile } from './client/create-client'
import { dispatch, type CallContext } from './dispatch'
import { EventBus } from './events'
import { GeoFailure } from '../base/geo-failure'
import { Redactor } from './http/redactor'
import type { TransportOptions } from './http/transport'
import { resolveDataDir } from './paths'
import { Credentials } from './secrets/credentials'
import { openSecretStore } from './secrets/open-secret-store'
import type { SecretStore } from './secrets/secret-store'
import { SettingsStore } from './settings/settings-store'
import { localServiceDatabase, type LocalServiceDatabase } from './app/postgis-profile'

export type { Handlers, LocalServiceHandle } from './area'

export interface CoreOptions {
  configDir: string
  host: AppInfo['host']
  version: string
  /** Defaults to the OS keychain, or session memory when none answers. */
  secretStore?: SecretStore
  /**
   * Starts the built-in local service behind the Local profile (hosts inject it; the core never imports it):
   * over its folder, or over the database a PostGIS workspace profile names (`database`, its password in
   * `env` for the service's environment only).
   */
  startLocalService?: (database: LocalServiceDatabase | null) => Promise<LocalServiceHandle>
  /** The data folder (drawings, run and request history); defaults to `resolveDataDir()`. */
  dataDir?: string
  /** Ports only some hosts have, read by the areas that use them (e.g. the desktop save dialog). */
  ports?: CorePorts
}

/** The services every host shares, and the one entry point hosts call. */
export interface Core {
  readonly handlers: Handlers
  readonly events: EventBus
  readonly redactor: Redactor
  readonly settings: SettingsStore
  readonly credentials: Credentials
  /** Where drawings, run history and request history live. */
  readonly dataDir: string
  /** Validate, run and answer one operation of the contract; never throws. */
  call(name: unknown, payload: unknown, context?: CallContext): Promise<Result<unknown>>
  /** Typed convenience over `call` for in-process callers such as the CLI. */
  invoke<K extends OperationName>(name: K, payload: unknown): Promise<Result<OperationResponse<K>>>
  /**
   * Start the local service once (if this host can) and point the Local profile at it, with its
   * credentials held in memory. Resolves to null when the host has no local service.
   */
  ensureLocalService(): Promise<LocalServiceHandle | null>
  /** Stop what the core started. */
  close(): Promise<void>
}

export async function createCore(options: CoreOptions): Promise<Core> {
  const store = options.secretStore ?? (await openSecretStore())
  const redactor = new Redactor()
  const credentials = new Credentials(store, options.configDir)
  credentials.onSecret((value) => redactor.remember(value))
  let local: LocalServiceHandle | null = null
  let starting: Promise<LocalServiceHandle | null> | undefined
  const settings = new SettingsStore({ configDir: options.configDir, localUrls: () => local?.urls ?? null })
  const events = new EventBus()
  const info = (): AppInfo => ({
    name: 'Geo Analyst',
    version: options.version,
    host: options.host,
    platform: `${os.platform()} ${os.arch()}`,
    configDir: options.configDir,
  })
  const dataDir = options.dataDir ?? resolveDataDir()
  /** The database the active profile wants the local service over (a PostGIS workspace), or null. */
  const wanted = async (): Promise<{ name: string; database: LocalServiceDatabase | null }> => {
    const profile = await settings.activeProfile().catch(() => null)
    if (profile?.kind !== 'postgis') return { name: LOCAL_PROFILE, database: null }
    const password = await credentials.revealDatabasePassword(profile.name)
    return { name: profile.name, database: localServiceDatabase(profile, password) }
  }
  // What the running service was started for (a digest: no second copy of a password is kept).
  let startedFor = ''
  let turn: Promise<unknown> = Promise.resolve()
  const ensureLocalService = (): Promise<LocalServiceHandle | null> => {
    const start = options.startLocalService
    if (!start) return Promise.resolve(null)
    // One at a time: a profile change stops the service over the old workspace before the new one starts.
    const run = turn.then(async () => {
      const { name, database } = await wanted()
      const key = database
        ? createHash('sha256')
            .update(`${database.databaseUri}\n${database.env.PGPASSWORD ?? ''}`)
            .digest('hex')
        : ''
      if (starting && startedFor !== key) {
        const previous = await starting.catch(() => null)
        if (local === previous) local = null
        starting = undefined
        await previous?.close()
      }
      startedFor = key
      starting ??= start(database).then((service) => {
        local = service
        // A service that ended is dropped; the next call that needs it starts a new one.
        service.onExit?.((reason) => {
          if (local !== service) return
          local = null
          starting = undefined
          console.error(`The built-in local service ended (${reason}); it starts again when next needed.`)
        })
        credentials.provide(LOCAL_PROFILE, 'token', service.token)
        credentials.provide(LOCAL_PROFILE, 'licence-key', service.licenceKey)
        // A PostGIS workspace profile is the same service: its calls carry the same credentials.
        if (name !== LOCAL_PROFILE) {
          credentials.provide(name, 'token', service.token)
          credentials.provide(name, 'licence-key', service.licenceKey)
        }
        return service
      })
      starting.catch(() => (starting = undefined))
      return starting
    })
    turn = run.catch(() => undefined)
    return run
  }
  const readyProfile = async () => {
    const profile = await settings.activeProfile()
    if (!profile.builtIn) return profile
    try {
      await ensureLocalService()
    } catch (error) {
      throw new GeoFailure(
        'local-configuration',
        `The built-in local service did not start (${(error as Error).message}); choose a remote profile or restart the app`,
      )
    }
    return settings.activeProfile()
  }
  const clientWith = (transport?: TransportOptions) =>
    clientForProfile({ settings, credentials, redactor, dataDir, transport })
  const closers: Array<() => Promise<void>> = []
  const context: CoreContext = {
    host: options.host,
    info,
    settings,
    credentials,
    events,
    redactor,
    dataDir,
    readyProfile,
    client: clientWith(),
    clientWith,
    localService: ensureLocalService,
    ports: { ...options.ports },
    onClose: (stop) => void closers.push(stop),
  }
  const registry = new HandlerRegistry()
  for (const register of CORE_AREAS) register(registry, context)
  const handlers = registry.complete()
  const call = (name: unknown, payload: unknown, context?: CallContext) =>
    dispatch(handlers, name, payload, redactor, context)
  return {
    handlers,
    events,
    redactor,
    settings,
    credentials,
    dataDir,
    call,
    invoke: (name, payload) => call(name, payload) as never,
    ensureLocalService,
    async close() {
      await Promise.all(closers.map((stop) => stop().catch(() => undefined)))
      await local?.close()
    },
  }
}
