import { fireEvent, screen, within } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { nextTick } from 'vue'
import * as bridge from '../../../../../src/bridge'
import LayersPanel from '../../../../../src/features/map/layers/LayersPanel.vue'
import { bindLayer } from '../../../../../src/features/map/layers/layer-runtime'
import { useLayersStore } from '../../../../../src/features/map/layers/layers-store'
import { singleStyle } from '../../../../../src/features/map/layers/symbology'
import type { FakeGeo } from '../../../support/fake-geo'
import { renderInApp } from '../../../support/render'

vi.mock('../../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, fake }
})
const fake = (bridge as unknown as { fake: FakeGeo }).fake

const populations = [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]

function names(): string[] {
  const list = screen.getByRole('list', { name: 'Layers' })
  return [...list.children].map((li) => li.getAttribute('aria-label') ?? '')
}

describe('the Layers panel', () => {
  beforeEach(() => {
    fake.reset()
    localStorage.clear()
  })

  async function setup() {
    const app = renderInApp(LayersPanel)
    const layers = useLayersStore()
    layers.register({
      id: 'map.basemap',
      title: 'Basemap',
      kind: 'basemap',
      area: 'map',
      geometry: 'raster',
      defaultStyle: null,
      pinned: 'bottom',
    })
    for (const name of ['states', 'cities']) {
      layers.register({
        id: `gis.dataset:${name}`,
        title: name,
        kind: 'dataset',
        area: 'gis',
        geometry: name === 'cities' ? 'point' : 'polygon',
        fields: [
          { name: 'name', numeric: false },
          { name: 'population', numeric: true },
        ],
        featureCount: 10,
        extent: [70, 10, 90, 30],
        defaultStyle: singleStyle('#0072b2', name === 'cities' ? 'point' : 'polygon'),
        removable: true,
        hasTable: true,
      })
    }
    const remove = vi.fn()
    bindLayer('gis.dataset:cities', {
      values: (field) => (field === 'population' ? populations : populations.map((p) => `c${p}`)),
      remove,
    })
    await nextTick()
    return { ...app, layers, remove, user: userEvent.setup() }
  }

  it('reorders by keyboard and says where the layer went; the basemap stays last', async () => {
    const { user } = await setup()
    expect(names()).toEqual(['cities', 'states', 'Basemap'])
    screen.getByRole('button', { name: 'Move states' }).focus()
    await user.keyboard('{ArrowUp}')
    expect(names()).toEqual(['states', 'cities', 'Basemap'])
    expect(screen.getByRole('status', { hidden: true }).textContent).toBe('states moved to position 1 of 2')
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move states' }))
    await user.keyboard('{End}')
    expect(names()).toEqual(['cities', 'states', 'Basemap'])
    expect(screen.queryByRole('button', { name: 'Move Basemap' })).toBeNull()
  })

  it('hides, fades, renames and removes a layer', async () => {
    const { user, layers, remove } = await setup()
    const show = screen.getByRole('button', { name: 'Show cities' })
    expect(show.getAttribute('aria-pressed')).toBe('true')
    await user.click(show)
    expect(layers.entries[0]!.visible).toBe(false)
    const opacity = screen.getByRole('slider', { name: 'Opacity of cities' })
    // (happy-dom does not move a range input by keys; the browser e2e does.)
    await fireEvent.update(opacity, '90')
    expect(layers.entries[0]!.opacity).toBeCloseTo(0.9)
    expect(opacity.getAttribute('aria-valuetext')).toBe('90%')
    await user.click(screen.getByRole('button', { name: 'Rename cities' }))
    const field = screen.getByRole('textbox', { name: 'New name of cities' })
    await user.clear(field)
    await user.type(field, 'Towns{Enter}')
    expect(names()[0]).toBe('Towns')
    await user.click(screen.getByRole('button', { name: 'Remove Towns from map' }))
    expect(remove).toHaveBeenCalledOnce()
  })

  it('styles a point layer graduated by a numeric field; the legend lists the classes', async () => {
    const { user } = await setup()
    await user.click(screen.getByRole('button', { name: 'Style cities' }))
    const editor = screen.getByRole('region', { name: 'Style of cities' })
    await user.selectOptions(within(editor).getByRole('combobox', { name: 'Symbol' }), 'graduated')
    await user.selectOptions(within(editor).getByRole('combobox', { name: 'Method' }), 'equal-interval')
    const classes = within(editor).getByRole('spinbutton', { name: 'Classes' })
    await user.clear(classes)
    await user.type(classes, '3{Tab}')
    const legend = screen.getByRole('list', { name: 'Legend of cities' })
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['100 – 400', '400 – 700', '700 – 1,000'])
    // Categorized by a text field: one entry per value and "Other".
    await user.selectOptions(within(editor).getByRole('combobox', { name: 'Symbol' }), 'categorized')
    expect(within(legend).getAllByRole('listitem').at(-1)!.textContent).toBe('Other')
    // A heatmap is offered for points only.
    expect(within(editor).getByRole('option', { name: 'Heatmap' })).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Style states' }))
    const states = screen.getByRole('region', { name: 'Style of states' })
    expect(within(states).queryByRole('option', { name: 'Heatmap' })).toBeNull()
  })

  it('says what to do when there is nothing on the map', () => {
    renderInApp(LayersPanel)
    expect(screen.getByText('No layers on the map yet.')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Show a dataset' })).toBeTruthy()
  })
})
