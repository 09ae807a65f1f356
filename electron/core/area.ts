import type { z } from 'zod'
import type {
  AppInfo,
  OperationName,
  OperationResponse,
  Operations,
  OperationTable,
  Profile,
} from '../contract'
import { operations } from '../contract'
import type { Client } from './client/create-client'
import type { EventBus } from './events'
import type { Redactor } from './http/redactor'
import type { TransportOptions } from './http/transport'
import type { Credentials } from './secrets/credentials'
import type { SettingsStore } from './settings/settings-store'
import type { LocalWorkspacePort } from '../base/local-workspace-port'
import type { SaveDialogPort } from './export/save-dialog-port'
import type { ImportFiles } from './workspace/import-files'
import type { PartTap } from '../contract/frames'
import type { PostgisCheckPort } from './app/postgis-port'

/** What a host gives a call besides its request. */
export interface CallContext {
  /** Where a part of the answer may go while it arrives (the browser host: a join's rows, to the page). */
  tap?: PartTap
}

/**
 * A handler receives the already-validated request (and what the host gave the call besides) and returns
 * the response or throws a GeoFailure.
 */
export type Handlers = {
  [K in OperationName]: (
    request: z.output<Operations[K]['request']>,
    context?: CallContext,
  ) => Promise<OperationResponse<K>>
}

/** The handlers of one area's table, typed by that table. */
export type TableHandlers<T extends OperationTable> = {
  [K in keyof T]: (
    request: z.output<T[K]['request']>,
    context?: CallContext,
  ) => Promise<z.output<T[K]['response']>>
}

/** The built-in local service as the core sees it; hosts inject how to start it. */
export interface LocalServiceHandle {
  urls: import('../contract').BaseUrls
  token: string
  licenceKey: string
  close(): Promise<void>
  /** When the service can end on its own (its own process): called once if it does. */
  onExit?(listener: (reason: string) => void): void
}

/** What a host may give the core: ports only some hosts have, each read by the areas named. */
export interface CorePorts {
  /** gis: the local workspace; by default the built-in local service's, over HTTP. */
  localWorkspace?: LocalWorkspacePort
  /** gis, routing, telematics: files offered for import by reference (desktop grants, browser-host uploads); none in the CLI. */
  importFiles?: ImportFiles
  /** map: the desktop save dialog for exports (Electron only; the browser host downloads). */
  saveDialog?: SaveDialogPort
  /** app: "Test connection" of a PostGIS workspace profile (hosts with the local service's code). */
  postgisCheck?: PostgisCheckPort
}

/**
 * What every area's handlers share: the app's stores, the client over the active profile, the event bus, and
 * the host's optional ports. Areas build their own services from it inside `register<Area>Handlers`.
 */
export interface CoreContext {
  host: AppInfo['host']
  info(): AppInfo
  settings: SettingsStore
  credentials: Credentials
  events: EventBus
  redactor: Redactor
  /** Drawings, run and request history live here. */
  dataDir: string
  /** The active profile, with the built-in local service started first when it is the Local one. */
  readyProfile(): Promise<Profile>
  /** The client over the active profile, with the default transport. */
  client: Client
  /** A client over the active profile with its own transport settings (e.g. long joins). */
  clientWith(transport: TransportOptions): Client
  /** The built-in local service, started on first use; null when this host has none. */
  localService(): Promise<LocalServiceHandle | null>
  /** Ports only some hosts have (e.g. the desktop save dialog). */
  ports: Readonly<CorePorts>
  /** Run when the core closes. */
  onClose(stop: () => Promise<void>): void
}

/** Where areas put their handlers; the core refuses to start unless every operation has exactly one. */
export class HandlerRegistry {
  private readonly handlers = new Map<string, (request: never) => Promise<unknown>>()

  /** Register the handlers of an area's table (the type checks that each of its operations has one). */
  add<T extends OperationTable>(table: T, handlers: TableHandlers<T>): void {
    for (const name of Object.keys(table)) {
      if (!Object.prototype.hasOwnProperty.call(operations, name))
        throw new Error(`operation ${name} is not in the contract table (electron/contract/operations.ts)`)
      if (this.handlers.has(name)) throw new Error(`operation ${name} has two handlers`)
      this.handlers.set(name, handlers[name as keyof T] as (request: never) => Promise<unknown>)
    }
  }

  /** Every handler, once each operation of the contract has one. */
  complete(): Handlers {
    const missing = Object.keys(operations).filter((name) => !this.handlers.has(name))
    if (missing.length) throw new Error(`no handler registered for ${missing.join(', ')}`)
    return Object.fromEntries(this.handlers) as unknown as Handlers
  }
}

/** One area's registration: builds the area's services over the shared context and registers its handlers. */
export type RegisterArea = (registry: HandlerRegistry, core: CoreContext) => void
