import { screen, waitFor, within } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { h } from 'vue'
import ActivityBar from '../../../../src/features/shell/ActivityBar.vue'
import BottomPanels from '../../../../src/features/shell/BottomPanels.vue'
import SidePanels from '../../../../src/features/shell/SidePanels.vue'
import { lazyPanel } from '../../../../src/features/shell/lazy'
import { defineArea } from '../../../../src/features/shell/shell'
import { useShellStore } from '../../../../src/features/shell/shell-store'
import { createTestApp, renderInApp } from '../../support/render'

const user = userEvent.setup()

/** A panel that is a small form, so a test can see whether its typed state survives a tab switch. */
const panel = (id: string, title: string, order?: number) => ({
  id,
  title,
  ...(order === undefined ? {} : { order }),
  component: () =>
    h('section', { 'aria-label': title }, [h('label', {}, [`${title} note `, h('input', { type: 'text' })])]),
})

const AREAS = [
  defineArea({
    id: 'gis',
    title: 'Spatial analytics',
    icon: 'M3 5h10v10H3z',
    order: 40,
    sidePanels: [panel('gis.datasets', 'Datasets'), panel('gis.join', 'Spatial join')],
    bottomPanels: [panel('gis.results', 'Results'), panel('gis.history', 'Run history')],
  }),
  defineArea({
    id: 'places',
    title: 'Places',
    icon: 'M12 2v20',
    order: 10,
    sidePanels: [panel('places.search', 'Place search')],
    bottomPanels: [
      panel('places.list', 'Places list', 5),
      {
        id: 'places.lazy',
        title: 'Lazy',
        order: 6,
        component: lazyPanel(() => Promise.reject(new Error('chunk missing'))),
      },
    ],
  }),
]

const Layout = () => [h(ActivityBar), h(SidePanels), h(BottomPanels)]

function renderLayout() {
  return renderInApp(Layout, { app: createTestApp(AREAS) })
}

describe('the shell’s regions', () => {
  beforeEach(() => localStorage.clear())

  it('has one activity bar tab per area, in order, and shows the chosen area’s side panels', async () => {
    renderLayout()
    const tabs = within(screen.getByRole('tablist', { name: 'Areas' })).getAllByRole('tab')
    expect(tabs.map((t) => t.textContent?.trim())).toEqual(['Places', 'Spatial analytics'])
    expect(tabs.map((t) => t.getAttribute('aria-selected'))).toEqual(['true', 'false'])
    screen.getByRole('region', { name: 'Place search' })
    const side = screen.getByRole('tabpanel', { name: 'Places' })
    expect(side.id).toBe('side-panel')

    await user.click(screen.getByRole('tab', { name: 'Spatial analytics' }))
    expect(screen.queryByRole('region', { name: 'Place search' })).toBeNull()
    const panels = within(screen.getByRole('tabpanel', { name: 'Spatial analytics' }))
    // Side panels keep their order, so Tab goes through them as they are drawn.
    expect(panels.getAllByRole('region').map((r) => r.getAttribute('aria-label'))).toEqual([
      'Datasets',
      'Spatial join',
    ])
  })

  it('moves between areas with the arrow keys, one tab stop, and folds the side panel on the open area', async () => {
    renderLayout()
    const places = screen.getByRole('tab', { name: 'Places' })
    const gis = screen.getByRole('tab', { name: 'Spatial analytics' })
    expect([places.tabIndex, gis.tabIndex]).toEqual([0, -1])
    places.focus()
    await user.keyboard('{ArrowDown}')
    expect(document.activeElement).toBe(gis)
    expect(gis.getAttribute('aria-selected')).toBe('true')
    expect([places.tabIndex, gis.tabIndex]).toEqual([-1, 0])
    await user.keyboard('{ArrowDown}')
    expect(document.activeElement).toBe(places)
    await user.keyboard('{End}')
    expect(document.activeElement).toBe(gis)
    await user.keyboard('{Enter}')
    expect(useShellStore().sideOpen).toBe(false)
    expect(gis.getAttribute('aria-expanded')).toBe('false')
    await user.keyboard('{Enter}')
    expect(useShellStore().sideOpen).toBe(true)
  })

  it('shows the open area’s bottom panels as tabs, keeps a panel’s state while another is shown, and remembers the tab', async () => {
    renderLayout()
    await user.click(screen.getByRole('tab', { name: 'Spatial analytics' }))
    const tablist = screen.getByRole('tablist', { name: 'Bottom panels' })
    const names = within(tablist)
      .getAllByRole('tab')
      .map((t) => t.textContent?.trim())
    expect(names).toEqual(['Results', 'Run history'])
    await user.type(screen.getByRole('textbox', { name: 'Results note' }), 'kept')
    const results = screen.getByRole('tab', { name: 'Results' })
    results.focus()
    await user.keyboard('{ArrowRight}')
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Run history' }))
    screen.getByRole('tabpanel', { name: 'Run history' })
    expect(screen.queryByRole('textbox', { name: 'Results note' })).toBeNull()
    expect(useShellStore().bottomTab).toBe('gis.history')
    await user.keyboard('{ArrowLeft}')
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Results note' }).value).toBe('kept')
  })

  it('says so in the panel when its code cannot be loaded', async () => {
    // Vue reports the failed loader on the console in development; the panel is what a person sees.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    renderLayout()
    await user.click(screen.getByRole('tab', { name: 'Lazy' }))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('This panel could not be loaded: chunk missing')
    warn.mockRestore()
    error.mockRestore()
  })

  it('shows a panel from anywhere through panel.show: opens its region and area, and focuses it', async () => {
    const { shell } = renderLayout()
    const layout = useShellStore()
    layout.sideOpen = false
    layout.bottomOpen = false
    await shell.run('panel.show', { id: 'gis.join' })
    expect(layout.activeArea).toBe('gis')
    expect(layout.sideOpen).toBe(true)
    await waitFor(() =>
      expect(document.activeElement?.contains(screen.getByRole('region', { name: 'Spatial join' }))).toBe(
        true,
      ),
    )
    await shell.run('panel.show', { id: 'gis.history', focus: false })
    expect(layout.bottomOpen).toBe(true)
    expect(screen.getByRole('tab', { name: 'Run history' }).getAttribute('aria-selected')).toBe('true')
    await expect(shell.run('panel.show', { id: 'gis.nothing' })).rejects.toThrow('no panel "gis.nothing"')
  })
})
