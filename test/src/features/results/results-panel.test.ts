import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia, type Pinia } from 'pinia'
import PrimeVue from 'primevue/config'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fail, ok, type JoinRun } from '@contract/index'
import * as bridge from '../../../../src/bridge'
import { useDrawingsStore } from '../../../../src/features/draw/drawings-store'
import { useJoinRunStore, type JoinRequestInput } from '../../../../src/features/join/join-run-store'
import { useMapStore } from '../../../../src/features/map/map-store'
import ResultsPanel from '../../../../src/features/results/ResultsPanel.vue'
import { useResultsStore } from '../../../../src/features/results/results-store'
import { resetExportHost } from '../../../../src/features/results/export-save'
import { ringSignedArea } from '../../../../src/geo/rfc7946'
import { parseCsv } from '../../../../src/geo/csv'
import type { FakeGeo } from '../../support/fake-geo'
import { getByRole, queryAllByRole } from '../../support/query'

vi.mock('../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake
let pinia: Pinia

const COLUMNS: JoinRun['columns'] = [
  { prop: 'prop1', table: 'source', name: 'name' },
  { prop: 'prop2', table: 'source', name: 'population' },
  { prop: 'prop3', table: 'source', name: 'geom' },
]
const ROWS = [
  { prop1: 'Mumbai', prop2: '12442373', prop3: 'POINT (72.88 19.07)' },
  { prop1: 'Pune', prop2: '3124458', prop3: 'POINT (73.86 18.52)' },
  { prop1: 'Nashik', prop2: '1486053', prop3: 'POINT (73.79 20)' },
]
const REQUEST: JoinRequestInput = {
  params: {
    queryType: 'spatialOperation',
    datasetSource: 'india_cities',
    operator: 'Intersects',
    sourceProperty: 'geom',
    datasetRef: 'india_states',
    selectionParamSource: 'name,population,geom',
  },
}

function answer(rows: Array<Record<string, string>>, columns?: JoinRun['columns']) {
  fake.respond('gis.join', ({ runId, params }: { runId: string; params: Record<string, unknown> }) =>
    ok<JoinRun>({
      runId,
      rows,
      ...(columns ? { columns } : {}),
      partial: false,
      durationMs: 12,
      ...(params['saveAsNewDataset'] ? { savedDataset: String(params['newDatasetNme']) } : {}),
    }),
  )
}

async function mountWithRun(
  rows: Array<Record<string, string>> = ROWS,
  columns: JoinRun['columns'] | null = COLUMNS,
) {
  const wrapper = mount(ResultsPanel, {
    attachTo: document.body,
    global: { plugins: [pinia, [PrimeVue, { unstyled: true }]] },
  })
  answer(rows, columns ?? undefined)
  await useJoinRunStore().run(REQUEST)
  await flushPromises()
  return wrapper
}

async function click(element: HTMLElement) {
  element.click()
  await flushPromises()
}
async function type(input: HTMLInputElement, value: string) {
  input.value = value
  input.dispatchEvent(new Event('input'))
  await flushPromises()
}

const region = () => getByRole(document.body, 'region', 'Results')
const table = () => getByRole<HTMLTableElement>(document.body, 'table', 'Join results')
const headers = () => [...table().querySelectorAll('thead th')].map((th) => th.textContent?.trim())
const status = () => getByRole(region(), 'status', /rows?/).textContent?.trim()

/** Catch the browser download: the Blob handed to URL.createObjectURL and the <a download> clicked. */
function catchDownloads() {
  const blobs: Blob[] = []
  const names: string[] = []
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob)
    return 'blob:test'
  })
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download)
  })
  return { blobs, names }
}

