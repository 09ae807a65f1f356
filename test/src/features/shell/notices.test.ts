import { screen, waitFor, within } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import * as bridge from '../../../../src/bridge'
import { keychainNotice } from '../../../../src/features/settings/notices'
import { useSettingsStore } from '../../../../src/features/settings/settings-store'
import { NOTICES_ASIDE_KEY } from '../../../../src/features/shell/notices-store'
import ShellNotices from '../../../../src/features/shell/ShellNotices.vue'
import StatusBar from '../../../../src/features/shell/StatusBar.vue'
import type { FakeGeo } from '../../support/fake-geo'
import { renderInApp } from '../../support/render'

vi.mock('../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../support/fake-geo')
  const fake = createFakeGeo()
  const eventsConnection = { state: 'connected', reason: '', subscribe: () => () => {}, retry: () => {} }
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake, eventsConnection }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake
const user = userEvent.setup()
const KEYCHAIN = keychainNotice(undefined).message

/** The banner and the status bar, as the app lays them out, with no keychain answering. */
async function renderShell() {
  fake.state.store = 'session-memory'
  fake.state.warning = 'zbus error: Failed to connect to address unix:path=/run/user/0/bus'
  const Frame = defineComponent({
    setup: () => () => h('div', [h(ShellNotices), h(StatusBar, { appInfo: 'Geo Analyst test' })]),
  })
  const rendered = renderInApp(Frame)
  await useSettingsStore().load()
  return rendered
}

const statusBar = () => screen.getByRole('contentinfo', { name: 'Status bar' })

describe('notices', () => {
  beforeEach(() => {
    fake.reset()
    sessionStorage.clear()
  })

  it('sets the keychain notice aside for the session: it waits in the status bar, named by its text', async () => {
    await renderShell()
    const banner = await screen.findByRole('status')
    expect(banner.textContent).toContain(KEYCHAIN)
    expect(within(statusBar()).queryAllByRole('button')).toHaveLength(0)

    await user.click(within(banner).getByRole('button', { name: 'Set aside', description: KEYCHAIN }))
    await waitFor(() => expect(screen.queryByText(KEYCHAIN, { selector: 'p' })).toBeNull())
    // In the status bar: an icon whose accessible name is the notice's text; focus went with it.
    const icon = within(statusBar()).getByRole('button', { name: KEYCHAIN })
    expect(document.activeElement).toBe(icon)
    expect(JSON.parse(sessionStorage.getItem(NOTICES_ASIDE_KEY) ?? '[]')).toEqual([KEYCHAIN])
    // Its tooltip says the same text.
    await user.hover(icon)
    expect((await screen.findByRole('tooltip')).textContent).toContain(KEYCHAIN)

    await user.click(icon)
    const back = await screen.findByRole('status')
    expect(back.textContent).toContain(KEYCHAIN)
    expect(within(statusBar()).queryByRole('button', { name: KEYCHAIN })).toBeNull()
    expect(document.activeElement).toBe(within(back).getByRole('button', { name: 'Set aside' }))
  })

  it('keeps a notice aside across a reload of the window (same session)', async () => {
    sessionStorage.setItem(NOTICES_ASIDE_KEY, JSON.stringify([KEYCHAIN]))
    await renderShell()
    await within(statusBar()).findByRole('button', { name: KEYCHAIN })
    expect(screen.queryByText(KEYCHAIN, { selector: 'p' })).toBeNull()
  })
})
