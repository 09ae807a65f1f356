import os from 'node:os'
import {
  LOCAL_PROFILE,
  type AppInfo,
  type BaseUrls,
  type OperationName,
  type OperationResponse,
  type Result,
} from '../contract'
import { dispatch } from './dispatch'
import { EventBus } from './events'
import { createHandlers, type Handlers } from './handlers'
import { Redactor } from './http/redactor'
import { Credentials } from './secrets/credentials'
import { openSecretStore } from './secrets/open-secret-store'
import type { SecretStore } from './secrets/secret-store'
import { SettingsStore } from './settings/settings-store'

/** The built-in local service as the core sees it; hosts inject how to start it. */
export interface LocalServiceHandle {
  urls: BaseUrls
  token: string
  licenceKey: string
  close(): Promise<void>
}

export interface CoreOptions {
  configDir: string
  host: AppInfo['host']
  version: string
  /** Defaults to the OS keychain, or session memory when none answers. */
  secretStore?: SecretStore
  /** Starts the built-in local service behind the Local profile (hosts inject it; the core never imports it). */
  startLocalService?: () => Promise<LocalServiceHandle>
}

/** The services every host shares, and the one entry point hosts call. */
export interface Core {
  readonly handlers: Handlers
  readonly events: EventBus
  readonly redactor: Redactor
  readonly settings: SettingsStore
  readonly credentials: Credentials
  /** Validate, run and answer one operation of the contract; never throws. */
  call(name: unknown, payload: unknown): Promise<Result<unknown>>
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
  const handlers = createHandlers({ settings, credentials, events, info })
  const call = (name: unknown, payload: unknown) => dispatch(handlers, name, payload, redactor)
  return {
    handlers,
    events,
    redactor,
    settings,
    credentials,
    call,
    invoke: (name, payload) => call(name, payload) as never,
    ensureLocalService() {
      const start = options.startLocalService
      if (!start) return Promise.resolve(null)
      starting ??= start().then((service) => {
        local = service
        credentials.provide(LOCAL_PROFILE, 'token', service.token)
        credentials.provide(LOCAL_PROFILE, 'licence-key', service.licenceKey)
        return service
      })
      starting.catch(() => (starting = undefined))
      return starting
    },
    async close() {
      await local?.close()
    },
  }
}
