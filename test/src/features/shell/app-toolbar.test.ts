import { screen, waitFor, within } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { h } from 'vue'
import { BASE_URL_KEYS } from '@contract/index'
import * as bridge from '../../../../src/bridge'
import AppToolbar from '../../../../src/features/shell/AppToolbar.vue'
import { defineArea } from '../../../../src/features/shell/shell'
import { useShellStore } from '../../../../src/features/shell/shell-store'
import { useSettingsStore } from '../../../../src/features/settings/settings-store'
import type { FakeGeo } from '../../support/fake-geo'
import { createTestApp, renderInApp } from '../../support/render'

vi.mock('../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake
const user = userEvent.setup()
const ran: string[] = []
const COMMANDS_AREA = defineArea({
  id: 'test',
  title: 'Test area',
  icon: 'M0 0h24v24H0z',
  commands: [
    { id: 'test.first', label: 'First command', run: () => void ran.push('first') },
    { id: 'test.off', label: 'Unavailable command', run: () => void ran.push('off'), enabled: () => false },
    { id: 'test.last', label: 'Last command', run: () => void ran.push('last') },
  ],
  bottomPanels: [{ id: 'test.table', title: 'Table', component: () => h('p', 'A table') }],
})
/** An area with nothing to show in the bottom panel. */
const PLAIN_AREA = defineArea({ id: 'plain', title: 'Plain area', icon: 'M0 0h24v24H0z', order: 5 })

async function renderToolbar() {
  const app = createTestApp([COMMANDS_AREA, PLAIN_AREA])
  useShellStore().chooseArea('test')
  await useSettingsStore().load()
  return renderInApp(AppToolbar, { app })
}

describe('AppToolbar', () => {
  beforeEach(() => {
    fake.reset()
    ran.length = 0
    localStorage.clear()
    fake.state.view.profiles.push({
      name: 'Cloud',
      builtIn: false,
      urls: Object.fromEntries(BASE_URL_KEYS.map((k) => [k, 'https://cloud.example.test'])) as never,
    })
  })

  it('names the app and toggles the side and bottom panels, saying whether each is open', async () => {
    await renderToolbar()
    screen.getByRole('heading', { name: 'Geo Analyst' })
    const side = screen.getByRole('button', { name: 'Side panel' })
    expect(side.getAttribute('aria-expanded')).toBe('true')
    expect(side.getAttribute('aria-controls')).toBe('side-panel')
    await user.click(side)
    expect(side.getAttribute('aria-expanded')).toBe('false')
    expect(useShellStore().sideOpen).toBe(false)
    const bottom = screen.getByRole('button', { name: 'Bottom panel' })
    expect(bottom.getAttribute('aria-controls')).toBe('bottom-panel')
    await user.click(bottom)
    expect(useShellStore().bottomOpen).toBe(false)
  })

  it('offers no bottom panel toggle in an area with no bottom tab: the region is folded', async () => {
    await renderToolbar()
    const bottom = screen.getByRole<HTMLButtonElement>('button', { name: 'Bottom panel' })
    expect([bottom.disabled, bottom.getAttribute('aria-expanded')]).toEqual([false, 'true'])
    useShellStore().chooseArea('plain')
    await waitFor(() => expect(bottom.disabled).toBe(true))
    expect(bottom.getAttribute('aria-expanded')).toBe('false')
    // The choice is kept for the areas that have tabs.
    expect(useShellStore().bottomOpen).toBe(true)
  })

  it('opens Settings through the shell', async () => {
    await renderToolbar()
    await user.click(screen.getByRole('button', { name: 'Settings' }))
    expect(useShellStore().settingsOpen).toBe(true)
  })

  it('switches the active profile from the "Active profile" selector', async () => {
    await renderToolbar()
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Active profile' })
    expect([...select.options].map((o) => o.value)).toEqual(['Local', 'Cloud'])
    expect(select.value).toBe('Local')
    await user.selectOptions(select, 'Cloud')
    expect(fake.geo['settings.chooseProfile']).toHaveBeenCalledWith({ name: 'Cloud' })
    await waitFor(() => expect(useSettingsStore().activeProfile).toBe('Cloud'))
  })

  it('shows the areas’ commands as a toolbar: one tab stop, arrow keys past a disabled one, click runs', async () => {
    await renderToolbar()
    const commands = within(screen.getByRole('toolbar', { name: 'Commands' }))
    const first = commands.getByRole('button', { name: 'First command' })
    const off = commands.getByRole<HTMLButtonElement>('button', { name: 'Unavailable command' })
    const last = commands.getByRole('button', { name: 'Last command' })
    expect(off.disabled).toBe(true)
    expect([first, off, last].map((b) => b.tabIndex)).toEqual([0, -1, -1])
    first.focus()
    await user.keyboard('{ArrowRight}')
    expect(document.activeElement).toBe(last)
    await user.keyboard('{ArrowRight}')
    expect(document.activeElement).toBe(first)
    await user.keyboard('{End}{Enter}')
    expect(ran).toEqual(['last'])
    expect(last.tabIndex).toBe(0)
  })
})
