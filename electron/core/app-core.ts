import os from 'node:os'
import {
  LOCAL_PROFILE,
  type AppInfo,
  type BaseUrls,
  type OperationName,
  type OperationResponse,
  type Result,
} from '../contract'
import { clientForProfile } from './client/create-client'
import { dispatch } from './dispatch'
import { EventBus } from './events'
import type { SaveDialogPort } from './export/save-dialog-port'
import { GeoFailure } from './geo-failure'
import { createHandlers, type Handlers } from './handlers'
import { Redactor } from './http/redactor'
import { JoinRuns } from './loop/join-runs'
import { resolveDataDir } from './paths'
import { Credentials } from './secrets/credentials'
import { openSecretStore } from './secrets/open-secret-store'
import type { SecretStore } from './secrets/secret-store'
import { SettingsStore } from './settings/settings-store'
import { DrawingsStore } from './workspace/drawings-store'
import type { ImportFiles } from './workspace/import-files'
import type { LocalWorkspacePort } from './workspace/local-workspace-port'
import { RunHistory } from './workspace/run-history'

/**
 * How joins are sent: one attempt may take minutes (a join over a big dataset), answers may be large,
 * and a read-only join is tried at most twice. Cancel stays immediate through the run's AbortController.
 */
export const JOIN_TRANSPORT = {
  retry: { attemptTimeoutMs: 10 * 60_000, totalBudgetMs: 10 * 60_000, maxAttempts: 2 },
  maxResponseBytes: 512 * 1024 * 1024,
} as const

/** The built-in local service as the core sees it; hosts inject how to start it. */
export interface LocalServiceHandle {
  urls: BaseUrls
  token: string
  licenceKey: string
  close(): Promise<void>
  /** When the service can end on its own (its own process): called once if it does. */
  onExit?(listener: (reason: string) => void): void
}

export interface CoreOptions {
  configDir: string
  host: AppInfo['host']
  version: string
  /** Defaults to the OS keychain, or session memory when none answers. */
  secretStore?: SecretStore
  /** Starts the built-in local service behind the Local profile (hosts inject it; the core never imports it). */
  startLocalService?: () => Promise<LocalServiceHandle>
  /** The data folder (drawings, run and request history); defaults to `resolveDataDir()`. */
  dataDir?: string
  /** The built-in local workspace (hosts inject the local service's adapter). */
  localWorkspace?: LocalWorkspacePort
  /** The desktop save dialog for exports (Electron only). */
  saveDialog?: SaveDialogPort
  /** Files offered for import by reference: desktop grants or browser-host uploads. */
  importFiles?: ImportFiles
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
  const dataDir = options.dataDir ?? resolveDataDir()
  const ensureLocalService = (): Promise<LocalServiceHandle | null> => {
    const start = options.startLocalService
    if (!start) return Promise.resolve(null)
    starting ??= start().then((service) => {
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
      return service
    })
    starting.catch(() => (starting = undefined))
    return starting
  }
  const readyProfile = async () => {
    const profile = await settings.activeProfile()
    if (!profile.builtIn || profile.urls) return profile
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
  const client = clientForProfile({ settings, credentials, redactor, dataDir })
  const joinClient = clientForProfile({ settings, credentials, redactor, dataDir, transport: JOIN_TRANSPORT })
  const runs = new RunHistory(dataDir, redactor)
  const joinRuns = new JoinRuns({
    send: (params, body, { signal }) => joinClient.gis.join(params, body, { signal }),
    events,
    history: runs,
    profile: async () => (await settings.activeProfile()).name,
  })
  const handlers = createHandlers({
    settings,
    credentials,
    events,
    info,
    loop: {
      redactor,
      readyProfile,
      client,
      joinRuns,
      runs,
      drawings: new DrawingsStore(dataDir),
      localWorkspace: options.localWorkspace,
      importFiles: options.importFiles,
      saveDialog: options.saveDialog,
    },
  })
  const call = (name: unknown, payload: unknown) => dispatch(handlers, name, payload, redactor)
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
      await local?.close()
    },
  }
}
