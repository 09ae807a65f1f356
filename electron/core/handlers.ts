import type { z } from 'zod'
import {
  LOCAL_PROFILE,
  type AppInfo,
  type OperationName,
  type OperationResponse,
  type Operations,
} from '../contract'
import type { EventBus } from './events'
import type { Credentials } from './secrets/credentials'
import type { SettingsStore } from './settings/settings-store'

export interface CoreServices {
  settings: SettingsStore
  credentials: Credentials
  events: EventBus
  info: () => AppInfo
}

/** A handler receives the already-validated request and returns the response or throws a GeoFailure. */
export type Handlers = {
  [K in OperationName]: (request: z.output<Operations[K]['request']>) => Promise<OperationResponse<K>>
}

/** The handlers of every operation in the table, over the core services. Hosts only register these. */
export function createHandlers(services: CoreServices): Handlers {
  const { settings, credentials, events } = services

  async function profileOrActive(name: string | undefined): Promise<string> {
    if (name) return (await settings.profile(name)).name
    return (await settings.view()).activeProfile
  }

  async function settingsChanged<T extends Awaited<ReturnType<SettingsStore['view']>>>(view: T): Promise<T> {
    events.emit('settings.changed', view)
    return view
  }

  return {
    'app.info': async () => services.info(),
    'settings.get': () => settings.view(),
    'settings.chooseProfile': async ({ name }) => settingsChanged(await settings.chooseProfile(name)),
    'settings.saveProfile': async ({ name, urls }) => settingsChanged(await settings.saveProfile(name, urls)),
    'settings.deleteProfile': async ({ name }) => {
      const view = await settings.deleteProfile(name)
      if (name !== LOCAL_PROFILE) await credentials.clearProfile(name)
      return settingsChanged(view)
    },
    'settings.savePreferences': async (preferences) =>
      settingsChanged(await settings.savePreferences(preferences)),
    'secrets.status': async ({ profile }) => credentials.status(await profileOrActive(profile)),
    'secrets.set': async ({ profile, name, value }) => {
      const status = await credentials.set(await profileOrActive(profile), name, value)
      events.emit('secrets.changed', status)
      return status
    },
    'secrets.clear': async ({ profile, name }) => {
      const status = await credentials.clear(await profileOrActive(profile), name)
      events.emit('secrets.changed', status)
      return status
    },
  }
}
