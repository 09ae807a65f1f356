import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia, type Pinia } from 'pinia'
import PrimeVue from 'primevue/config'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import * as bridge from '../../../../src/bridge'
import AppToolbar from '../../../../src/features/shell/AppToolbar.vue'
import { useSettingsStore } from '../../../../src/features/settings/settings-store'
import { BASE_URL_KEYS } from '@contract/index'
import type { FakeGeo } from '../../support/fake-geo'
import { getByRole } from '../../support/query'

vi.mock('../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake
let pinia: Pinia

async function mountToolbar() {
  await useSettingsStore().load()
  const wrapper = mount(AppToolbar, {
    attachTo: document.body,
    props: { sidePanelOpen: true, bottomPanelOpen: false },
    global: { plugins: [pinia, [PrimeVue, { unstyled: true }]] },
  })
  await flushPromises()
  return wrapper
}

describe('AppToolbar', () => {
  beforeEach(() => {
    fake.reset()
    fake.state.view.profiles.push({
      name: 'Cloud',
      builtIn: false,
      urls: Object.fromEntries(BASE_URL_KEYS.map((k) => [k, 'https://cloud.example.test'])) as never,
    })
    pinia = createPinia()
    setActivePinia(pinia)
  })
  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('names the app and offers Settings, Side panel and Results panel buttons', async () => {
    const wrapper = await mountToolbar()
    getByRole(document.body, 'heading', 'Geo Analyst')
    getByRole(document.body, 'button', 'Settings').click()
    expect(wrapper.emitted('openSettings')).toHaveLength(1)
    const side = getByRole(document.body, 'button', 'Side panel')
    expect(side.getAttribute('aria-expanded')).toBe('true')
    expect(side.getAttribute('aria-controls')).toBe('side-panel')
    side.click()
    expect(wrapper.emitted('toggleSidePanel')).toHaveLength(1)
    expect(getByRole(document.body, 'button', 'Results panel').getAttribute('aria-expanded')).toBe('false')
  })

  it('switches the active profile from the "Active profile" selector', async () => {
    await mountToolbar()
    const select = getByRole<HTMLSelectElement>(document.body, 'combobox', 'Active profile')
    expect([...select.options].map((o) => o.value)).toEqual(['Local', 'Cloud'])
    expect(select.value).toBe('Local')
    select.value = 'Cloud'
    select.dispatchEvent(new Event('change'))
    await flushPromises()
    expect(fake.geo['settings.chooseProfile']).toHaveBeenCalledWith({ name: 'Cloud' })
    expect(useSettingsStore().activeProfile).toBe('Cloud')
  })
})
