import { screen, waitFor, within } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { geoError, ok, type Dataset } from '@contract/index'
import * as bridge from '../../../../../src/bridge'
import { useDrawingsStore } from '../../../../../src/features/gis/draw/drawings-store'
import LayersPanel from '../../../../../src/features/map/layers/LayersPanel.vue'
import { START_HERE_KEY } from '../../../../../src/features/map/layers/start-here'
import placesArea from '../../../../../src/features/places/area'
import { useShellStore } from '../../../../../src/features/shell/shell-store'
import type { FakeGeo } from '../../../support/fake-geo'
import { createTestApp, GIS_AREA, renderInApp } from '../../../support/render'

vi.mock('../../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})
const fake = (bridge as unknown as { fake: FakeGeo }).fake
const user = userEvent.setup()

const CITIES: Dataset = {
  layername: 'india_cities',
  geometrytype: 'POINT',
  featureCount: 2,
  local: true,
  fields: [
    { name: 'name', type: 'string' },
    { name: 'population', type: 'integer' },
  ],
}
const CITY_FEATURES = JSON.stringify({
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { name: 'Delhi' },
      geometry: { type: 'Point', coordinates: [77.2, 28.6] },
    },
    { type: 'Feature', properties: { name: 'Pune' }, geometry: { type: 'Point', coordinates: [73.9, 18.5] } },
  ],
})
const GURGAON = {
  found: true,
  address: {
    remainingAddress: '',
    referentialInformation: { roads: 'MG Road', pincodes: '122001' },
    addressInformation: { adminDetails: { city: { originalName: 'Gurugram' } } },
    match: { level: 'city', placeName: 'Gurugram', latitude: 28.46, longitude: 77.03, eLoc: 'GUR001' },
  },
}

/** The Layers panel of an app with spatial analytics and places, as on a fresh profile. */
function renderPanel() {
  return renderInApp(LayersPanel, { app: createTestApp([GIS_AREA, placesArea]) })
}

const startHere = () => screen.queryByRole('region', { name: 'Start here' })
const step = (title: string) =>
  within(screen.getByRole('list', { name: 'First steps' }))
    .getAllByRole('listitem')
    .find((li) => li.textContent?.includes(title))!
const saved = () => JSON.parse(localStorage.getItem(START_HERE_KEY) ?? 'null')

describe('Start here, the first run in the Layers panel', () => {
  beforeEach(() => {
    fake.reset()
    localStorage.clear()
    fake.state.datasets = [CITIES]
    fake.state.features.set('india_cities', CITY_FEATURES)
  })

  it('does three real things on the sample data through the shell, marks each done, then goes', async () => {
    renderPanel()
    const region = startHere()!
    expect(within(region).getByRole('heading', { name: 'Start here' })).toBeTruthy()
    expect(within(region).getAllByRole('listitem')).toHaveLength(3)

    // 1. A dataset on the map.
    await user.click(within(region).getByRole('button', { name: 'Show the sample cities' }))
    await waitFor(() => expect(step('See a dataset on the map').textContent).toContain('Done'))
    expect(fake.geo['datasets.features']).toHaveBeenCalledWith({ name: 'india_cities' })
    expect(saved()).toEqual({ done: ['dataset'], dismissed: false })
    // Focus moves on to the next thing to do.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Join cities in a circle' }))

    // 2. A join on a drawn shape: a circle is drawn (and kept), the join runs with it.
    await user.click(screen.getByRole('button', { name: 'Join cities in a circle' }))
    await waitFor(() => expect(step('Join it with a drawn shape').textContent).toContain('Done'))
    expect(useDrawingsStore().shapes.map((s) => s.properties.name)).toEqual(['Circle 1'])
    const joined = vi.mocked(fake.geo['gis.join']).mock.calls[0]![0] as unknown as {
      params: Record<string, unknown>
      body: { features: Array<{ properties: { name: string } }> }
    }
    expect(joined.params).toMatchObject({
      queryType: 'spatialOperation',
      datasetSource: 'india_cities',
      operator: 'Intersects',
      userGeom: true,
      selectionParamSource: 'name,population,geom',
    })
    expect(joined.body.features.map((f) => f.properties.name)).toEqual(['Circle 1'])

    // 3. An address standardized in Places (the area opens there); then Start here is gone for good.
    fake.respond('places.standardize', () => ok(GURGAON))
    await user.click(screen.getByRole('button', { name: 'Standardize a sample address' }))
    await waitFor(() => expect(saved()?.done).toEqual(['dataset', 'join', 'address']))
    expect(fake.geo['places.standardize']).toHaveBeenCalledWith({
      address: 'Flat 302, MG Road, Gurgaon, Haryana PIN-122001',
    })
    expect(useShellStore().activeArea).toBe('places')
    await waitFor(() => expect(startHere()).toBeNull())
  })

  it('stays gone once dismissed, after a restart too', async () => {
    const first = renderPanel()
    await user.click(within(startHere()!).getByRole('button', { name: 'Dismiss' }))
    expect(startHere()).toBeNull()
    expect(saved()).toEqual({ done: [], dismissed: true })
    first.unmount()
    renderPanel()
    expect(startHere()).toBeNull()
  })

  it('keeps what was done across a restart, and says why a step failed without marking it done', async () => {
    localStorage.setItem(START_HERE_KEY, JSON.stringify({ done: ['dataset'], dismissed: false }))
    fake.failNext('places.standardize', geoError('provider-unavailable', 'The local service did not answer'))
    renderPanel()
    expect(step('See a dataset on the map').textContent).toContain('Done')
    await user.click(screen.getByRole('button', { name: 'Standardize a sample address' }))
    const alert = await within(step('Standardize an address')).findByRole('alert')
    expect(alert.textContent).toContain('The local service did not answer')
    expect(step('Standardize an address').textContent).not.toContain('Done')
    expect(saved()).toEqual({ done: ['dataset'], dismissed: false })
  })
})
