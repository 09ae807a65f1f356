import { screen, waitFor, within } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { h } from 'vue'
import App from '../../../../src/App.vue'
import * as areas from '../../../../src/areas'
import { useLayersStore } from '../../../../src/features/map/layers/layers-store'
import { createShellWith, type AreaDefinition } from '../../../../src/features/shell/shell'
import { LAYOUT_STORAGE_KEY, useShellStore } from '../../../../src/features/shell/shell-store'
import { renderInApp } from '../../support/render'

vi.mock('../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../support/fake-geo')
  const fake = createFakeGeo()
  const eventsConnection = { state: 'connected', reason: '', subscribe: () => () => {}, retry: () => {} }
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake, eventsConnection }
})

const user = userEvent.setup()

/**
 * The app's areas as registered (ids, titles, order, which bottom panels each has and which of them show
 * everywhere), each panel drawn as a small form so a test can see its state survive; no map parts, side
 * panels or wiring (those are the areas' own tests).
 */
const AREAS: AreaDefinition[] = Object.values(areas).map((area) => ({
  id: area.id,
  title: area.title,
  icon: area.icon,
  ...(area.order === undefined ? {} : { order: area.order }),
  bottomPanels: (area.bottomPanels ?? []).map((panel) => ({
    ...panel,
    component: () =>
      h('section', { 'aria-label': panel.title }, [
        h('label', {}, [`${panel.title} note `, h('input', { type: 'text' })]),
      ]),
  })),
}))

/** The whole app frame, as main.ts mounts it (it installs the shell's actions itself). */
function renderApp() {
  const pinia = createPinia()
  setActivePinia(pinia)
  return renderInApp(App, { app: { pinia, shell: createShellWith(AREAS) } })
}

const openArea = (name: string) =>
  user.click(within(screen.getByRole('navigation', { name: 'Activity bar' })).getByRole('tab', { name }))
/** The bottom panel's tab names, or null while the region is folded away. */
function bottomTabs(): string[] | null {
  const list = screen.queryByRole('tablist', { name: 'Bottom panels' })
  return list
    ? within(list)
        .getAllByRole('tab')
        .map((t) => t.textContent?.trim() ?? '')
    : null
}
const selectedBottomTab = () =>
  within(screen.getByRole('tablist', { name: 'Bottom panels' }))
    .getAllByRole('tab')
    .find((t) => t.getAttribute('aria-selected') === 'true')
    ?.textContent?.trim()

/** A layer on the map, its attribute table asked for in the Layers panel. */
function openLayerTable(): void {
  const layers = useLayersStore()
  layers.register({
    id: 'gis.dataset:wells',
    title: 'wells',
    kind: 'dataset',
    area: 'gis',
    geometry: 'point',
    defaultStyle: null,
    hasTable: true,
  })
  layers.showTable('gis.dataset:wells')
}

describe('the bottom panel belongs to the open area', () => {
  beforeEach(() => localStorage.clear())

  it('shows the open area’s tabs only, switches them with the area, and folds away where there are none', async () => {
    renderApp()
    // Layers (the map's own entry) opens first: its attribute table.
    expect(bottomTabs()).toEqual(['Attribute table'])
    await openArea('Routing')
    expect(bottomTabs()).toEqual(['Matrix'])
    await openArea('Fleet')
    expect(bottomTabs()).toEqual(['Device', 'Alerts', 'Hardware'])
    await openArea('Spatial analytics')
    expect(bottomTabs()).toEqual(['Results', 'Run history'])
    // License plates shows its viewer, not a join's results.
    await openArea('License plates')
    expect(bottomTabs()).toEqual(['Before / after'])
    expect(screen.queryByRole('region', { name: 'Results' })).toBeNull()
    // Places has no bottom tab: the region folds away and its toggle says there is nothing to open.
    await openArea('Places')
    expect(bottomTabs()).toBeNull()
    const toggle = screen.getByRole<HTMLButtonElement>('button', { name: 'Bottom panel' })
    expect([toggle.disabled, toggle.getAttribute('aria-expanded')]).toEqual([true, 'false'])
    await openArea('Fleet')
    expect(bottomTabs()).toEqual(['Device', 'Alerts', 'Hardware'])
    expect([toggle.disabled, toggle.getAttribute('aria-expanded')]).toEqual([false, 'true'])
  })

  it('opens Fleet on its tab again from a layout kept while the telematics area was `fleet`', async () => {
    // As an earlier version kept it: Fleet open on its Hardware tab, Routing on its Matrix.
    localStorage.setItem(
      LAYOUT_STORAGE_KEY,
      JSON.stringify({
        activeArea: 'fleet',
        sideOpen: true,
        bottomOpen: true,
        bottomTab: 'fleet.hardware',
        bottomTabs: { fleet: 'fleet.hardware', routing: 'routing.table' },
      }),
    )
    renderApp()
    const activity = within(screen.getByRole('navigation', { name: 'Activity bar' }))
    expect(activity.getByRole('tab', { name: 'Fleet' }).getAttribute('aria-selected')).toBe('true')
    expect(bottomTabs()).toEqual(['Device', 'Alerts', 'Hardware'])
    expect(selectedBottomTab()).toBe('Hardware')
    await openArea('Routing')
    await openArea('Fleet')
    expect(selectedBottomTab()).toBe('Hardware')
  })

  it('brings back each area’s tab with what was typed in it when the area is opened again', async () => {
    renderApp()
    await openArea('Spatial analytics')
    await user.click(screen.getByRole('tab', { name: 'Run history' }))
    await user.type(screen.getByRole('textbox', { name: 'Run history note' }), 'kept')
    await openArea('Fleet')
    expect(selectedBottomTab()).toBe('Device')
    await user.click(screen.getByRole('tab', { name: 'Alerts' }))
    await openArea('Spatial analytics')
    expect(selectedBottomTab()).toBe('Run history')
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Run history note' }).value).toBe('kept')
    await openArea('Fleet')
    expect(selectedBottomTab()).toBe('Alerts')
  })

  it('keeps a layer’s attribute table at hand in every area once it is open, until the layer leaves', async () => {
    renderApp()
    await openArea('Places')
    expect(bottomTabs()).toBeNull()
    openLayerTable()
    await waitFor(() => expect(bottomTabs()).toEqual(['Attribute table']))
    await openArea('Fleet')
    expect(bottomTabs()).toEqual(['Device', 'Alerts', 'Hardware', 'Attribute table'])
    useLayersStore().unregister('gis.dataset:wells')
    await waitFor(() => expect(bottomTabs()).toEqual(['Device', 'Alerts', 'Hardware']))
  })

  it('opens another area for its panel when asked, and keeps a panel shown on its own for when that area opens', async () => {
    const { shell } = renderApp()
    await openArea('Fleet')
    // A finished matrix shows its table on its own: it waits as Routing's tab, Fleet stays open.
    await shell.run('panel.show', { id: 'routing.table', focus: false })
    expect(useShellStore().activeArea).toBe('telematics')
    expect(bottomTabs()).toEqual(['Device', 'Alerts', 'Hardware'])
    // Asked for (a layer's "Attribute table" that is a join's results): its area opens, as a person would.
    await shell.run('panel.show', { id: 'gis.history' })
    expect(useShellStore().activeArea).toBe('gis')
    expect(selectedBottomTab()).toBe('Run history')
    await openArea('Routing')
    expect(selectedBottomTab()).toBe('Matrix')
  })
})
