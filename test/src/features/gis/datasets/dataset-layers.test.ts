import { flushPromises, mount } from '@vue/test-utils'
import OlMap from 'ol/Map'
import View from 'ol/View'
import VectorLayer from 'ol/layer/Vector'
import type VectorSource from 'ol/source/Vector'
import type { Style } from 'ol/style'
import type { StyleFunction } from 'ol/style/Style'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import * as bridge from '../../../../../src/bridge'
import DatasetLayers from '../../../../../src/features/gis/datasets/DatasetLayers.vue'
import { SNAP_TARGET } from '../../../../../src/features/gis/datasets/dataset-style'
import { useDatasetsStore } from '../../../../../src/features/gis/datasets/datasets-store'
import { useLayersStore } from '../../../../../src/features/map/layers/layers-store'
import { mapKey } from '../../../../../src/features/map/view/map-context'
import type { FakeGeo } from '../../../support/fake-geo'

vi.mock('../../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake

const cities = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { name: 'Delhi' },
      geometry: { type: 'Point', coordinates: [77.2, 28.6] },
    },
    { type: 'Feature', properties: { name: 'Agra' }, geometry: { type: 'Point', coordinates: [78.0, 27.2] } },
  ],
}

const datasetLayers = (map: OlMap) =>
  map
    .getLayers()
    .getArray()
    .filter((l) => l.get(SNAP_TARGET)) as Array<VectorLayer<VectorSource>>

describe('DatasetLayers', () => {
  let map: OlMap
  let unmount: () => void
  beforeEach(() => {
    fake.reset()
    fake.state.datasets = [
      { layername: 'india_cities', geometrytype: 'POINT', local: true },
      { layername: 'other_points', geometrytype: 'POINT', local: true },
    ]
    fake.state.features.set('india_cities', JSON.stringify(cities))
    fake.state.features.set('other_points', JSON.stringify(cities))
    setActivePinia(createPinia())
    map = new OlMap({ view: new View({ center: [0, 0], zoom: 2 }) })
    const Host = defineComponent({ setup: () => () => h(DatasetLayers) })
    const wrapper = mount(Host, { global: { provide: { [mapKey as symbol]: map } } })
    unmount = () => wrapper.unmount()
  })
  afterEach(() => map.dispose())

  it('adds one vector layer per shown dataset, in EPSG:3857 and its own colour, and removes it when hidden', async () => {
    const store = useDatasetsStore()
    await store.refresh()
    await store.show('india_cities')
    await store.show('other_points')
    await flushPromises()
    const layers = datasetLayers(map)
    expect(layers.map((l) => l.get('name'))).toEqual(['dataset:india_cities', 'dataset:other_points'])
    expect(layers[0]!.getSource()!.getFeatures()).toHaveLength(2)
    const [x] = (
      layers[0]!.getSource()!.getFeatures()[0]!.getGeometry() as unknown as { getCoordinates(): number[] }
    ).getCoordinates()
    expect(x).toBeCloseTo((77.2 * 20037508.342789244) / 180, 0)
    const colours = layers.map((l) => {
      const feature = l.getSource()!.getFeatures()[0]!
      const style = (l.getStyle() as StyleFunction)(feature, 1) as Style
      return (style.getImage() as unknown as { getFill(): { getColor(): string } }).getFill().getColor()
    })
    expect(colours).toEqual(store.shown.map((s) => s.colour))
    expect(colours[0]).not.toBe(colours[1])
    // Each is a layer of the list, the last shown on top, and the map draws them in that order.
    const list = useLayersStore()
    expect(list.entries.map((e) => e.id)).toEqual(['gis.dataset:other_points', 'gis.dataset:india_cities'])
    expect(list.entries[1]!.legend).toEqual([
      {
        label: 'india_cities',
        swatch: expect.objectContaining({ shape: 'point', fill: store.shown[0]!.colour }),
      },
    ])
    expect(layers[1]!.getZIndex()).toBeGreaterThan(layers[0]!.getZIndex()!)
    list.moveTo('gis.dataset:india_cities', 0)
    await flushPromises()
    expect(layers[0]!.getZIndex()).toBeGreaterThan(layers[1]!.getZIndex()!)
    list.setOpacity('gis.dataset:india_cities', 0.5)
    list.setVisible('gis.dataset:other_points', false)
    await flushPromises()
    expect([layers[0]!.getOpacity(), layers[1]!.getVisible()]).toEqual([0.5, false])

    store.hide('india_cities')
    await flushPromises()
    expect(datasetLayers(map).map((l) => l.get('name'))).toEqual(['dataset:other_points'])
    expect(list.entries.map((e) => e.id)).toEqual(['gis.dataset:other_points'])
    unmount()
    expect(datasetLayers(map)).toHaveLength(0)
    expect(list.entries).toEqual([])
  })

  it('imports a file dropped on the map', async () => {
    const drop = new Event('drop', { bubbles: true, cancelable: true })
    const file = new File(['{"type":"FeatureCollection","features":[]}'], 'dropped.geojson')
    Object.defineProperty(drop, 'dataTransfer', { value: { files: [file], types: ['Files'] } })
    map.getViewport()!.dispatchEvent(drop)
    await vi.waitFor(() => expect(fake.geo['datasets.import']).toHaveBeenCalledTimes(1))
    expect(drop.defaultPrevented).toBe(true)
  })
})
