import type { BaseUrls, CredentialName } from '../../contract'
import { inAreaOrder } from '../../contract/area'
import type { Redactor } from '../http/redactor'
import { Transport, type TransportOptions } from '../http/transport'
import type { Credentials } from '../secrets/credentials'
import type { SettingsStore } from '../settings/settings-store'
import { RequestHistory, type HistoryRecorder } from '../workspace/request-history'
import { CREDENTIALS_BY_GROUP, type ClientContext, type Group } from './execute'
import * as AREAS from './area-list'

export interface ClientOptions {
  /** The profile's base URLs (or a lookup of the active ones); null when the profile has none. */
  urls: BaseUrls | null | (() => Promise<BaseUrls | null>)
  /** The profile's server CA certificate (PEM), trusted for its requests besides the system's CAs. */
  caCertificate?: string | (() => Promise<string | undefined>)
  /** A credential by name, e.g. `(name) => credentials.reveal(profile, name)`. */
  credential: (name: CredentialName) => Promise<string | null>
  redactor: Redactor
  transport?: TransportOptions | Transport
  history?: HistoryRecorder
  /** Fingerprints of state changes whose outcome is already unknown (e.g. from earlier CLI runs' history). */
  unknownOutcomes?: Iterable<string>
}

/** Every operation group (`area-list.ts`) over one transport, one redactor and one history. */
export function createClient(options: ClientOptions) {
  const transport =
    options.transport instanceof Transport
      ? options.transport
      : new Transport(options.redactor, options.transport)
  const urls = options.urls
  const ca = options.caCertificate
  const ctx: ClientContext = {
    urls: typeof urls === 'function' ? urls : async () => urls,
    caCertificate: typeof ca === 'function' ? ca : async () => ca,
    /** A group's own token, else the shared `token`; every value read is taught to the redactor. */
    async credential(group: Group) {
      for (const name of CREDENTIALS_BY_GROUP[group]) {
        const value = await options.credential(name)
        if (value) {
          options.redactor.remember(value)
          return value
        }
      }
      return null
    },
    transport,
    redactor: options.redactor,
    history: options.history,
    unknownOutcomes: new Set(options.unknownOutcomes ?? []),
  }
  const clients = Object.fromEntries(
    inAreaOrder<AreaOfClient>(AREAS).map(([name, area]) => [name, area.client(ctx)]),
  ) as AreaClients
  return { ...clients, transport }
}

type Areas = typeof AREAS
type AreaOfClient = Areas[keyof Areas]
/** Each group's client under its name (`client.places`, `client.routing`, …), from `area-list.ts`. */
type AreaClients = { readonly [K in keyof Areas]: ReturnType<Areas[K]['client']> }

export type Client = ReturnType<typeof createClient>

/**
 * The client over the app's own stores: the active (or named) profile's URLs, its keychain credentials,
 * and the request history in `<dataDir>/history/requests.jsonl`. What hosts wire into their handlers.
 */
export function clientForProfile(options: {
  settings: SettingsStore
  credentials: Credentials
  redactor: Redactor
  dataDir: string
  /** Defaults to the active profile at the time of each call. */
  profile?: string
  transport?: TransportOptions
}): Client {
  const profile = async () =>
    options.profile ? options.settings.profile(options.profile) : options.settings.activeProfile()
  return createClient({
    urls: async () => (await profile()).urls,
    caCertificate: async () => (await profile()).caCertificate,
    credential: async (name) => options.credentials.reveal((await profile()).name, name),
    redactor: options.redactor,
    transport: options.transport,
    history: new RequestHistory(options.dataDir, options.redactor),
  })
}
