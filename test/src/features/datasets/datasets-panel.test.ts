import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia, type Pinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fail, geoError, ok, type Dataset, type Result } from '@contract/index'
import * as bridge from '../../../../src/bridge'
import DatasetsPanel from '../../../../src/features/datasets/DatasetsPanel.vue'
import { useDatasetsStore } from '../../../../src/features/datasets/datasets-store'
import type { FakeGeo } from '../../support/fake-geo'
import { getByRole, queryAllByRole } from '../../support/query'

vi.mock('../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake
let pinia: Pinia
let wrapper: VueWrapper | null = null

const STATES: Dataset = {
  layername: 'india_states',
  geometrytype: 'MULTIPOLYGON',
  source: 'local',
  fields: [
    { name: 'name', type: 'string' },
    { name: 'iso', type: 'string' },
  ],
  featureCount: 37,
  local: true,
}
const CITIES: Dataset = { layername: 'india_cities', geometrytype: 'POINT', featureCount: 3502, local: true }
const REMOTE: Dataset = { layername: 'parcels', local: false }

const pointsGeoJson = JSON.stringify({
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { name: 'Delhi' },
      geometry: { type: 'Point', coordinates: [77.2, 28.6] },
    },
  ],
})

async function mountPanel() {
  wrapper = mount(DatasetsPanel, { attachTo: document.body, global: { plugins: [pinia] } })
  await flushPromises()
}

const button = (name: string) => getByRole<HTMLButtonElement>(document.body, 'button', name)
const items = (list: string) => [...getByRole(document.body, 'list', list).querySelectorAll(':scope > li')]
const names = (list: string) => items(list).map((li) => li.getAttribute('aria-label'))

function chooseFile(file: File) {
  const input = document.querySelector<HTMLInputElement>('input[aria-label="Dataset file to import"]')!
  Object.defineProperty(input, 'files', { value: [file], configurable: true })
  input.dispatchEvent(new Event('change'))
}