describe('Results panel', () => {
  beforeEach(() => {
    fake.reset()
    resetExportHost()
    pinia = createPinia()
    setActivePinia(pinia)
  })
  afterEach(() => {
    vi.restoreAllMocks()
    document.body.innerHTML = ''
  })

  it('names the columns from the response, counts the rows and summarises the geometries', async () => {
    await mountWithRun()
    expect(headers()).toEqual(['name (source)', 'population (source)', 'geom (source)'])
    expect(status()).toBe('3 rows')
    expect(table().textContent).toContain('Mumbai')
    const summary = region().querySelector('[aria-label="Results summary"]')?.textContent ?? ''
    expect(summary).toContain('3 geometries')
    expect(summary).toContain('extent 72.8800, 18.5200 – 73.8600, 20.0000')

    await click(getByRole(region(), 'button', 'Zoom to results'))
    expect(useMapStore().fitRequest?.box).toEqual([72.88, 18.52, 73.86, 20])
  })

  it('selects a row by clicking it, and scrolls a large result virtually', async () => {
    await mountWithRun()
    const row = () => [...table().querySelectorAll('tbody tr')][1] as HTMLElement
    await click(row().querySelector('td') as HTMLElement)
    expect(useResultsStore().selectedIndex).toBe(1)
    expect(row().getAttribute('aria-selected')).toBe('true')
    // The reverse: a feature clicked on the map selects its row (ResultsLayer calls select).
    useResultsStore().select(2)
    await flushPromises()
    expect([...table().querySelectorAll('tbody tr[aria-selected="true"]')].map((r) => r.textContent)).toEqual(
      [expect.stringContaining('Nashik')],
    )

    document.body.innerHTML = ''
    const many = Array.from({ length: 500 }, (_, i) => ({
      prop1: `city ${i}`,
      prop2: `POINT (${70 + i / 100} 20)`,
    }))
    await mountWithRun(many, null)
    expect(status()).toBe('500 rows')
    expect(table().querySelectorAll('tbody tr').length).toBeLessThan(100)
  })

  it('falls back to prop1…prop8 and says so when no column holds geometry', async () => {
    await mountWithRun(
      ROWS.map((r) => ({ prop1: r.prop1, prop2: r.prop2 })),
      null,
    )
    expect(headers()).toEqual(['prop1', 'prop2'])
    expect(region().textContent).toContain('hold no geometry column, so nothing is drawn on the map')
    expect(region().textContent).toContain('add geom to Selection (source)')
    expect(getByRole<HTMLButtonElement>(region(), 'button', 'Zoom to results').disabled).toBe(true)
  })

  it('filters and sorts, and exports to GeoJSON exactly the rows the table shows (RFC 7946)', async () => {
    const downloads = catchDownloads()
    fake.respond('app.info', () =>
      ok({ name: 'Geo Analyst', version: '0', host: 'web', platform: 'test', configDir: '/tmp/x' }),
    )
    await mountWithRun([
      ...ROWS,
      { prop1: 'Area', prop2: '5', prop3: 'POLYGON ((73 19, 73 20, 74 20, 74 19, 73 19))' },
    ])
    await type(getByRole(region(), 'searchbox', 'Filter results') as HTMLInputElement, 'a')
    expect(status()).toBe('3 rows shown of 4')
    // Sort by population, descending (two clicks on the header).
    const th = [...table().querySelectorAll('thead th')].find((h) => h.textContent?.includes('population'))!
    await click(th as HTMLElement)
    await click(th as HTMLElement)
    const shown = [...table().querySelectorAll('tbody tr')].map((tr) =>
      tr.querySelector('td')?.textContent?.trim(),
    )
    expect(shown).toEqual(['Mumbai', 'Nashik', 'Area'])

    await click(getByRole(region(), 'button', 'Export GeoJSON'))
    await vi.waitFor(() => expect(downloads.blobs).toHaveLength(1))
    expect(downloads.names[0]).toMatch(/^join-results-.*\.geojson$/)
    expect(downloads.blobs[0]!.type).toBe('application/geo+json')
    const exported = JSON.parse(await downloads.blobs[0]!.text())
    expect(exported.type).toBe('FeatureCollection')
    expect(exported.features.map((f: { properties: Record<string, string> }) => f.properties)).toEqual([
      { 'name (source)': 'Mumbai', 'population (source)': '12442373' },
      { 'name (source)': 'Nashik', 'population (source)': '1486053' },
      { 'name (source)': 'Area', 'population (source)': '5' },
    ])
    expect(exported.features[0].geometry).toEqual({ type: 'Point', coordinates: [72.88, 19.07] })
    // The clockwise ring of the input is written counter-clockwise (right-hand rule).
    expect(ringSignedArea(exported.features[2].geometry.coordinates[0])).toBeGreaterThan(0)
  })

  it('exports CSV with a WKT column first and the table’s column names', async () => {
    const downloads = catchDownloads()
    await mountWithRun()
    await click(getByRole(region(), 'button', 'Export CSV'))
    await vi.waitFor(() => expect(downloads.blobs).toHaveLength(1))
    const rows = parseCsv(await downloads.blobs[0]!.text())
    expect(rows[0]).toEqual(['wkt', 'name (source)', 'population (source)'])
    expect(rows[1]).toEqual(['POINT (72.88 19.07)', 'Mumbai', '12442373'])
    expect(rows).toHaveLength(4)
  })

  it('in the desktop app, exports through the save dialog (export.save)', async () => {
    fake.respond('app.info', () =>
      ok({ name: 'Geo Analyst', version: '0', host: 'electron', platform: 'test', configDir: '/tmp/x' }),
    )
    await mountWithRun()
    await click(getByRole(region(), 'button', 'Export GeoJSON'))
    await vi.waitFor(() => expect(fake.geo['export.save']).toHaveBeenCalled())
    const request = vi.mocked(fake.geo['export.save']).mock.calls[0]![0] as {
      format: string
      content: string
    }
    expect(request.format).toBe('geojson')
    expect(JSON.parse(request.content).features).toHaveLength(3)
    await vi.waitFor(() => expect(region().textContent).toContain('Exported 3 rows to /tmp/join-results-'))
  })

  it('exports the drawn shapes as RFC 7946 GeoJSON', async () => {
    const downloads = catchDownloads()
    await mountWithRun()
    useDrawingsStore().add('polygon', {
      type: 'Polygon',
      coordinates: [
        [
          [72, 18],
          [72, 20],
          [74, 20],
          [74, 18],
          [72, 18],
        ],
      ],
    })
    await click(getByRole(region(), 'button', 'Export drawings'))
    await vi.waitFor(() => expect(downloads.blobs).toHaveLength(1))
    const exported = JSON.parse(await downloads.blobs[0]!.text())
    expect(exported.features).toHaveLength(1)
    expect(exported.features[0].properties.name).toBe('Polygon 1')
    expect(ringSignedArea(exported.features[0].geometry.coordinates[0])).toBeGreaterThan(0)
  })

  it('saves the result as a dataset by re-running with saveAsNewDataset, checking the name first', async () => {
    fake.state.datasets = [{ layername: 'india_cities', local: true }]
    await mountWithRun()
    await click(getByRole(region(), 'button', 'Save as dataset'))
    const name = getByRole<HTMLInputElement>(region(), 'textbox', 'Saved dataset name')
    const save = getByRole<HTMLButtonElement>(region(), 'button', 'Save results as dataset')
    await flushPromises()
    await type(name, 'India_Cities')
    expect(save.disabled).toBe(true)
    expect(region().textContent).toContain(
      'is taken: a dataset named "india_cities" exists (nothing will be overwritten)',
    )
    await type(name, 'bad name')
    expect(region().textContent).toContain('must be 1–63 letters')
    await type(name, 'mumbai_region')
    await click(save)
    await flushPromises()
    expect(fake.geo['gis.join']).toHaveBeenLastCalledWith(
      expect.objectContaining({
        params: { ...REQUEST.params, saveAsNewDataset: true, newDatasetNme: 'mumbai_region' },
      }),
    )
    expect(region().textContent).toContain('Saved as dataset "mumbai_region".')
  })

  it('explains a name conflict from the service and overwrites nothing', async () => {
    await mountWithRun()
    fake.respond('gis.join', () =>
      fail('conflict', 'newDatasetNme: a dataset named "x1" exists', { status: 409, field: 'newDatasetNme' }),
    )
    await click(getByRole(region(), 'button', 'Save as dataset'))
    await type(getByRole<HTMLInputElement>(region(), 'textbox', 'Saved dataset name'), 'x1')
    await click(getByRole(region(), 'button', 'Save results as dataset'))
    await flushPromises()
    const alert = getByRole(region(), 'alert', /already exists/)
    expect(alert.textContent).toContain('nothing was overwritten')
    // The table still shows the earlier result.
    expect(status()).toBe('3 rows')
    expect(queryAllByRole(region(), 'status', /Saved as dataset/)).toHaveLength(0)
  })
})
