import { fireEvent, screen, waitFor, within } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fail, geoError, ok, type Dataset, type Result } from '@contract/index'
import * as bridge from '../../../../../src/bridge'
import DatasetsPanel from '../../../../../src/features/gis/datasets/DatasetsPanel.vue'
import { useDatasetsStore } from '../../../../../src/features/gis/datasets/datasets-store'
import type { FakeGeo } from '../../../support/fake-geo'
import { renderInApp } from '../../../support/render'
import { labelNotInName } from '../../../support/visible-names'

vi.mock('../../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake
// A person can pick any file in the chooser (its "All files" filter), not only the accepted types.
const user = userEvent.setup({ applyAccept: false })

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

/** The panel once it has listed the datasets. */
async function renderPanel() {
  renderInApp(DatasetsPanel)
  await waitFor(() => expect(fake.geo['gis.layers']).toHaveBeenCalled())
  await waitFor(() => expect(screen.queryByRole('status', { name: '' })).toBeNull())
}

const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name })
/** The list's own items (not those of nested lists), by their accessible names. */
const items = (list: string) => {
  const element = screen.getByRole('list', { name: list })
  return within(element)
    .getAllByRole('listitem')
    .filter((li) => li.parentElement === element)
}
const names = (list: string) => items(list).map((li) => li.getAttribute('aria-label'))
const alert = (text: RegExp) => screen.getAllByRole('alert').find((a) => text.test(a.textContent ?? ''))

