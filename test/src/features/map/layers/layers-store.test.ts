import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { nextTick } from 'vue'
import type { LayerDefinition } from '../../../../../src/features/map/layers/layer-model'
import { bindLayer } from '../../../../../src/features/map/layers/layer-runtime'
import {
  LAYERS_STORAGE_KEY,
  readSavedLayers,
  useLayersStore,
} from '../../../../../src/features/map/layers/layers-store'
import { singleStyle } from '../../../../../src/features/map/layers/symbology'

function dataset(name: string): LayerDefinition {
  return {
    id: `gis.dataset:${name}`,
    title: name,
    kind: 'dataset',
    area: 'gis',
    ref: name,
    geometry: 'point',
    defaultStyle: singleStyle('#0072b2', 'point'),
    removable: true,
  }
}

const basemap: LayerDefinition = {
  id: 'map.basemap',
  title: 'Basemap',
  kind: 'basemap',
  area: 'map',
  geometry: 'raster',
  defaultStyle: null,
  pinned: 'bottom',
}

describe('the layers store', () => {
  beforeEach(() => {
    localStorage.clear()
    setActivePinia(createPinia())
  })

  it('lists new layers on top, keeps the basemap last, and moves layers by index or step', () => {
    const layers = useLayersStore()
    layers.register(basemap)
    layers.register(dataset('a'))
    layers.register(dataset('b'))
    layers.register(dataset('c'))
    const ids = () => layers.entries.map((e) => e.id.replace('gis.dataset:', ''))
    expect(ids()).toEqual(['c', 'b', 'a', 'map.basemap'])
    layers.moveTo('gis.dataset:a', 0)
    expect(ids()).toEqual(['a', 'c', 'b', 'map.basemap'])
    layers.moveBy('gis.dataset:a', 1)
    expect(ids()).toEqual(['c', 'a', 'b', 'map.basemap'])
    layers.moveBy('gis.dataset:b', 5)
    expect(ids()).toEqual(['c', 'a', 'b', 'map.basemap'])
    layers.moveTo('map.basemap', 0)
    expect(ids().at(-1)).toBe('map.basemap')
  })

  it('keeps the user’s choices, remembers a style when a layer goes and comes back, and removes through its area', () => {
    const layers = useLayersStore()
    layers.register(dataset('a'))
    layers.setOpacity('gis.dataset:a', 0.456)
    layers.rename('gis.dataset:a', '  Wells  ')
    layers.setVisible('gis.dataset:a', false)
    expect(layers.entries[0]).toMatchObject({ title: 'Wells', opacity: 0.46, visible: false })
    expect(() =>
      layers.setStyle('gis.dataset:a', { symbol: { kind: 'single' }, labels: null } as never),
    ).toThrow(/not a layer style/)
    layers.unregister('gis.dataset:a')
    expect(layers.entries).toEqual([])
    layers.register(dataset('a'))
    expect(layers.entries[0]).toMatchObject({ title: 'Wells', opacity: 0.46 })
    const remove = vi.fn()
    bindLayer('gis.dataset:a', { remove })
    layers.remove('gis.dataset:a')
    expect(remove).toHaveBeenCalledOnce()
  })

  it('is kept between runs: order, titles, opacity and styles, each layer checked on its own', async () => {
    const first = useLayersStore()
    first.register(basemap)
    first.register(dataset('a'))
    first.register(dataset('b'))
    first.setOpacity('gis.dataset:a', 0.5)
    await nextTick()
    const saved = JSON.parse(localStorage.getItem(LAYERS_STORAGE_KEY)!)
    saved.layers.push({ id: 'broken', opacity: 7 })
    localStorage.setItem(LAYERS_STORAGE_KEY, JSON.stringify(saved))
    expect(readSavedLayers().map((l) => l.id)).toEqual(['gis.dataset:b', 'gis.dataset:a', 'map.basemap'])

    setActivePinia(createPinia())
    const next = useLayersStore()
    expect(next.restored).toBe(true)
    // Nothing is on the map yet: all three are pending, for their areas to bring back.
    expect(next.pendingLayers.map((l) => l.ref ?? l.id)).toEqual(['b', 'a', 'map.basemap'])
    next.register(basemap)
    next.register(dataset('a'))
    expect(next.entries.map((e) => e.id)).toEqual(['gis.dataset:a', 'map.basemap'])
    expect(next.entries[0]!.opacity).toBe(0.5)
    next.register(dataset('b'))
    // b comes back above a, where it was, not on top of whatever came first.
    expect(next.entries.map((e) => e.id)).toEqual(['gis.dataset:b', 'gis.dataset:a', 'map.basemap'])
  })

  it('brings back a list kept while the telematics area was `fleet`: same layers, order and choices', () => {
    const style = singleStyle('#d55e00', 'polygon')
    const kept = (id: string, area: string, extra: object) => ({
      id,
      title: id,
      kind: 'devices',
      area,
      visible: true,
      opacity: 1,
      style: null,
      ...extra,
    })
    // As an earlier version wrote it.
    localStorage.setItem(
      LAYERS_STORAGE_KEY,
      JSON.stringify({
        version: 1,
        layers: [
          kept('fleet.devices', 'fleet', { title: 'My vans', visible: false, opacity: 0.4 }),
          kept('fleet.geofences', 'fleet', {
            title: 'Zones',
            kind: 'geofences',
            ref: 'zones',
            opacity: 0.6,
            style,
          }),
          kept('map.basemap', 'map', { title: 'Basemap', kind: 'basemap' }),
        ],
      }),
    )
    const layers = useLayersStore()
    expect(layers.restored).toBe(true)
    expect(layers.pendingLayers.map((l) => [l.id, l.area])).toEqual([
      ['telematics.devices', 'telematics'],
      ['telematics.geofences', 'telematics'],
      ['map.basemap', 'map'],
    ])
    // The telematics area registers its layers under its name: the saved choices are theirs.
    layers.register(basemap)
    layers.register({
      id: 'telematics.geofences',
      title: 'Geofences (zones)',
      kind: 'geofences',
      area: 'telematics',
      ref: 'zones',
      geometry: 'polygon',
      defaultStyle: singleStyle('#000000', 'polygon'),
    })
    layers.register({
      id: 'telematics.devices',
      title: 'Fleet (simulated)',
      kind: 'devices',
      area: 'telematics',
      geometry: 'point',
      defaultStyle: null,
    })
    expect(layers.entries.map((e) => [e.id, e.title, e.visible, e.opacity])).toEqual([
      ['telematics.devices', 'My vans', false, 0.4],
      ['telematics.geofences', 'Zones', true, 0.6],
      ['map.basemap', 'Basemap', true, 1],
    ])
    expect(layers.entries[1]!.style).toEqual(style)
  })

  it('takes a project’s list: removes what it does not list, leaves pending what is not on the map', () => {
    const layers = useLayersStore()
    const removeC = vi.fn()
    layers.register(basemap)
    layers.register(dataset('c'))
    bindLayer('gis.dataset:c', { remove: removeC })
    const style = singleStyle('#ff0000', 'point')
    const pending = layers.applyLayers([
      {
        id: 'gis.dataset:a',
        title: 'A',
        kind: 'dataset',
        area: 'gis',
        ref: 'a',
        visible: true,
        opacity: 0.3,
        style,
      },
      {
        id: 'map.basemap',
        title: 'Basemap',
        kind: 'basemap',
        area: 'map',
        visible: false,
        opacity: 1,
        style: null,
      },
    ])
    expect(removeC).toHaveBeenCalledOnce()
    expect(pending.map((l) => l.id)).toEqual(['gis.dataset:a'])
    expect(layers.entries.find((e) => e.id === 'map.basemap')!.visible).toBe(false)
    layers.register(dataset('a'))
    expect(layers.entries.find((e) => e.id === 'gis.dataset:a')).toMatchObject({
      title: 'A',
      opacity: 0.3,
      style,
    })
    // c's area did not take it off (a stand-in here): it stays listed, below the project's layers.
    expect(layers.snapshot().map((l) => l.id)).toEqual(['gis.dataset:a', 'gis.dataset:c', 'map.basemap'])
    layers.unregister('gis.dataset:c')
    expect(layers.snapshot().map((l) => l.id)).toEqual(['gis.dataset:a', 'map.basemap'])
  })
})
