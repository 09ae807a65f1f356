import { defineStore } from 'pinia'
import { keychainNotice, plainNotice, type PlainNotice } from './notices'
import { computed, ref } from 'vue'
import { geo, geoEvents } from '../../bridge'
import {
  LOCAL_PROFILE,
  tileSources,
  type BaseUrls,
  type CredentialName,
  type GeoError,
  type PostgisFields,
  type Preferences,
  type Result,
  type SecretsStatus,
  type SettingsView,
} from '@contract/index'
import type { TestConnectionAnswer } from '@contract/app/postgis'
import { useMapStore } from '../map/view/map-store'

/**
 * Profiles, the active profile, preferences and the credentials' status, as the host reports them.
 * Credential values pass through `setSecret` to the bridge and are never kept here.
 * Every action answers with the bridge's error (or null) so the screen can show it next to the control.
 */
export const useSettingsStore = defineStore('settings', () => {
  const mapStore = useMapStore()
  const view = ref<SettingsView | null>(null)
  const secrets = ref<SecretsStatus | null>(null)
  const loadError = ref<GeoError | null>(null)
  /** The tile servers of the settings when the page loaded: its security policy allows images from these only. */
  let loadedTileSources: string[] | null = null

  const profiles = computed(() => view.value?.profiles ?? [])
  const activeProfile = computed(() => view.value?.activeProfile ?? LOCAL_PROFILE)
  const preferences = computed(() => view.value?.preferences ?? null)
  const sessionOnlySecrets = computed(() => secrets.value?.store === 'session-memory')
  /** Tile servers chosen since the page loaded, whose images its policy still refuses. */
  const blockedTileSources = computed(() => {
    const basemap = view.value?.preferences.basemap
    if (!basemap || basemap.kind !== 'xyz' || !loadedTileSources) return []
    return tileSources(basemap.xyzUrl).filter((source) => !loadedTileSources?.includes(source))
  })
  /** Things the user must know about, shown in the app's banner. */
  const notices = computed(() => {
    const list: string[] = []
    if (view.value?.notice) list.push(view.value.notice)
    if (blockedTileSources.value.length > 0) {
      const sources = blockedTileSources.value
      const named =
        sources.length === 1 ? sources[0] : `${sources.slice(0, -1).join(', ')} and ${sources.at(-1)}`
      list.push(
        `Reload the window (Ctrl+R or F5) to load tiles from ${named}: the page allows images only from the tile server it was opened with.`,
      )
    }
    if (sessionOnlySecrets.value) list.push(sessionMemoryText(secrets.value?.warning))
    // A keychain that is there but cannot be used now (locked, or without a keyring), with what to do.
    else if (secrets.value?.warning) list.push(secrets.value.warning)
    return list
  })
  /** The same in plain words, with what to do and the technical detail apart. */
  const plainNotices = computed<PlainNotice[]>(() => [
    ...(view.value?.notice ? [plainNotice(view.value.notice)] : []),
    ...(sessionOnlySecrets.value ? [keychainNotice(secrets.value?.warning)] : []),
  ])

  function applyView(next: SettingsView): void {
    loadedTileSources ??= tileSources(next.preferences.basemap.xyzUrl)
    const profileChanged = view.value !== null && view.value.activeProfile !== next.activeProfile
    view.value = next
    mapStore.setBasemap(next.preferences.basemap)
    if (profileChanged) void refreshSecrets()
  }

  function applySecrets(next: SecretsStatus): void {
    // Events may report another profile's credentials; show only the active profile's.
    if (next.profile === activeProfile.value) secrets.value = next
  }

  async function settle<T>(call: Promise<Result<T>>, apply: (value: T) => void): Promise<GeoError | null> {
    const result = await call
    if (!result.ok) return result.error
    apply(result.value)
    return null
  }

  async function load(): Promise<GeoError | null> {
    loadError.value = await settle(geo['settings.get']({}), applyView)
    if (loadError.value) return loadError.value
    loadError.value = await refreshSecrets()
    return loadError.value
  }

  function refreshSecrets(): Promise<GeoError | null> {
    return settle(geo['secrets.status']({ profile: activeProfile.value }), (value) => (secrets.value = value))
  }

  function chooseProfile(name: string): Promise<GeoError | null> {
    return settle(geo['settings.chooseProfile']({ name }), applyView)
  }

  /** `caCertificate`: the server's CA (PEM, public), trusted for this profile's requests only. */
  function saveProfile(name: string, urls: BaseUrls, caCertificate?: string): Promise<GeoError | null> {
    return settle(
      geo['settings.saveProfile']({ name, urls, ...(caCertificate ? { caCertificate } : {}) }),
      applyView,
    )
  }

  function savePostgisProfile(name: string, postgis: PostgisFields): Promise<GeoError | null> {
    return settle(geo['settings.savePostgisProfile']({ name, postgis }), applyView)
  }

  /** Sends a PostGIS workspace profile's password to the host's keychain; nothing of it is kept here. */
  async function setDatabasePassword(profile: string, value: string): Promise<GeoError | null> {
    const result = await geo['secrets.setDatabasePassword']({ profile, value })
    return result.ok ? null : result.error
  }

  /** "Test connection" of a PostGIS workspace profile: what was found, or the problem in plain words. */
  function testConnection(name: string): Promise<Result<TestConnectionAnswer>> {
    return geo['settings.testConnection']({ name })
  }

  function deleteProfile(name: string): Promise<GeoError | null> {
    return settle(geo['settings.deleteProfile']({ name }), applyView)
  }

  function savePreferences(next: Preferences): Promise<GeoError | null> {
    return settle(geo['settings.savePreferences'](next), applyView)
  }

  /** Sends the value to the host's secret store; only the returned status is kept. */
  function setSecret(name: CredentialName, value: string): Promise<GeoError | null> {
    return settle(geo['secrets.set']({ profile: activeProfile.value, name, value }), applySecrets)
  }

  function clearSecret(name: CredentialName): Promise<GeoError | null> {
    return settle(geo['secrets.clear']({ profile: activeProfile.value, name }), applySecrets)
  }

  /** Follow changes made elsewhere (the CLI, another window); returns the unsubscribe function. */
  function listen(): () => void {
    const offSettings = geoEvents.on('settings.changed', applyView)
    const offSecrets = geoEvents.on('secrets.changed', applySecrets)
    return () => {
      offSettings()
      offSecrets()
    }
  }

  return {
    view,
    secrets,
    loadError,
    profiles,
    activeProfile,
    preferences,
    sessionOnlySecrets,
    notices,
    plainNotices,
    load,
    refreshSecrets,
    chooseProfile,
    saveProfile,
    savePostgisProfile,
    setDatabasePassword,
    testConnection,
    deleteProfile,
    savePreferences,
    setSecret,
    clearSecret,
    listen,
  }
})

export const SESSION_MEMORY_WARNING =
  'No keychain answered: credentials are kept in memory for this session only and are forgotten when the app closes.'

/** The host's session-memory warning (it says why), or a generic one when it gave none. */
export function sessionMemoryText(hostWarning: string | undefined): string {
  return hostWarning?.trim() ? hostWarning : SESSION_MEMORY_WARNING
}
