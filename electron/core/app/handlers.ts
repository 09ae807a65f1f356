import { LOCAL_PROFILE } from '../../contract'
import { GeoFailure } from '../../base/geo-failure'
import { appOperations } from '../../contract/app/operations'
import type { CoreContext, HandlerRegistry } from '../area'
import type { SettingsStore } from '../settings/settings-store'
import { testConnection } from './test-connection'

/** The app's own operations: info, connection profiles, preferences and credentials. */
export function registerAppHandlers(registry: HandlerRegistry, core: CoreContext): void {
  const { settings, credentials, events } = core

  async function profileOrActive(name: string | undefined): Promise<string> {
    if (name) return (await settings.profile(name)).name
    return (await settings.view()).activeProfile
  }

  async function settingsChanged<T extends Awaited<ReturnType<SettingsStore['view']>>>(view: T): Promise<T> {
    events.emit('settings.changed', view)
    return view
  }

  registry.add(appOperations, {
    'app.info': async () => core.info(),
    'settings.get': () => settings.view(),
    'settings.chooseProfile': async ({ name }) => settingsChanged(await settings.chooseProfile(name)),
    'settings.saveProfile': async ({ name, urls, caCertificate }) =>
      settingsChanged(await settings.saveProfile(name, urls, caCertificate)),
    'settings.savePostgisProfile': async ({ name, postgis }) =>
      settingsChanged(await settings.savePostgisProfile(name, postgis)),
    'settings.testConnection': async ({ name }) => testConnection(core, name),
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
    'secrets.databasePassword': async ({ profile }) =>
      credentials.databasePasswordStatus((await settings.profile(profile)).name),
    'secrets.setDatabasePassword': async ({ profile, value }) => {
      const found = await settings.profile(profile)
      if (found.kind !== 'postgis')
        throw new GeoFailure(
          'validation',
          `"${found.name}" is not a PostGIS workspace profile: only those keep a database password`,
          { field: 'profile' },
        )
      return credentials.setDatabasePassword(found.name, value)
    },
    'secrets.clearDatabasePassword': async ({ profile }) =>
      credentials.clearDatabasePassword((await settings.profile(profile)).name),
  })
}
