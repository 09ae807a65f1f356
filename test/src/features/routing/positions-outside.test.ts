import { render, screen, waitFor, within } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import OlMap from 'ol/Map'
import MapBrowserEvent from 'ol/MapBrowserEvent'
import View from 'ol/View'
import { fromLonLat } from 'ol/proj'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import { BASE_URL_KEYS } from '@contract/index'
import * as bridge from '../../../../src/bridge'
import { mapKey } from '../../../../src/features/map/view/map-context'
import routingArea from '../../../../src/features/routing/area'
import MatrixPanel from '../../../../src/features/routing/MatrixPanel.vue'
import PositionsLayer from '../../../../src/features/routing/PositionsLayer.vue'
import { useRoutingStore } from '../../../../src/features/routing/routing-store'
import { useSettingsStore } from '../../../../src/features/settings/settings-store'
import { shellKey } from '../../../../src/features/shell/shell'
import type { FakeGeo } from '../../support/fake-geo'
import { createTestApp } from '../../support/render'

vi.mock('../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake
const user = userEvent.setup()
const NOTE =
  'Sample road network: Gothenburg (OpenStreetMap). Import an extract of your region with Routing → Import OSM extract… or `geo-analyst routing import`.'
const DELHI: [number, number] = [77.21, 28.61]
const GOTHENBURG: Array<[number, number]> = [
  [11.97, 57.7],
  [11.99, 57.69],
]

let map: OlMap
let target: HTMLDivElement

/** The matrix panel beside a real OpenLayers map with the positions layer, on the Local profile. */
async function renderRouting() {
  const app = createTestApp([routingArea])
  await useSettingsStore().load()
  target = document.createElement('div')
  document.body.append(target)
  map = new OlMap({ target, view: new View({ center: [0, 0], zoom: 2 }) })
  const Scene = defineComponent({ setup: () => () => h('div', [h(MatrixPanel), h(PositionsLayer)]) })
  render(Scene, {
    global: { plugins: [app.pinia], provide: { [mapKey as symbol]: map, [shellKey as symbol]: app.shell } },
  })
  await useRoutingStore().refreshNetworks()
  return app
}

/** A click on the map at a place, as OpenLayers reports it. */
function clickMap(at: [number, number]): void {
  const event = new MapBrowserEvent('singleclick', map, new PointerEvent('click'))
  event.coordinate = fromLonLat(at)
  event.pixel = [0, 0]
  map.dispatchEvent(event)
}

/** The refusal note (a map overlay: happy-dom draws no map, so OpenLayers keeps it hidden here). */
const refusal = () => screen.queryByRole('status', { name: 'Position not added', hidden: true })
const positionRows = () => {
  const table = screen.queryByRole('table', { name: 'Positions' })
  return table ? within(table).getAllByRole('row').slice(1) : []
}

describe('routing positions and the road networks', () => {
  beforeEach(() => {
    fake.reset()
    localStorage.clear()
  })
  afterEach(() => {
    map.dispose()
    target.remove()
  })

  it('refuses a position clicked outside every road network, at the point clicked, with where the sample is', async () => {
    await renderRouting()
    await user.click(screen.getByRole('button', { name: 'Add positions on the map' }))
    clickMap(DELHI)
    await waitFor(() => expect(refusal()?.textContent).toContain('Not added: outside every road network.'))
    expect(refusal()!.textContent).toContain(NOTE)
    // The note sits in the map, at the point clicked (an overlay of the map), and nothing was added.
    expect(map.getViewport()?.contains(refusal()!)).toBe(true)
    const overlay = map
      .getOverlays()
      .getArray()
      .find((o) => o.getElement() === refusal())
    expect(overlay?.getPosition()).toEqual(fromLonLat(DELHI))
    expect(positionRows()).toHaveLength(0)
    // Inside the network, positions are placed and the refusal goes.
    for (const at of GOTHENBURG) clickMap(at)
    await waitFor(() => expect(positionRows()).toHaveLength(2))
    expect(refusal()?.textContent ?? '').toBe('')
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Run matrix' }).disabled).toBe(false)
  })

  it('marks a position put outside by another area, and the Run button says why it cannot run', async () => {
    const { shell } = await renderRouting()
    await shell.run('routing.usePositions', { points: [GOTHENBURG[0]!, DELHI] })
    await waitFor(() => expect(positionRows()).toHaveLength(2))
    expect(positionRows()[1]!.textContent).toContain('outside every road network')
    expect(positionRows()[0]!.textContent).not.toContain('outside')
    const run = screen.getByRole<HTMLButtonElement>('button', { name: 'Run matrix' })
    expect(run.disabled).toBe(true)
    const why = document.getElementById(run.getAttribute('aria-describedby') ?? '')
    expect(why?.textContent?.trim()).toBe(
      'Position 2 is outside every road network: move it onto a network or remove it.',
    )
    await user.click(screen.getByRole('button', { name: 'Remove position 2' }))
    expect(run.disabled).toBe(true) // one position left
    expect(fake.geo['routing.matrix']).not.toHaveBeenCalled()
  })

  it('says where the sample network is, once: a hidden note stays hidden', async () => {
    await renderRouting()
    const note = await screen.findByRole('note', { name: 'Road network' })
    expect(note.textContent).toContain(NOTE)
    await user.click(within(note).getByRole('button', { name: 'Hide note' }))
    expect(screen.queryByRole('note', { name: 'Road network' })).toBeNull()
    map.dispose()
    target.remove()
    await renderRouting()
    expect(screen.queryByRole('note', { name: 'Road network' })).toBeNull()
  })

  it('checks nothing on a cloud profile: its service covers its own region', async () => {
    fake.state.view.profiles.push({
      name: 'Cloud',
      builtIn: false,
      urls: Object.fromEntries(BASE_URL_KEYS.map((k) => [k, 'https://cloud.example.test'])) as never,
    })
    fake.state.view.activeProfile = 'Cloud'
    await renderRouting()
    await user.click(screen.getByRole('button', { name: 'Add positions on the map' }))
    clickMap(DELHI)
    await waitFor(() => expect(positionRows()).toHaveLength(1))
    expect(refusal()?.textContent ?? '').toBe('')
    expect(screen.queryByRole('note', { name: 'Road network' })).toBeNull()
  })
})
