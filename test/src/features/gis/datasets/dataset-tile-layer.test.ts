import { flushPromises, mount } from '@vue/test-utils'
import OlMap from 'ol/Map'
import View from 'ol/View'
import VectorTileLayer from 'ol/layer/VectorTile'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import * as bridge from '../../../../../src/bridge'
import DatasetLayers from '../../../../../src/features/gis/datasets/DatasetLayers.vue'
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

describe('a database dataset on the map', () => {
  let map: OlMap
  beforeEach(() => {
    fake.reset()
    fake.state.datasets = [
      {
        layername: 'places',
        geometrytype: 'POINT',
        featureCount: 1_000_000,
        fields: [
          { name: 'name', type: 'string' },
          { name: 'value', type: 'number' },
        ],
        extent: [68, 8, 97, 36],
        local: true,
        tiles: true,
      },
    ]
    setActivePinia(createPinia())
    map = new OlMap({ view: new View({ center: [0, 0], zoom: 2 }) })
    const Host = defineComponent({ setup: () => () => h(DatasetLayers) })
    mount(Host, { global: { provide: { [mapKey as symbol]: map } } })
  })
  afterEach(() => map.dispose())

  it('is drawn as a vector-tile layer of the list, its features never fetched whole', async () => {
    const store = useDatasetsStore()
    await store.refresh()
    await store.show('places')
    await flushPromises()
    expect(fake.geo['datasets.features']).not.toHaveBeenCalled()
    const layers = map
      .getLayers()
      .getArray()
      .filter((l) => l.get('name') === 'dataset:places')
    expect(layers).toHaveLength(1)
    expect(layers[0]).toBeInstanceOf(VectorTileLayer)
    const entry = useLayersStore().entries.find((e) => e.id === 'gis.dataset:places')!
    expect(entry).toMatchObject({
      title: 'places',
      geometry: 'point',
      featureCount: 1_000_000,
      extent: [68, 8, 97, 36],
      fields: [
        { name: 'name', numeric: false },
        { name: 'value', numeric: true },
      ],
    })
    // Styled by the list as any other layer.
    expect(typeof (layers[0] as VectorTileLayer).getStyle()).toBe('function')
  })
})
