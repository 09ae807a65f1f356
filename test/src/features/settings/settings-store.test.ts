import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import * as bridge from '../../../../src/bridge'
import { useMapStore } from '../../../../src/features/map/view/map-store'
import { SESSION_MEMORY_WARNING, useSettingsStore } from '../../../../src/features/settings/settings-store'
import { DEFAULT_XYZ_URL, geoError } from '@contract/index'
import type { FakeGeo } from '../../support/fake-geo'

vi.mock('../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake
const CANARY = 'canary-secret-6f1d2c'
const URLS = {
  atlas_url: 'https://atlas.example.test',
  advancedmaps_url: 'https://maps.example.test',
  mgis_url: 'https://gis.example.test/mgis',
  mgis_v2_url: 'https://gis.example.test/mgis/v2',
  telematics_url: 'https://fleet.example.test',
  aiml_url: 'https://ai.example.test',
}

describe('useSettingsStore', () => {
  beforeEach(() => {
    fake.reset()
    setActivePinia(createPinia())
  })

  it('loads profiles, the active profile and the active profile’s credential status', async () => {
    const store = useSettingsStore()
    expect(await store.load()).toBeNull()
    expect(store.activeProfile).toBe('Local')
    expect(store.profiles.map((p) => p.name)).toEqual(['Local'])
    expect(store.secrets?.profile).toBe('Local')
    expect(store.secrets?.credentials.every((c) => !c.set)).toBe(true)
    expect(fake.geo['secrets.status']).toHaveBeenCalledWith({ profile: 'Local' })
  })

  it('sends a credential to the host and keeps only its status, never the value', async () => {
    const store = useSettingsStore()
    await store.load()
    expect(await store.setSecret('token', CANARY)).toBeNull()
    expect(fake.geo['secrets.set']).toHaveBeenCalledWith({ profile: 'Local', name: 'token', value: CANARY })
    expect(fake.keychain.get('Local/token')).toBe(CANARY)
    expect(store.secrets?.credentials.find((c) => c.name === 'token')).toMatchObject({ set: true })
    expect(JSON.stringify(store.$state)).not.toContain(CANARY)

    expect(await store.clearSecret('token')).toBeNull()
    expect(fake.keychain.has('Local/token')).toBe(false)
    expect(store.secrets?.credentials.find((c) => c.name === 'token')?.set).toBe(false)
  })

  it('returns the host’s error as a value and leaves the status unchanged', async () => {
    const store = useSettingsStore()
    await store.load()
    fake.failNext('secrets.set', geoError('local-configuration', 'the keychain is locked'))
    const error = await store.setSecret('licence-key', CANARY)
    expect(error).toMatchObject({ failureClass: 'local-configuration', message: 'the keychain is locked' })
    expect(store.secrets?.credentials.find((c) => c.name === 'licence-key')?.set).toBe(false)
    expect(JSON.stringify(store.$state)).not.toContain(CANARY)
  })

  it('rejects a multi-line secret through the contract’s validation, naming the field', async () => {
    const store = useSettingsStore()
    await store.load()
    const error = await store.setSecret('token', 'line one\nline two')
    expect(error).toMatchObject({ failureClass: 'validation', field: 'value' })
    expect(fake.keychain.size).toBe(0)
  })

  it('saves and chooses a remote profile, then shows that profile’s credentials', async () => {
    const store = useSettingsStore()
    await store.load()
    expect(await store.saveProfile('Cloud', URLS)).toBeNull()
    fake.keychain.set('Cloud/token.gis', 'x')
    expect(await store.chooseProfile('Cloud')).toBeNull()
    expect(store.activeProfile).toBe('Cloud')
    await vi.waitFor(() => expect(store.secrets?.profile).toBe('Cloud'))
    expect(store.secrets?.credentials.find((c) => c.name === 'token.gis')?.set).toBe(true)

    expect(await store.deleteProfile('Cloud')).toBeNull()
    expect(store.profiles.map((p) => p.name)).toEqual(['Local'])
    expect(store.activeProfile).toBe('Local')
  })

  it('pushes the basemap preference into the map store', async () => {
    const store = useSettingsStore()
    const map = useMapStore()
    await store.load()
    expect(map.basemap.kind).toBe('offline')
    const xyzUrl = 'https://tiles.example.test/{z}/{x}/{y}.png'
    expect(await store.savePreferences({ basemap: { kind: 'xyz', xyzUrl } })).toBeNull()
    expect(map.basemap).toEqual({ kind: 'xyz', xyzUrl })
  })

  it('reports a keychain that forgets on exit as a notice', async () => {
    fake.state.store = 'session-memory'
    fake.state.warning = 'Secret Service did not answer.'
    const store = useSettingsStore()
    await store.load()
    expect(store.sessionOnlySecrets).toBe(true)
    expect(store.notices).toEqual(['Secret Service did not answer.'])
    fake.state.warning = ''
    await store.refreshSecrets()
    expect(store.notices).toEqual([SESSION_MEMORY_WARNING])
  })

  it('asks for a reload when the tile server changed: the page’s policy names the one it loaded with', async () => {
    const store = useSettingsStore()
    await store.load()
    expect(store.notices).toEqual([])
    await store.savePreferences({ basemap: { kind: 'xyz', xyzUrl: DEFAULT_XYZ_URL } })
    expect(store.notices).toEqual([])
    await store.savePreferences({
      basemap: { kind: 'xyz', xyzUrl: 'https://{a-b}.tiles.example.test/{z}/{x}/{y}.png' },
    })
    expect(store.notices).toEqual([
      'Reload the window (Ctrl+R or F5) to load tiles from https://a.tiles.example.test and https://b.tiles.example.test: the page allows images only from the tile server it was opened with.',
    ])
    await store.savePreferences({
      basemap: { kind: 'offline', xyzUrl: 'https://{a-b}.tiles.example.test/{z}/{x}/{y}.png' },
    })
    expect(store.notices).toEqual([])
  })

  it('reports a keychain that cannot be used now (locked, or without a keyring) as a notice', async () => {
    fake.state.store = 'keychain'
    fake.state.warning = 'The OS keychain’s default keyring is locked. Unlock it and try again.'
    const store = useSettingsStore()
    await store.load()
    expect(store.sessionOnlySecrets).toBe(false)
    expect(store.notices).toEqual(['The OS keychain’s default keyring is locked. Unlock it and try again.'])
    fake.state.warning = ''
    await store.refreshSecrets()
    expect(store.notices).toEqual([])
  })

  it('follows changes announced by the host and ignores other profiles’ credentials', async () => {
    const store = useSettingsStore()
    await store.load()
    const stop = store.listen()
    fake.emit('secrets.changed', {
      profile: 'Elsewhere',
      store: 'keychain',
      credentials: [{ name: 'token', set: true }],
    })
    expect(store.secrets?.credentials.find((c) => c.name === 'token')?.set).toBe(false)
    fake.emit('settings.changed', {
      ...fake.state.view,
      notice: 'settings.json was unreadable and was moved aside',
    })
    expect(store.notices).toContain('settings.json was unreadable and was moved aside')
    stop()
  })

  it('keeps the load error for the app banner', async () => {
    fake.failNext('settings.get', geoError('authentication', 'the browser host refused this page'))
    const store = useSettingsStore()
    const error = await store.load()
    expect(error?.failureClass).toBe('authentication')
    expect(store.loadError).toEqual(error)
  })
})