async function chooseFile(file: File) {
  await user.upload(screen.getByLabelText('Dataset file to import'), file)
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
    localStorage.clear()
  })

  it('lists the datasets with geometry type, source, feature count and fields', async () => {
    await renderPanel()
    screen.getByRole('region', { name: 'Datasets' })
    expect(names('Datasets')).toEqual(['india_states', 'india_cities', 'parcels'])
    const [states, cities, remote] = items('Datasets')
    expect(states!.textContent).toContain('MULTIPOLYGON · source local · 37 features')
    expect(within(states!).getByRole('list', { name: 'Fields of india_states' }).textContent).toMatch(
      /name\s*string\s*iso\s*string/,
    )
    expect(cities!.textContent).toContain('POINT · 3,502 features')
    expect(remote!.textContent).toContain('geometry type not given')
    // Only local datasets can be shown on the map.
    expect(
      screen.queryAllByRole('button', { name: /^Show .* on map$/ }).map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Show india_states on map', 'Show india_cities on map'])
  })

  it('says who saved a dataset when the service records it (a team server), and nothing otherwise', async () => {
    fake.state.datasets = [{ ...REMOTE, owner: 'ann' }, CITIES]
    await renderPanel()
    const [parcels, cities] = items('Datasets')
    expect(within(parcels!).getByText('Saved by ann')).toBeTruthy()
    expect(cities!.textContent).not.toMatch(/Saved by/)
  })

  it('refreshes on the button, on datasets.changed, and when the active profile changes', async () => {
    await renderPanel()
    const layers = vi.mocked(fake.geo['gis.layers'])
    expect(layers).toHaveBeenCalledTimes(1)
    fake.state.datasets = [CITIES]
    await user.click(button('Refresh datasets'))
    await waitFor(() => expect(names('Datasets')).toEqual(['india_cities']))

    fake.state.datasets = [CITIES, { layername: 'new_one', local: true }]
    fake.emit('datasets.changed', { reason: 'import' })
    await waitFor(() => expect(names('Datasets')).toEqual(['india_cities', 'new_one']))
    expect(layers).toHaveBeenCalledTimes(3)

    // Same profile: nothing to refresh; another profile: its datasets.
    fake.emit('settings.changed', fake.state.view)
    fake.state.datasets = [REMOTE]
    fake.emit('settings.changed', { ...fake.state.view, activeProfile: 'Cloud' })
    await waitFor(() => expect(names('Datasets')).toEqual(['parcels']))
    expect(layers).toHaveBeenCalledTimes(4)
  })

  it('explains a failed listing with its next step', async () => {
    fake.failNext('gis.layers', geoError('authentication', 'The GIS token was refused (401)'))
    await renderPanel()
    const refused = await screen.findByRole('alert')
    expect(refused.textContent).toContain('The GIS token was refused')
    expect(refused.textContent).toContain('Re-enter the credential')
  })

  it('shows local datasets on the map, each in its own colour, with a legend', async () => {
    await renderPanel()
    const store = useDatasetsStore()
    await user.click(button('Show india_cities on map'))
    await waitFor(() => expect(button('Show india_cities on map').getAttribute('aria-pressed')).toBe('true'))
    expect(fake.geo['datasets.features']).toHaveBeenCalledWith({ name: 'india_cities' })
    expect(names('Legend')).toEqual(['india_cities: POINT'])
    expect(items('Legend')[0]!.textContent).toContain('POINT · 1')
    await user.click(button('Show india_states on map'))
    await waitFor(() =>
      expect(names('Legend')).toEqual(['india_cities: POINT', 'india_states: MULTIPOLYGON']),
    )
    expect(store.shown.map((s) => s.family)).toEqual(['point', 'polygon'])
    expect(new Set(store.shown.map((s) => s.colour)).size).toBe(2)
    await user.click(button('Show india_cities on map'))
    await waitFor(() => expect(names('Legend')).toEqual(['india_states: MULTIPOLYGON']))
    expect(button('Show india_cities on map').getAttribute('aria-pressed')).toBe('false')
  })

  it('keeps a toggle’s visible label in its name, shown or not (WCAG 2.5.3)', async () => {
    await renderPanel()
    await user.click(button('Show india_cities on map'))
    await waitFor(() => expect(button('Show india_cities on map').getAttribute('aria-pressed')).toBe('true'))
    expect(labelNotInName()).toEqual([])
  })

  it('says why a dataset cannot be shown', async () => {
    fake.state.features.delete('india_cities')
    await renderPanel()
    await user.click(button('Show india_cities on map'))
    const refused = await screen.findByRole('alert')
    expect(refused.textContent).toContain('no local dataset named "india_cities"')
    expect(refused.textContent).toContain('Check the name or address')
    expect(screen.queryByRole('list', { name: 'Legend' })).toBeNull()
  })

  it('imports a chosen file by the reference the host gives for it, with a progress bar, then lists it', async () => {
    await renderPanel()
    let release: (value: Result<Dataset>) => void = () => {}
    let sent: { file: string } | null = null
    fake.respond('datasets.import', ((request: { file: string }) => {
      sent = request
      return new Promise<Result<Dataset>>((resolve) => (release = resolve))
    }) as never)
    const file = new File([JSON.stringify({ type: 'FeatureCollection', features: [] })], 'wells.geojson', {
      type: 'application/geo+json',
    })
    await chooseFile(file)
    await waitFor(() => expect(sent).not.toBeNull())
    const bar = await screen.findByRole('progressbar', { name: 'Importing wells.geojson' })
    await waitFor(() => expect(bar.getAttribute('aria-valuetext')).toBe('Importing wells.geojson…'))
    // The File itself went to the host (no copy read here); the import names the reference it answered.
    expect(fake.geoFiles.offerForImport).toHaveBeenCalledTimes(1)
    const offered = fake.geoFiles.offerForImport.mock.calls[0]![0] as File
    expect(offered.name).toBe('wells.geojson')
    expect(fake.offered.get(sent!.file)).toBe(offered)
    expect(button('Import file').disabled).toBe(true)

    const wells: Dataset = { layername: 'wells', geometrytype: 'POINT', featureCount: 12, local: true }
    fake.state.datasets = [...fake.state.datasets, wells]
    release(ok(wells))
    await screen.findByText('Imported wells (12 features)')
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull())
    await waitFor(() => expect(names('Datasets')).toContain('wells'))
  })

  it('states the import limit and refuses a bigger file before sending it', async () => {
    await renderPanel()
    expect(screen.getByText(/up to 256 MiB/)).toBeTruthy()
    const big = new File(['x'], 'huge.geojson')
    Object.defineProperty(big, 'size', { value: 300 * 1024 * 1024 })
    await chooseFile(big)
    await waitFor(() =>
      expect(alert(/huge\.geojson: 300 MiB is over the 256 MiB import limit/)).toBeDefined(),
    )
    expect(fake.geoFiles.offerForImport).not.toHaveBeenCalled()
  })

  it('says what the host answered when it does not take the file', async () => {
    await renderPanel()
    fake.geoFiles.offerForImport.mockResolvedValueOnce(
      fail('validation', 'wells.geojson is larger than the 256 MiB the browser host accepts', {
        status: 413,
      }),
    )
    await chooseFile(new File(['{}'], 'wells.geojson'))
    await waitFor(() =>
      expect(alert(/^wells\.geojson was not imported: wells\.geojson is larger than/)).toBeDefined(),
    )
    expect(fake.geo['datasets.import']).not.toHaveBeenCalled()
  })

  it('refuses a file type the workspace cannot import, and explains a failed import', async () => {
    await renderPanel()
    await chooseFile(new File(['hello'], 'notes.txt'))
    await waitFor(() => expect(alert(/notes\.txt: only \.geojson, .* can be imported/)).toBeDefined())
    expect(alert(/notes\.txt/)!.textContent).toContain('Correct the field named in the message')
    expect(fake.geo['datasets.import']).not.toHaveBeenCalled()

    fake.failNext('datasets.import', geoError('conflict', 'a dataset named "wells" already exists'))
    await chooseFile(new File(['{}'], 'wells.geojson'))
    await waitFor(() =>
      expect(alert(/^wells\.geojson was not imported: a dataset named "wells" already exists/)).toBeDefined(),
    )
    expect(alert(/^wells\.geojson/)!.textContent).toContain('reconcile before writing again')
  })

  it('imports a file dropped onto the panel', async () => {
    await renderPanel()
    const file = new File(['{"type":"FeatureCollection","features":[]}'], 'dropped.geojson')
    await fireEvent.drop(screen.getByRole('region', { name: 'Datasets' }), {
      dataTransfer: { files: [file], types: ['Files'] },
    })
    await waitFor(() => expect(fake.geo['datasets.import']).toHaveBeenCalledTimes(1))
    expect(fake.geoFiles.offerForImport).toHaveBeenCalledWith(file)
    await screen.findByText('Imported dropped')
  })
})
