import { LOCAL_PROFILE } from '../../contract'
import { appOperations } from '../../contract/app/operations'
import type { CoreContext, HandlerRegistry } from '../area'
import type { SettingsStore } from '../settings/settings-store'

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
  })
}
