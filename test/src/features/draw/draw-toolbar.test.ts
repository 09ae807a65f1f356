import { flushPromises, mount } from '@vue/test-utils'
import type { Polygon } from 'geojson'
import { createPinia, setActivePinia, type Pinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { geoError } from '@contract/index'
import * as bridge from '../../../../src/bridge'
import DrawToolbar from '../../../../src/features/draw/DrawToolbar.vue'
import { useDrawingsStore } from '../../../../src/features/draw/drawings-store'
import { useMapStore } from '../../../../src/features/map/map-store'
import type { FakeGeo } from '../../support/fake-geo'
import { getByRole, queryAllByRole } from '../../support/query'

vi.mock('../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake
let pinia: Pinia

const square = (lon = 77): Polygon => ({
  type: 'Polygon',
  coordinates: [
    [
      [lon, 28],
      [lon + 1, 28],
      [lon + 1, 29],
      [lon, 29],
      [lon, 28],
    ],
  ],
})

async function mountToolbar() {
  const wrapper = mount(DrawToolbar, { attachTo: document.body, global: { plugins: [pinia] } })
  await flushPromises()
  return wrapper
}

const button = (name: string) => getByRole<HTMLButtonElement>(document.body, 'button', name)
const shapeItems = () => [...getByRole(document.body, 'list', 'Drawn shapes').querySelectorAll('li')]

describe('DrawToolbar', () => {
  beforeEach(() => {
    fake.reset()
    pinia = createPinia()
    setActivePinia(pinia)
  })
  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('offers every drawing tool by name and states the circle’s vertex count', async () => {
    await mountToolbar()
    const toolbar = getByRole(document.body, 'toolbar', 'Drawing tools')
    for (const name of [
      'Draw polygon',
      'Draw rectangle',
      'Draw circle',
      'Draw freehand polygon',
      'Draw point',
      'Draw line',
      'Select and edit',
      'Delete selected',
      'Undo',
      'Redo',
      'Import shapes',
      'Clear drawings',
    ]) {
      expect(toolbar.contains(button(name))).toBe(true)
    }
    expect(button('Draw circle').textContent).toContain('Circle (64 vertices)')
    button('Draw circle').click()
    await flushPromises()
    expect(button('Draw circle').getAttribute('aria-pressed')).toBe('true')
    expect(getByRole(document.body, 'status', /Circle \(64 vertices\): sent as a polygon/)).toBeTruthy()
    button('Draw polygon').click()
    await flushPromises()
    expect(useDrawingsStore().mode).toBe('polygon')
    expect(button('Draw circle').getAttribute('aria-pressed')).toBe('false')
    button('Draw polygon').click()
    await flushPromises()
    expect(useDrawingsStore().mode).toBe('none')
  })

  it('loads the saved drawings on start and lists each shape with its measure', async () => {
    fake.state.drawings = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          id: 'k1',
          properties: { name: 'Polygon 1', shape: 'polygon' },
          geometry: square(),
        },
      ],
    }
    await mountToolbar()
    expect(fake.geo['drawings.load']).toHaveBeenCalledTimes(1)
    expect(shapeItems().map((li) => li.getAttribute('aria-label'))).toEqual([
      expect.stringMatching(/^Polygon 1 · 10,8\d\d\.\d km²$/),
    ])
  })

  it('selects shapes from the list (Shift adds), deletes them, and undoes and redoes with the buttons', async () => {
    await mountToolbar()
    const store = useDrawingsStore()
    store.add('polygon', square())
    store.add('point', { type: 'Point', coordinates: [77.5, 28.5] })
    await flushPromises()
    expect(button('Delete selected').disabled).toBe(true)
    const [first, second] = shapeItems().map((li) => li.querySelector('button')!)
    first!.click()
    second!.dispatchEvent(new MouseEvent('click', { bubbles: true, shiftKey: true }))
    await flushPromises()
    expect(first!.getAttribute('aria-pressed')).toBe('true')
    expect(second!.getAttribute('aria-pressed')).toBe('true')
    button('Delete selected').click()
    await flushPromises()
    expect(shapeItems()).toHaveLength(0)
    button('Undo').click()
    await flushPromises()
    expect(shapeItems().map((li) => li.getAttribute('aria-label'))).toEqual([
      expect.stringMatching(/^Polygon 1 · /),
      'Point 1',
    ])
    button('Redo').click()
    await flushPromises()
    expect(shapeItems()).toHaveLength(0)
    expect(button('Redo').disabled).toBe(true)
  })

  it('shows an alert naming a self-intersecting shape until it is fixed', async () => {
    await mountToolbar()
    const store = useDrawingsStore()
    const id = store.add('polygon', {
      type: 'Polygon',
      coordinates: [
        [
          [77, 28],
          [78, 29],
          [78, 28],
          [77, 29],
          [77, 28],
        ],
      ],
    })
    await flushPromises()
    expect(getByRole(document.body, 'alert', /^Polygon 1 crosses itself/)).toBeTruthy()
    store.updateGeometries([{ id, geometry: square() }])
    await flushPromises()
    expect(queryAllByRole(document.body, 'alert', /crosses itself/)).toHaveLength(0)
  })

  it('says when drawings could not be saved, with the next step, and keeps them', async () => {
    vi.useFakeTimers()
    try {
      await mountToolbar()
      fake.failNext('drawings.save', geoError('local-configuration', 'The drawings file is read-only'))
      useDrawingsStore().add('polygon', square())
      await vi.advanceTimersByTimeAsync(500)
      const alert = getByRole(document.body, 'alert', /The drawings file is read-only/)
      expect(alert.textContent).toContain('Fix the setting or credential named in the message')
      expect(document.body.textContent).toContain('saved again on your next change')
      expect(shapeItems()).toHaveLength(1)
    } finally {
      vi.useRealTimers()
    }
  })

  it('imports shapes from the chosen file and fits the map to them', async () => {
    await mountToolbar()
    const input = document.querySelector<HTMLInputElement>('input[type=file]')!
    expect(input.getAttribute('aria-label')).toBe('Shapes file (GeoJSON or KML)')
    const file = new File(
      [JSON.stringify({ type: 'Feature', properties: { name: 'Zone A' }, geometry: square(80) })],
      'zone.geojson',
    )
    Object.defineProperty(input, 'files', { value: [file], configurable: true })
    input.dispatchEvent(new Event('change'))
    await flushPromises()
    await vi.waitFor(() => expect(shapeItems()).toHaveLength(1))
    expect(shapeItems()[0]!.getAttribute('aria-label')).toMatch(/^Zone A · /)
    expect(useMapStore().fitRequest?.box).toEqual([80, 28, 81, 29])

    Object.defineProperty(input, 'files', { value: [new File(['nope'], 'notes.txt')], configurable: true })
    input.dispatchEvent(new Event('change'))
    await vi.waitFor(() => getByRole(document.body, 'alert', /^Shapes not imported: notes\.txt: /))
    expect(shapeItems()).toHaveLength(1)
  })
})