describe('DatasetsPanel', () => {
  beforeEach(() => {
    fake.reset()
    fake.state.datasets = [STATES, CITIES, REMOTE]
    fake.state.features.set('india_cities', pointsGeoJson)
    fake.state.features.set(
      'india_states',
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            properties: { name: 'Goa' },
            geometry: {
              type: 'Polygon',
              coordinates: [
                [
                  [74, 15],
                  [74.3, 15],
                  [74.3, 15.8],
                  [74, 15],
                ],
              ],
            },
          },
        ],
      }),
    )
    pinia = createPinia()
    setActivePinia(pinia)
  })
  afterEach(() => {
    wrapper?.unmount()
    wrapper = null
    document.body.innerHTML = ''
  })

  it('lists the datasets with geometry type, source, feature count and fields', async () => {
    await mountPanel()
    getByRole(document.body, 'region', 'Datasets')
    expect(names('Datasets')).toEqual(['india_states', 'india_cities', 'parcels'])
    const [states, cities, remote] = items('Datasets')
    expect(states!.textContent).toContain('MULTIPOLYGON · source local · 37 features')
    expect(getByRole(states!, 'list', 'Fields of india_states').textContent).toMatch(
      /name\s*string\s*iso\s*string/,
    )
    expect(cities!.textContent).toContain('POINT · 3,502 features')
    expect(remote!.textContent).toContain('geometry type not given')
    // Only local datasets can be shown on the map.
    expect(
      queryAllByRole(document.body, 'button', /^Show .* on map$/).map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Show india_states on map', 'Show india_cities on map'])
  })

  it('refreshes on the button, on datasets.changed, and when the active profile changes', async () => {
    await mountPanel()
    const layers = vi.mocked(fake.geo['gis.layers'])
    expect(layers).toHaveBeenCalledTimes(1)
    fake.state.datasets = [CITIES]
    button('Refresh datasets').click()
    await flushPromises()
    expect(names('Datasets')).toEqual(['india_cities'])

    fake.state.datasets = [CITIES, { layername: 'new_one', local: true }]
    fake.emit('datasets.changed', { reason: 'import' })
    await flushPromises()
    expect(names('Datasets')).toEqual(['india_cities', 'new_one'])
    expect(layers).toHaveBeenCalledTimes(3)

    // Same profile: nothing to refresh; another profile: its datasets.
    fake.emit('settings.changed', fake.state.view)
    await flushPromises()
    expect(layers).toHaveBeenCalledTimes(3)
    fake.state.datasets = [REMOTE]
    fake.emit('settings.changed', { ...fake.state.view, activeProfile: 'Cloud' })
    await flushPromises()
    expect(layers).toHaveBeenCalledTimes(4)
    expect(names('Datasets')).toEqual(['parcels'])
  })

  it('explains a failed listing with its next step', async () => {
    fake.failNext('gis.layers', geoError('authentication', 'The GIS token was refused (401)'))
    await mountPanel()
    const alert = getByRole(document.body, 'alert', /The GIS token was refused/)
    expect(alert.textContent).toContain('Re-enter the credential')
  })

  it('shows local datasets on the map, each in its own colour, with a legend', async () => {
    await mountPanel()
    const store = useDatasetsStore()
    button('Show india_cities on map').click()
    await flushPromises()
    expect(fake.geo['datasets.features']).toHaveBeenCalledWith({ name: 'india_cities' })
    expect(button('Show india_cities on map').getAttribute('aria-pressed')).toBe('true')
    expect(names('Legend')).toEqual(['india_cities: POINT'])
    expect(items('Legend')[0]!.textContent).toContain('POINT · 1')
    button('Show india_states on map').click()
    await flushPromises()
    expect(names('Legend')).toEqual(['india_cities: POINT', 'india_states: MULTIPOLYGON'])
    expect(store.shown.map((s) => s.family)).toEqual(['point', 'polygon'])
    expect(new Set(store.shown.map((s) => s.colour)).size).toBe(2)
    button('Show india_cities on map').click()
    await flushPromises()
    expect(names('Legend')).toEqual(['india_states: MULTIPOLYGON'])
    expect(button('Show india_cities on map').getAttribute('aria-pressed')).toBe('false')
  })

  it('says why a dataset cannot be shown', async () => {
    fake.state.features.delete('india_cities')
    await mountPanel()
    button('Show india_cities on map').click()
    await flushPromises()
    expect(getByRole(document.body, 'alert', /no local dataset named "india_cities"/).textContent).toContain(
      'Check the name or address',
    )
    expect(queryAllByRole(document.body, 'list', 'Legend')).toHaveLength(0)
  })

  it('imports a chosen file by the reference the host gives for it, with a progress bar, then lists it', async () => {
    await mountPanel()
    let release: (value: Result<Dataset>) => void = () => {}
    let sent: { file: string } | null = null
    fake.respond('datasets.import', ((request: { file: string }) => {
      sent = request
      return new Promise<Result<Dataset>>((resolve) => (release = resolve))
    }) as never)
    const file = new File([JSON.stringify({ type: 'FeatureCollection', features: [] })], 'wells.geojson', {
      type: 'application/geo+json',
    })
    chooseFile(file)
    await vi.waitFor(() => expect(sent).not.toBeNull())
    const bar = getByRole(document.body, 'progressbar', 'Importing wells.geojson')
    expect(bar.getAttribute('aria-valuetext')).toBe('Importing wells.geojson…')
    // The File object itself went to the host (no copy read here); the import names its reference.
    expect(fake.geoFiles.offerForImport).toHaveBeenCalledWith(file)
    expect(fake.offered.get(sent!.file)).toBe(file)
    expect(button('Import file').disabled).toBe(true)

    const wells: Dataset = { layername: 'wells', geometrytype: 'POINT', featureCount: 12, local: true }
    fake.state.datasets = [...fake.state.datasets, wells]
    release(ok(wells))
    await flushPromises()
    expect(queryAllByRole(document.body, 'progressbar', /.*/)).toHaveLength(0)
    getByRole(document.body, 'status', 'Imported wells (12 features)')
    expect(names('Datasets')).toContain('wells')
  })

  it('states the import limit and refuses a bigger file before sending it', async () => {
    await mountPanel()
    expect(document.body.textContent).toMatch(/up to 256 MiB/)
    const big = new File(['x'], 'huge.geojson')
    Object.defineProperty(big, 'size', { value: 300 * 1024 * 1024 })
    chooseFile(big)
    await flushPromises()
    getByRole(document.body, 'alert', /huge\.geojson: 300 MiB is over the 256 MiB import limit/)
    expect(fake.geoFiles.offerForImport).not.toHaveBeenCalled()
  })

  it('says what the host answered when it does not take the file', async () => {
    await mountPanel()
    fake.geoFiles.offerForImport.mockResolvedValueOnce(
      fail('validation', 'wells.geojson is larger than the 256 MiB the browser host accepts', {
        status: 413,
      }),
    )
    chooseFile(new File(['{}'], 'wells.geojson'))
    await vi.waitFor(() =>
      getByRole(document.body, 'alert', /^wells\.geojson was not imported: wells\.geojson is larger than/),
    )
    expect(fake.geo['datasets.import']).not.toHaveBeenCalled()
  })

  it('refuses a file type the workspace cannot import, and explains a failed import', async () => {
    await mountPanel()
    chooseFile(new File(['hello'], 'notes.txt'))
    await flushPromises()
    const refused = getByRole(document.body, 'alert', /notes\.txt: only \.geojson, .* can be imported/)
    expect(refused.textContent).toContain('Correct the field named in the message')
    expect(fake.geo['datasets.import']).not.toHaveBeenCalled()

    fake.failNext('datasets.import', geoError('conflict', 'a dataset named "wells" already exists'))
    chooseFile(new File(['{}'], 'wells.geojson'))
    await vi.waitFor(() =>
      getByRole(
        document.body,
        'alert',
        /^wells\.geojson was not imported: a dataset named "wells" already exists/,
      ),
    )
    expect(document.body.textContent).toContain('reconcile before writing again')
  })

  it('imports a file dropped onto the panel', async () => {
    await mountPanel()
    const file = new File(['{"type":"FeatureCollection","features":[]}'], 'dropped.geojson')
    const drop = new Event('drop', { bubbles: true, cancelable: true })
    Object.defineProperty(drop, 'dataTransfer', { value: { files: [file], types: ['Files'] } })
    getByRole(document.body, 'region', 'Datasets').dispatchEvent(drop)
    await vi.waitFor(() => expect(fake.geo['datasets.import']).toHaveBeenCalledTimes(1))
    expect(fake.geoFiles.offerForImport).toHaveBeenCalledWith(file)
    await vi.waitFor(() => getByRole(document.body, 'status', 'Imported dropped'))
  })
})
