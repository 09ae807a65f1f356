import os from 'node:os'
import type { AppInfo, BaseUrls, OperationName, OperationResponse, Result } from '../contract'
import { dispatch } from './dispatch'
import { EventBus } from './events'
import { createHandlers, type Handlers } from './handlers'
import { Redactor } from './http/redactor'
import { Credentials } from './secrets/credentials'
import { openSecretStore } from './secrets/open-secret-store'
import type { SecretStore } from './secrets/secret-store'
import { SettingsStore } from './settings/settings-store'

export interface CoreOptions {
  configDir: string
  host: AppInfo['host']
  version: string
  /** Defaults to the OS keychain, or session memory when none answers. */
  secretStore?: SecretStore
  /** URLs of the built-in Local profile while the local service runs. */
  localUrls?: () => BaseUrls | null
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
}

export async function createCore(options: CoreOptions): Promise<Core> {
  const store = options.secretStore ?? (await openSecretStore())
  const redactor = new Redactor()
  const credentials = new Credentials(store, options.configDir)
  credentials.onSecret((value) => redactor.remember(value))
  const settings = new SettingsStore({ configDir: options.configDir, localUrls: options.localUrls })
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
  }
}
