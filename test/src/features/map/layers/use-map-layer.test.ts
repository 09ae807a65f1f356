import { flushPromises, mount } from '@vue/test-utils'
import Feature from 'ol/Feature'
import OlMap from 'ol/Map'
import View from 'ol/View'
import Point from 'ol/geom/Point'
import VectorLayer from 'ol/layer/Vector'
import VectorSource from 'ol/source/Vector'
import type { Style } from 'ol/style'
import type { StyleFunction } from 'ol/style/Style'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defineComponent, h, ref } from 'vue'
import { useLayersStore } from '../../../../../src/features/map/layers/layers-store'
import { graduatedStyle, singleStyle } from '../../../../../src/features/map/layers/symbology'
import { LAYER_Z_BASE, useMapLayer } from '../../../../../src/features/map/layers/use-map-layer'
import { mapKey } from '../../../../../src/features/map/view/map-context'

const populations = [10, 20, 30, 40, 50]

describe('useMapLayer', () => {
  let map: OlMap
  beforeEach(() => {
    localStorage.clear()
    setActivePinia(createPinia())
    map = new OlMap({ view: new View({ center: [0, 0], zoom: 2 }) })
  })
  afterEach(() => map.dispose())

  function mountLayer(shown = ref(true)) {
    const source = new VectorSource({
      features: populations.map(
        (p, i) => new Feature({ geometry: new Point([i * 1000, 0]), population: p, name: `C${i}` }),
      ),
    })
    const layer = new VectorLayer({ source })
    const Host = defineComponent({
      setup() {
        useMapLayer({
          definition: () =>
            shown.value
              ? {
                  id: 'test.points',
                  title: 'Points',
                  kind: 'dataset',
                  area: 'test',
                  geometry: 'point',
                  fields: [{ name: 'population', numeric: true }],
                  defaultStyle: singleStyle('#112233', 'point'),
                }
              : null,
          layers: [layer],
          styled: { layer: layer as never, source },
          binding: { values: (field) => source.getFeatures().map((f) => f.get(field)) },
        })
        return () => h('span')
      },
    })
    const wrapper = mount(Host, { global: { provide: { [mapKey as symbol]: map } } })
    return { wrapper, layer, source, shown }
  }

  const olLayers = () => map.getLayers().getArray()
  const fillOf = (layer: VectorLayer, feature: Feature) =>
    (
      ((layer.getStyle() as StyleFunction)(feature, 1) as Style).getImage() as unknown as {
        getFill(): { getColor(): string }
      }
    )
      .getFill()
      .getColor()

  it('puts the layer on the map, draws each class in its colour, and follows the list', async () => {
    const { layer, source, wrapper } = mountLayer()
    await flushPromises()
    expect(olLayers()).toEqual([layer])
    const store = useLayersStore()
    expect(fillOf(layer, source.getFeatures()[0]!)).toBe('#112233')
    const style = graduatedStyle(
      store.entries[0]!.style!,
      'point',
      { field: 'population', method: 'equal-interval', classes: 2, palette: 'Blues', reversed: false },
      populations,
    )
    store.setStyle('test.points', style)
    await flushPromises()
    const colours = source.getFeatures().map((f) => fillOf(layer, f))
    expect(new Set(colours).size).toBe(2)
    expect(colours[0]).not.toBe(colours[4])
    store.setOpacity('test.points', 0.4)
    await flushPromises()
    expect([layer.getOpacity(), layer.getZIndex()]).toEqual([0.4, LAYER_Z_BASE + 4])
    wrapper.unmount()
    expect(olLayers()).toEqual([])
    expect(store.entries).toEqual([])
  })

  // (Heatmaps need a canvas and WebGL, which happy-dom lacks: test/e2e/layers.e2e.ts draws one in Chromium.)
  it('draws decluttered labels by a field beside the points', async () => {
    const { layer } = mountLayer()
    await flushPromises()
    const store = useLayersStore()
    store.setStyle('test.points', {
      ...singleStyle('#112233', 'point'),
      labels: { field: 'name', size: 12, colour: '#111111', halo: '#ffffff' },
    })
    await flushPromises()
    const labels = olLayers().find((l) => l !== layer) as VectorLayer
    expect(labels.getDeclutter()).toBeTruthy()
    expect(labels.getZIndex()).toBe(layer.getZIndex()! + 2)
    store.setStyle('test.points', singleStyle('#112233', 'point'))
    await flushPromises()
    expect(olLayers()).toEqual([layer])
  })

  it('joins the list only while its definition says so', async () => {
    const { shown } = mountLayer(ref(false))
    await flushPromises()
    const store = useLayersStore()
    expect(store.entries).toEqual([])
    shown.value = true
    await flushPromises()
    expect(store.entries.map((e) => e.id)).toEqual(['test.points'])
  })
})
