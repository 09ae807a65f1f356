import { beforeEach, describe, expect, it, vi } from 'vitest'
import { PROJECT_FORMAT, PROJECT_VERSION, type Project } from '@contract/index'
import * as bridge from '../../../../../src/bridge'
import { useLayersStore } from '../../../../../src/features/map/layers/layers-store'
import { singleStyle } from '../../../../../src/features/map/layers/symbology'
import { useMapStore } from '../../../../../src/features/map/view/map-store'
import { useProjectStore } from '../../../../../src/features/map/project/project-store'
import { defineArea } from '../../../../../src/features/shell/shell'
import type { FakeGeo } from '../../../support/fake-geo'
import { createTestApp } from '../../../support/render'

vi.mock('../../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, fake }
})
const fake = (bridge as unknown as { fake: FakeGeo }).fake

function testArea() {
  const opened: string[] = []
  const parts: unknown[] = []
  const area = defineArea({
    id: 'gis',
    title: 'Test',
    icon: '',
    openLayers: (layers) => {
      opened.push(...layers.map((l) => l.id))
      // One comes back (its component registers it), one cannot.
      useLayersStore().register({
        id: 'gis.dataset:a',
        title: 'a',
        kind: 'dataset',
        area: 'gis',
        geometry: 'point',
        defaultStyle: singleStyle('#000000', 'point'),
      })
      return ['gis.dataset:gone']
    },
    project: {
      save: () => ({ drawings: { type: 'FeatureCollection', features: [] } }),
      open: (part) => void parts.push(part),
    },
  })
  return { area, opened, parts }
}

const style = singleStyle('#ff0000', 'point')
const project: Project = {
  format: PROJECT_FORMAT,
  version: PROJECT_VERSION,
  title: 'Study',
  savedAt: '2025-01-01T00:00:00Z',
  view: { center: [77, 28], zoom: 7, rotation: 0 },
  layers: [
    {
      id: 'gis.dataset:a',
      title: 'A layer',
      kind: 'dataset',
      area: 'gis',
      ref: 'a',
      visible: true,
      opacity: 0.5,
      style,
    },
    {
      id: 'gis.dataset:gone',
      title: 'Gone',
      kind: 'dataset',
      area: 'gis',
      ref: 'gone',
      visible: true,
      opacity: 1,
      style,
    },
  ],
  areas: { gis: { drawings: { type: 'FeatureCollection', features: [] } } },
}

describe('projects in the renderer', () => {
  beforeEach(() => {
    fake.reset()
    localStorage.clear()
  })

  it('saves what is on screen and opens it again: layers, the areas’ parts, the view', async () => {
    const { area, opened, parts } = testArea()
    const { shell } = createTestApp([area])
    const store = useProjectStore()
    fake.state.projects.set('Study', project)
    expect(await store.open(shell, 'Study')).toBe(true)
    expect(opened).toEqual(['gis.dataset:a', 'gis.dataset:gone'])
    expect(parts).toEqual([project.areas['gis']])
    expect(useLayersStore().entries).toMatchObject([{ id: 'gis.dataset:a', title: 'A layer', opacity: 0.5 }])
    expect(store.notice).toBe('A layer could not be shown again: Gone.')
    expect(useMapStore().centerRequest).toMatchObject({ center: [77, 28], zoom: 7 })
    expect(store.title).toBe('Study')

    useMapStore().setView([78, 20], 5)
    expect(await store.save(shell, 'Copy')).toBe(true)
    const saved = fake.state.projects.get('Copy')!
    expect(saved.view).toEqual({ center: [78, 20], zoom: 5, rotation: 0 })
    expect(saved.layers.map((l) => [l.id, l.opacity])).toEqual([['gis.dataset:a', 0.5]])
    expect(saved.areas).toEqual({ gis: { drawings: { type: 'FeatureCollection', features: [] } } })
  })

  it('opens a file saved while the telematics area was `fleet`: its layers come back with their choices', async () => {
    const telematics = defineArea({ id: 'telematics', title: 'Fleet', icon: '' })
    const gis = defineArea({
      id: 'gis',
      title: 'Test',
      icon: '',
      openLayers: () => {
        useLayersStore().register({
          id: 'gis.dataset:a',
          title: 'a',
          kind: 'dataset',
          area: 'gis',
          geometry: 'point',
          defaultStyle: style,
        })
        return []
      },
    })
    const { shell } = createTestApp([gis, telematics])
    const store = useProjectStore()
    // As an earlier version wrote it: the fleet's geofences, hidden, at 0.3, with a red outline.
    const old = {
      ...project,
      layers: [
        {
          id: 'fleet.geofences',
          title: 'Depots',
          kind: 'geofences',
          area: 'fleet',
          ref: 'zones',
          visible: false,
          opacity: 0.3,
          style: singleStyle('#ff0000', 'polygon'),
        },
        project.layers[0]!,
      ],
    }
    const file = new File([JSON.stringify(old)], 'fleet.geoproject.json')
    expect(await store.openFile(shell, file)).toBe(true)
    expect(store.notice).toBe('Opened fleet.geoproject.json.')
    // The area draws its geofences when it is live, under its name now: the file's choices are theirs.
    useLayersStore().register({
      id: 'telematics.geofences',
      title: 'Geofences (zones)',
      kind: 'geofences',
      area: 'telematics',
      ref: 'zones',
      geometry: 'polygon',
      defaultStyle: singleStyle('#000000', 'polygon'),
    })
    expect(useLayersStore().entries).toMatchObject([
      {
        id: 'telematics.geofences',
        title: 'Depots',
        visible: false,
        opacity: 0.3,
        style: old.layers[0]!.style,
      },
      { id: 'gis.dataset:a', title: 'A layer', opacity: 0.5 },
    ])
    // Saved again, it is written under the area's name.
    expect(await store.save(shell, 'Again')).toBe(true)
    expect(fake.state.projects.get('Again')!.layers.map((l) => [l.id, l.area])).toEqual([
      ['telematics.geofences', 'telematics'],
      ['gis.dataset:a', 'gis'],
    ])
  })

  it('refuses a file from a newer version and changes nothing', async () => {
    const { area, opened } = testArea()
    const { shell } = createTestApp([area])
    const store = useProjectStore()
    const file = new File([JSON.stringify({ ...project, version: 9 })], 'next.geoproject.json')
    expect(await store.openFile(shell, file)).toBe(false)
    expect(store.error?.message).toMatch(
      /^next\.geoproject\.json was saved by a newer version of Geo Analyst/,
    )
    expect(opened).toEqual([])
    expect(useLayersStore().entries).toEqual([])
  })
})
