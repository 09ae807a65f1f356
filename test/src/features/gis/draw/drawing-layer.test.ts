import { flushPromises, mount } from '@vue/test-utils'
import type { Polygon } from 'geojson'
import OlMap from 'ol/Map'
import View from 'ol/View'
import Draw from 'ol/interaction/Draw'
import Modify from 'ol/interaction/Modify'
import Select from 'ol/interaction/Select'
import Snap from 'ol/interaction/Snap'
import Translate from 'ol/interaction/Translate'
import VectorLayer from 'ol/layer/Vector'
import { fromLonLat } from 'ol/proj'
import VectorSource from 'ol/source/Vector'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import * as bridge from '../../../../../src/bridge'
import { SNAP_TARGET } from '../../../../../src/features/gis/datasets/dataset-style'
import DrawingLayer from '../../../../../src/features/gis/draw/DrawingLayer.vue'
import { useDrawingsStore } from '../../../../../src/features/gis/draw/drawings-store'
import { mapKey } from '../../../../../src/features/map/view/map-context'
import type { FakeGeo } from '../../../support/fake-geo'

vi.mock('../../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake

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

const mounted: Array<{ unmount(): void }> = []

function mountLayer(map: OlMap) {
  const Host = defineComponent({
    setup() {
      return () => h(DrawingLayer)
    },
  })
  const wrapper = mount(Host, { global: { provide: { [mapKey as symbol]: map } }, attachTo: document.body })
  mounted.push(wrapper)
  return wrapper
}

const drawingLayer = (map: OlMap) =>
  map
    .getLayers()
    .getArray()
    .find((l) => l.get('name') === 'drawings') as VectorLayer<VectorSource>

const press = (key: string, init: KeyboardEventInit = {}) =>
  window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }))

describe('DrawingLayer', () => {
  let map: OlMap
  beforeEach(() => {
    fake.reset()
    setActivePinia(createPinia())
    map = new OlMap({ view: new View({ center: fromLonLat([78, 22]), zoom: 4 }) })
  })
  afterEach(() => {
    for (const wrapper of mounted.splice(0)) wrapper.unmount()
    document.body.innerHTML = ''
    map.dispose()
  })

  it('shows the store’s WGS84 shapes on the map in EPSG:3857, following every change', async () => {
    const store = useDrawingsStore()
    const id = store.add('polygon', square())
    const wrapper = mountLayer(map)
    const source = drawingLayer(map).getSource()!
    expect(source.getFeatures()).toHaveLength(1)
    const [minX, minY] = source.getFeatureById(id)!.getGeometry()!.getExtent()
    expect(minX).toBeCloseTo(fromLonLat([77, 28])[0]!, 3)
    expect(minY).toBeCloseTo(fromLonLat([77, 28])[1]!, 3)

    store.updateGeometries([{ id, geometry: square(80) }])
    await flushPromises()
    expect(source.getFeatureById(id)!.getGeometry()!.getExtent()[0]).toBeCloseTo(fromLonLat([80, 28])[0]!, 3)
    store.undo()
    store.undo()
    await flushPromises()
    expect(source.getFeatures()).toHaveLength(0)
    mounted.splice(mounted.indexOf(wrapper), 1)
    wrapper.unmount()
    expect(drawingLayer(map)).toBeUndefined()
  })

  it('sets up Draw for a tool and Select, Translate and Modify for editing, snapping to shapes and shown datasets', async () => {
    const datasetLayer = new VectorLayer({ source: new VectorSource(), properties: { [SNAP_TARGET]: true } })
    map.addLayer(datasetLayer)
    mountLayer(map)
    const store = useDrawingsStore()
    const kinds = () =>
      map
        .getInteractions()
        .getArray()
        .filter((i) => [Draw, Select, Translate, Modify, Snap].some((k) => i instanceof k))
        .map((i) => i.constructor.name)
    expect(kinds()).toEqual([])
    store.setMode('polygon')
    await flushPromises()
    expect(kinds()).toEqual(['Draw', 'Snap', 'Snap'])
    store.setMode('select')
    await flushPromises()
    expect(kinds()).toEqual(['Select', 'Translate', 'Modify', 'Snap', 'Snap'])
    map.removeLayer(datasetLayer)
    expect(kinds()).toEqual(['Select', 'Translate', 'Modify', 'Snap'])
    store.setMode('none')
    await flushPromises()
    expect(kinds()).toEqual([])
  })

  it('answers Delete, Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y, but not while typing in a field', async () => {
    mountLayer(map)
    const store = useDrawingsStore()
    const a = store.add('polygon', square())
    store.add('polygon', square(80))
    store.select(a)
    press('Delete')
    expect(store.shapes).toHaveLength(1)
    press('z', { ctrlKey: true })
    expect(store.shapes).toHaveLength(2)
    press('Z', { ctrlKey: true, shiftKey: true })
    expect(store.shapes).toHaveLength(1)
    press('z', { ctrlKey: true })
    press('y', { ctrlKey: true })
    expect(store.shapes).toHaveLength(1)

    const input = document.body.appendChild(document.createElement('input'))
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'z', ctrlKey: true, bubbles: true }))
    expect(store.shapes).toHaveLength(1)
  })
})
