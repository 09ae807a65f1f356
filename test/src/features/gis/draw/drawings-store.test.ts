import type { Polygon } from 'geojson'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { geoError } from '@contract/index'
import * as bridge from '../../../../../src/bridge'
import { AUTOSAVE_DELAY_MS, useDrawingsStore } from '../../../../../src/features/gis/draw/drawings-store'
import type { FakeGeo } from '../../../support/fake-geo'

vi.mock('../../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake

const square = (lon = 77, lat = 28, size = 1): Polygon => ({
  type: 'Polygon',
  coordinates: [
    [
      [lon, lat],
      [lon + size, lat],
      [lon + size, lat + size],
      [lon, lat + size],
      [lon, lat],
    ],
  ],
})
const bowTie: Polygon = {
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
}

function saveCalls() {
  return vi.mocked(fake.geo['drawings.save']).mock.calls
}

describe('useDrawingsStore', () => {
  beforeEach(() => {
    fake.reset()
    setActivePinia(createPinia())
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('adds shapes named by kind with their geodesic measure, in WGS84 GeoJSON', () => {
    const store = useDrawingsStore()
    const a = store.add('polygon', square())
    const b = store.add('polygon', square(80))
    const line = store.add('line', {
      type: 'LineString',
      coordinates: [
        [0, 0],
        [1, 0],
      ],
    })
    expect(store.labels[a]).toMatch(/^Polygon 1 · 10,8\d\d\.\d km²$/)
    expect(store.labels[b]).toMatch(/^Polygon 2 · /)
    expect(store.labels[line]).toBe('Line 1 · 111.3 km')
    expect(store.collection.type).toBe('FeatureCollection')
    expect(store.collection.features.map((f) => f.id)).toEqual([a, b, line])
    expect(store.collection.features[0]!.geometry).toEqual(square())
  })

  it('winds polygons counter-clockwise (RFC 7946) whatever the drawing direction', () => {
    const store = useDrawingsStore()
    const clockwise: Polygon = { type: 'Polygon', coordinates: [[...square().coordinates[0]!].reverse()] }
    const id = store.add('polygon', clockwise)
    expect(store.shape(id)!.geometry).toEqual(square())
  })

  it('undoes and redoes every change as one step', () => {
    const store = useDrawingsStore()
    const id = store.add('polygon', square())
    store.updateGeometries([{ id, geometry: square(79) }])
    store.remove([id])
    expect(store.shapes).toHaveLength(0)
    expect(store.undo()).toBe(true)
    expect(store.shape(id)!.geometry).toEqual(square(79))
    expect(store.undo()).toBe(true)
    expect(store.shape(id)!.geometry).toEqual(square())
    expect(store.undo()).toBe(true)
    expect(store.shapes).toHaveLength(0)
    expect(store.undo()).toBe(false)
    expect(store.canRedo).toBe(true)
    store.redo()
    store.redo()
    expect(store.shape(id)!.geometry).toEqual(square(79))
    // A new change after undo drops what could have been redone.
    store.undo()
    store.add('point', { type: 'Point', coordinates: [77, 28] })
    expect(store.canRedo).toBe(false)
  })

  it('leaves history untouched when an edit changes nothing', () => {
    const store = useDrawingsStore()
    const id = store.add('polygon', square())
    store.updateGeometries([{ id, geometry: square() }])
    store.undo()
    expect(store.shapes).toHaveLength(0)
  })

  it('selects by click, adds with Shift, deletes the selection and drops deleted ids', () => {
    const store = useDrawingsStore()
    const a = store.add('polygon', square())
    const b = store.add('polygon', square(80))
    const c = store.add('point', { type: 'Point', coordinates: [77, 28] })
    store.select(a)
    store.select(b)
    expect(store.selectedIds).toEqual([b])
    store.select(c, true)
    expect(store.selectedIds).toEqual([b, c])
    expect(store.selectedCollection().features.map((f) => f.id)).toEqual([b, c])
    store.select(b, true)
    expect(store.selectedIds).toEqual([c])
    store.select(b, true)
    store.deleteSelected()
    expect(store.shapes.map((s) => s.id)).toEqual([a])
    expect(store.selectedIds).toEqual([])
    store.undo()
    expect(store.shapes.map((s) => s.id)).toEqual([a, b, c])
  })

  it('flags a self-intersecting polygon by name until it is fixed', () => {
    const store = useDrawingsStore()
    const ok = store.add('polygon', square())
    const bad = store.add('polygon', bowTie)
    expect(store.problems[ok]).toBeUndefined()
    expect(store.problems[bad]).toEqual([expect.stringMatching(/^Polygon 2 crosses itself/)])
    expect(store.problemMessages).toHaveLength(1)
    store.updateGeometries([{ id: bad, geometry: square(90) }])
    expect(store.problems).toEqual({})
  })

  it('stores a circle as a 64-vertex polygon keeping its centre and radius, updated on a move', () => {
    const store = useDrawingsStore()
    const id = store.addCircle([77.2, 28.6], 5000)
    const circle = store.shape(id)!
    expect(circle.geometry.type).toBe('Polygon')
    expect((circle.geometry as Polygon).coordinates[0]).toHaveLength(65)
    expect(circle.properties).toMatchObject({
      name: 'Circle 1',
      shape: 'circle',
      vertices: 64,
      radiusMetres: 5000,
    })
    expect(store.labels[id]).toMatch(/^Circle 1 · r 5\.00 km · 78\.3 km²$/)
    const moved: Polygon = {
      type: 'Polygon',
      coordinates: [(circle.geometry as Polygon).coordinates[0]!.map(([lon, lat]) => [lon! + 1, lat!])],
    }
    store.updateGeometries([{ id, geometry: moved }])
    expect(store.shape(id)!.properties.center![0]).toBeCloseTo(78.2, 3)
    expect(store.shape(id)!.properties.radiusMetres).toBeCloseTo(5000, -1)
  })

  it('autosaves once, 400 ms after the last of several quick changes', async () => {
    const store = useDrawingsStore()
    store.add('polygon', square())
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS - 100)
    store.add('polygon', square(80))
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS - 100)
    expect(saveCalls()).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(100)
    expect(saveCalls()).toHaveLength(1)
    expect(fake.state.drawings.features).toHaveLength(2)
    expect(store.savedAt).toBe('2026-11-22T10:15:00.000Z')
  })

  it('keeps shapes after a failed save, shows the error, and saves them on the next change', async () => {
    const store = useDrawingsStore()
    fake.failNext('drawings.save', geoError('local-configuration', 'disk full while saving drawings'))
    const first = store.add('polygon', square())
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS)
    expect(store.saveError?.message).toBe('disk full while saving drawings')
    expect(store.shapes.map((s) => s.id)).toEqual([first])
    expect(fake.state.drawings.features).toHaveLength(0)
    store.add('point', { type: 'Point', coordinates: [77, 28] })
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS)
    expect(store.saveError).toBeNull()
    expect(fake.state.drawings.features).toHaveLength(2)
  })

  it('saves at once on flush (pagehide) without waiting for the debounce', async () => {
    const store = useDrawingsStore()
    store.add('polygon', square())
    await store.flush()
    expect(saveCalls()).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 2)
    expect(saveCalls()).toHaveLength(1)
  })

  it('loads saved drawings with their names and ids, without an undo step or a save', async () => {
    fake.state.drawings = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          id: 'saved-1',
          properties: { name: 'Polygon 4', shape: 'polygon' },
          geometry: square(),
        },
        { type: 'Feature', properties: null, geometry: { type: 'Point', coordinates: [77, 28] } },
      ],
    }
    const store = useDrawingsStore()
    await store.load()
    expect(store.shapes.map((s) => s.properties.name)).toEqual(['Polygon 4', 'Imported 1'])
    expect(store.shapes[0]!.id).toBe('saved-1')
    expect(store.canUndo).toBe(false)
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 2)
    expect(saveCalls()).toHaveLength(0)
    expect(store.labels['saved-1']).toMatch(/^Polygon 4 · /)
    store.add('polygon', square(80))
    expect(store.shapes[2]!.properties.name).toBe('Polygon 5')
  })

  it('imports shapes from a GeoJSON file as one undo step and explains a bad file', async () => {
    vi.useRealTimers()
    const store = useDrawingsStore()
    const text = JSON.stringify({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: { name: 'Zone A' }, geometry: square() },
        { type: 'Feature', properties: {}, geometry: square(80) },
      ],
    })
    const ids = await store.importFile(new File([text], 'zones.geojson', { type: 'application/geo+json' }))
    expect(ids).toHaveLength(2)
    expect(store.shapes.map((s) => s.properties.name)).toEqual(['Zone A', 'Imported 1'])
    expect(store.selectedIds).toEqual(ids)
    expect(store.boxOf(ids)).toEqual([77, 28, 81, 29])
    const bad = await store.importFile(new File(['{"type":"Point","coordinates":[77]}'], 'bad.geojson'))
    expect(bad).toEqual([])
    expect(store.importError).toMatch(/^bad\.geojson: .*position/)
    expect(store.shapes).toHaveLength(2)
    store.undo()
    expect(store.shapes).toHaveLength(0)
  })
})
