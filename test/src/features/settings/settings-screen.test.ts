import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia, type Pinia } from 'pinia'
import PrimeVue from 'primevue/config'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import * as bridge from '../../../../src/bridge'
import SettingsPanel from '../../../../src/features/settings/SettingsPanel.vue'
import SettingsDialog from '../../../../src/features/settings/SettingsDialog.vue'
import { useSettingsStore } from '../../../../src/features/settings/settings-store'
import {
  BASE_URL_KEYS,
  CREDENTIAL_LABELS,
  CREDENTIAL_NAMES,
  NEXT_STEP_BY_CLASS,
  geoError,
} from '@contract/index'
import type { FakeGeo } from '../../support/fake-geo'
import { getByRole, getInputByLabel, queryAllByRole } from '../../support/query'

vi.mock('../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake
const CANARY = 'canary-7c4e9a-never-shown'
let pinia: Pinia

async function mountPanel() {
  await useSettingsStore().load()
  const wrapper = mount(SettingsPanel, {
    attachTo: document.body,
    global: { plugins: [pinia, [PrimeVue, { unstyled: true }]] },
  })
  await flushPromises()
  return wrapper
}

async function type(input: HTMLInputElement, value: string) {
  input.value = value
  input.dispatchEvent(new Event('input'))
  await flushPromises()
}

async function click(element: HTMLElement) {
  element.click()
  await flushPromises()
}

describe('Settings screen', () => {
  beforeEach(() => {
    fake.reset()
    pinia = createPinia()
    setActivePinia(pinia)
  })
  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('saves a credential through secrets.set, empties the input and shows the status, never the value', async () => {
    const wrapper = await mountPanel()
    const input = getInputByLabel(document.body, CREDENTIAL_LABELS.token)
    expect(input.type).toBe('password')
    await type(input, CANARY)
    await click(getByRole(document.body, 'button', 'Save Bearer token (all groups)'))

    expect(fake.geo['secrets.set']).toHaveBeenCalledWith({ profile: 'Local', name: 'token', value: CANARY })
    expect(input.value).toBe('')
    const status = document.getElementById(input.getAttribute('aria-describedby') ?? '')
    expect(status?.textContent).toBe('Set (2026-11-22 10:15 UTC)')
    expect(document.body.innerHTML).not.toContain(CANARY)
    expect(JSON.stringify(pinia.state.value)).not.toContain(CANARY)
    wrapper.unmount()
  })

  it('offers Save and Clear for every credential, each with its own name and status', async () => {
    fake.keychain.set('Local/licence-key', 'k')
    await mountPanel()
    for (const name of CREDENTIAL_NAMES) {
      const label = CREDENTIAL_LABELS[name]
      const input = getInputByLabel(document.body, label)
      expect(input.type).toBe('password')
      getByRole(document.body, 'button', `Save ${label}`)
      const clear = getByRole<HTMLButtonElement>(document.body, 'button', `Clear ${label}`)
      expect(clear.disabled).toBe(name !== 'licence-key')
      const status = document.getElementById(input.getAttribute('aria-describedby') ?? '')
      expect(status?.textContent).toBe(name === 'licence-key' ? 'Set' : 'Not set')
    }
    await click(getByRole(document.body, 'button', `Clear ${CREDENTIAL_LABELS['licence-key']}`))
    expect(fake.keychain.has('Local/licence-key')).toBe(false)
    expect(fake.geo['secrets.clear']).toHaveBeenCalledWith({ profile: 'Local', name: 'licence-key' })
  })

  it('shows the host’s error inline with the next step of its failure class', async () => {
    await mountPanel()
    fake.failNext('secrets.set', geoError('local-configuration', 'The keychain is locked.'))
    const label = CREDENTIAL_LABELS['token.gis']
    await type(getInputByLabel(document.body, label), CANARY)
    await click(getByRole(document.body, 'button', `Save ${label}`))
    const alerts = queryAllByRole(document.body, 'alert', /The keychain is locked\./)
    expect(alerts).toHaveLength(1)
    expect(alerts[0]?.textContent).toContain(NEXT_STEP_BY_CLASS['local-configuration'])
  })

  it('warns prominently when credentials live only in this session’s memory', async () => {
    fake.state.store = 'session-memory'
    await mountPanel()
    const alerts = queryAllByRole(document.body, 'alert', /memory for this session only/)
    expect(alerts).toHaveLength(1)
  })

  it('shows the built-in Local profile as active and read-only', async () => {
    await mountPanel()
    const list = getByRole(document.body, 'list', 'Profiles')
    const local = list.querySelector('li')
    expect(local?.getAttribute('aria-current')).toBe('true')
    expect(local?.textContent).toContain('Built-in, read-only')
    expect(queryAllByRole(document.body, 'button', /^(Edit|Delete) Local$/)).toHaveLength(0)
  })

  it('creates a remote profile from the six spec placeholders, then makes it active', async () => {
    await mountPanel()
    await click(getByRole(document.body, 'button', 'New profile'))
    await type(getInputByLabel(document.body, 'Profile name'), 'Cloud')
    for (const key of BASE_URL_KEYS) {
      await type(getInputByLabel(document.body, key), `https://${key.replace(/_/g, '-')}.example.test`)
    }
    await click(getByRole(document.body, 'button', 'Save profile'))
    expect(fake.state.view.profiles.find((p) => p.name === 'Cloud')?.urls?.mgis_v2_url).toBe(
      'https://mgis-v2-url.example.test',
    )
    await click(getByRole(document.body, 'button', 'Use Cloud'))
    expect(fake.state.view.activeProfile).toBe('Cloud')
    const cloud = [...document.querySelectorAll('li')].find((li) => li.textContent?.includes('Cloud'))
    expect(cloud?.getAttribute('aria-current')).toBe('true')
    getByRole(document.body, 'heading', 'Credentials of profile “Cloud”')
  })

  it('names the invalid URL field next to it and does not call the host', async () => {
    await mountPanel()
    await click(getByRole(document.body, 'button', 'New profile'))
    await type(getInputByLabel(document.body, 'Profile name'), 'Cloud')
    for (const key of BASE_URL_KEYS)
      await type(getInputByLabel(document.body, key), 'https://ok.example.test')
    const atlas = getInputByLabel(document.body, 'telematics_url')
    await type(atlas, 'ftp://fleet.example.test')
    await click(getByRole(document.body, 'button', 'Save profile'))
    expect(fake.geo['settings.saveProfile']).not.toHaveBeenCalled()
    expect(atlas.getAttribute('aria-invalid')).toBe('true')
    const message = document.getElementById(atlas.getAttribute('aria-describedby') ?? '')
    expect(message?.textContent).toContain('must be an absolute http(s) URL')
  })

  it('deletes a remote profile after confirmation', async () => {
    fake.state.view.profiles.push({
      name: 'Old',
      builtIn: false,
      urls: Object.fromEntries(BASE_URL_KEYS.map((k) => [k, 'https://old.example.test'])) as never,
    })
    await mountPanel()
    await click(getByRole(document.body, 'button', 'Delete Old'))
    expect(fake.geo['settings.deleteProfile']).not.toHaveBeenCalled()
    await click(getByRole(document.body, 'button', 'Confirm delete Old'))
    expect(fake.state.view.profiles.map((p) => p.name)).toEqual(['Local'])
    expect(queryAllByRole(document.body, 'button', /Old/)).toHaveLength(0)
  })

  it('switches the basemap to online XYZ tiles with a custom URL', async () => {
    await mountPanel()
    const online = getInputByLabel(document.body, 'Online: XYZ tiles (needs network)')
    online.click()
    await flushPromises()
    await type(
      getInputByLabel(document.body, 'XYZ tile URL template'),
      'https://t.example.test/{z}/{x}/{y}.png',
    )
    await click(getByRole(document.body, 'button', 'Save basemap'))
    expect(fake.state.view.preferences.basemap).toEqual({
      kind: 'xyz',
      xyzUrl: 'https://t.example.test/{z}/{x}/{y}.png',
    })
    await type(getInputByLabel(document.body, 'XYZ tile URL template'), 'https://t.example.test/tile.png')
    await click(getByRole(document.body, 'button', 'Save basemap'))
    expect(queryAllByRole(document.body, 'alert', /\{x\}, \{y\} and \{z\}/)).toHaveLength(1)
  })

  it('opens as a dialog named and headed “Settings”', async () => {
    await useSettingsStore().load()
    mount(SettingsDialog, {
      attachTo: document.body,
      props: { visible: true },
      global: { plugins: [pinia, [PrimeVue, { unstyled: true }]] },
    })
    await flushPromises()
    const dialog = getByRole(document.body, 'dialog', 'Settings')
    expect(dialog.getAttribute('aria-modal')).toBe('true')
    getByRole(dialog, 'heading', 'Settings')
  })
})
