import { screen, waitFor, within } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fail, ok, type JoinRun } from '@contract/index'
import * as bridge from '../../../../../src/bridge'
import { useDrawingsStore } from '../../../../../src/features/gis/draw/drawings-store'
import {
  useJoinRunStore,
  type JoinRequestInput,
} from '../../../../../src/features/gis/composer/join-run-store'
import { useMapStore } from '../../../../../src/features/map/view/map-store'
import ResultsPanel from '../../../../../src/features/gis/results/ResultsPanel.vue'
import { useResultsStore } from '../../../../../src/features/gis/results/results-store'
import { resetExportHost } from '../../../../../src/features/shell/save-file'
import { ringSignedArea } from '../../../../../shared/geojson'
import { parseCsv } from '../../../../../shared/csv'
import type { FakeGeo } from '../../../support/fake-geo'
import { renderInApp } from '../../../support/render'
import { withRows } from '../../../../support/join-rows'

vi.mock('../../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake
const user = userEvent.setup()

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
      ...withRows(rows),
      ...(columns ? { columns } : {}),
      partial: false,
      durationMs: 12,
      ...(params['saveAsNewDataset'] ? { savedDataset: String(params['newDatasetNme']) } : {}),
    }),
  )
}

/** The panel, after a run the area's wiring has put on show. */
async function renderWithRun(
  rows: Array<Record<string, string>> = ROWS,
  columns: JoinRun['columns'] | null = COLUMNS,
) {
  const rendered = renderInApp(ResultsPanel)
  answer(rows, columns ?? undefined)
  await useJoinRunStore().run(REQUEST)
  await screen.findByRole('table', { name: 'Join results' })
  return rendered
}

const region = () => within(screen.getByRole('region', { name: 'Results' }))
const table = () => screen.getByRole('table', { name: 'Join results' })
const headers = () =>
  within(table())
    .getAllByRole('columnheader')
    .map((th) => th.textContent?.trim())
/** Body rows (not the header row) as the cells' texts. */
const bodyRows = () =>
  within(table())
    .getAllByRole('row')
    .filter((row) => within(row).queryAllByRole('cell').length > 0)
const texts = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent?.trim())
const status = () =>
  region()
    .getAllByRole('status')
    .map((s) => s.textContent?.trim())
    .find((t) => / rows?/.test(t ?? ''))

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
    localStorage.clear()
  })
  afterEach(() => vi.restoreAllMocks())

  it('names the columns from the response, counts the rows and summarises the geometries', async () => {
    await renderWithRun()
    expect(headers()).toEqual(['name (source)', 'population (source)', 'geom (source)'])
    expect(status()).toBe('3 rows')
    expect(texts(bodyRows()[0]!)).toEqual(['Mumbai', '12442373', 'POINT (72.88 19.07)'])
    const summary = region().getByLabelText('Results summary').textContent ?? ''
    expect(summary).toContain('3 geometries')
    expect(summary).toContain('extent 72.8800, 18.5200 – 73.8600, 20.0000')

    await user.click(region().getByRole('button', { name: 'Zoom to results' }))
    expect(useMapStore().fitRequest?.box).toEqual([72.88, 18.52, 73.86, 20])
  })

  it('selects a row by clicking it or with the keyboard, and follows a feature selected on the map', async () => {
    await renderWithRun()
    await user.click(within(bodyRows()[1]!).getAllByRole('cell')[0]!)
    expect(useResultsStore().selectedIndex).toBe(1)
    expect(bodyRows()[1]!.getAttribute('aria-selected')).toBe('true')
    await user.keyboard('{ArrowDown}{Enter}')
    expect(useResultsStore().selectedIndex).toBe(2)
    // The reverse: a feature clicked on the map selects its row (ResultsLayer calls select).
    useResultsStore().select(0)
    await waitFor(() =>
      expect(
        within(table())
          .getAllByRole('row', { selected: true })
          .map((r) => texts(r)[0]),
      ).toEqual(['Mumbai']),
    )
  })

  it('scrolls a large result virtually, telling the whole size and each row’s position', async () => {
    const many = Array.from({ length: 500 }, (_, i) => ({
      prop1: `city ${i}`,
      prop2: `POINT (${70 + i / 100} 20)`,
    }))
    await renderWithRun(many, null)
    expect(status()).toBe('500 rows')
    expect(bodyRows().length).toBeLessThan(100)
    expect(table().getAttribute('aria-rowcount')).toBe('501')
    expect(bodyRows()[0]!.getAttribute('aria-rowindex')).toBe('2')
    // End goes to the last row of all 500, not of the page.
    bodyRows()[0]!.focus()
    await user.keyboard('{End}')
    await waitFor(() => expect(texts(document.activeElement as HTMLElement)[0]).toBe('city 499'))
    expect(document.activeElement?.getAttribute('aria-rowindex')).toBe('501')
    await user.keyboard('{Home}{ArrowDown}{ArrowDown}{Enter}')
    expect(useResultsStore().selectedIndex).toBe(2)
  })

  it('falls back to prop1…prop8 and says so when no column holds geometry', async () => {
    await renderWithRun(
      ROWS.map((r) => ({ prop1: r.prop1, prop2: r.prop2 })),
      null,
    )
    expect(headers()).toEqual(['prop1', 'prop2'])
    const note = region().getByRole('note')
    expect(note.textContent).toContain('hold no geometry column, so nothing is drawn on the map')
    expect(note.textContent?.replace(/\s+/g, ' ')).toContain('add geom to Selection (source)')
    expect(region().getByRole<HTMLButtonElement>('button', { name: 'Zoom to results' }).disabled).toBe(true)
  })

  it('filters and sorts, and exports to GeoJSON exactly the rows the table shows (RFC 7946)', async () => {
    const downloads = catchDownloads()
    fake.respond('app.info', () =>
      ok({ name: 'Geo Analyst', version: '0', host: 'web', platform: 'test', configDir: '/tmp/x' }),
    )
    await renderWithRun([
      ...ROWS,
      { prop1: 'Area', prop2: '5', prop3: 'POLYGON ((73 19, 73 20, 74 20, 74 19, 73 19))' },
    ])
    await user.type(region().getByRole('searchbox', { name: 'Filter results' }), 'a')
    await waitFor(() => expect(status()).toBe('3 rows shown of 4'))
    // Sort by population, descending (two clicks on the header).
    const population = within(table()).getByRole('columnheader', { name: /population/ })
    expect(population.getAttribute('aria-sort')).toBe('none')
    await user.click(within(population).getByRole('button'))
    expect(population.getAttribute('aria-sort')).toBe('ascending')
    await user.click(within(population).getByRole('button'))
    expect(population.getAttribute('aria-sort')).toBe('descending')
    expect(bodyRows().map((r) => texts(r)[0])).toEqual(['Mumbai', 'Nashik', 'Area'])

    await user.click(region().getByRole('button', { name: 'Export GeoJSON' }))
    await waitFor(() => expect(downloads.blobs).toHaveLength(1))
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
    await renderWithRun()
    await user.click(region().getByRole('button', { name: 'Export CSV' }))
    await waitFor(() => expect(downloads.blobs).toHaveLength(1))
    const rows = parseCsv(await downloads.blobs[0]!.text())
    expect(rows[0]).toEqual(['wkt', 'name (source)', 'population (source)'])
    expect(rows[1]).toEqual(['POINT (72.88 19.07)', 'Mumbai', '12442373'])
    expect(rows).toHaveLength(4)
  })

  it('in the desktop app, exports through the save dialog (export.save)', async () => {
    fake.respond('app.info', () =>
      ok({ name: 'Geo Analyst', version: '0', host: 'electron', platform: 'test', configDir: '/tmp/x' }),
    )
    await renderWithRun()
    await user.click(region().getByRole('button', { name: 'Export GeoJSON' }))
    await region().findByText(/^Exported 3 rows to \/tmp\/join-results-/)
    const request = vi.mocked(fake.geo['export.save']).mock.calls[0]![0] as {
      format: string
      content: string
    }
    expect(request.format).toBe('geojson')
    expect(JSON.parse(request.content).features).toHaveLength(3)
  })

  it('exports the drawn shapes as RFC 7946 GeoJSON', async () => {
    const downloads = catchDownloads()
    await renderWithRun()
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
    await user.click(region().getByRole('button', { name: 'Export drawings' }))
    await waitFor(() => expect(downloads.blobs).toHaveLength(1))
    const exported = JSON.parse(await downloads.blobs[0]!.text())
    expect(exported.features).toHaveLength(1)
    expect(exported.features[0].properties.name).toBe('Polygon 1')
    expect(ringSignedArea(exported.features[0].geometry.coordinates[0])).toBeGreaterThan(0)
  })

  it('saves the result as a dataset by re-running with saveAsNewDataset, checking the name first', async () => {
    fake.state.datasets = [{ layername: 'india_cities', local: true }]
    await renderWithRun()
    await user.click(region().getByRole('button', { name: 'Save as dataset' }))
    const form = within(screen.getByRole('form', { name: 'Save results as dataset' }))
    const name = form.getByRole('textbox', { name: 'Saved dataset name' })
    const save = form.getByRole<HTMLButtonElement>('button', { name: 'Save results as dataset' })
    const described = () => document.getElementById(name.getAttribute('aria-describedby')!)?.textContent
    await waitFor(() => expect(fake.geo['gis.layers']).toHaveBeenCalled())
    await user.type(name, 'India_Cities')
    await waitFor(() => expect(save.disabled).toBe(true))
    expect(described()).toContain(
      'is taken: a dataset named "india_cities" exists (nothing will be overwritten)',
    )
    expect(name.getAttribute('aria-invalid')).toBe('true')
    await user.clear(name)
    await user.type(name, 'bad name')
    expect(described()).toContain('must be 1–63 letters')
    await user.clear(name)
    await user.type(name, 'mumbai_region')
    await user.click(save)
    await region().findByText('Saved as dataset "mumbai_region".')
    expect(fake.geo['gis.join']).toHaveBeenLastCalledWith(
      expect.objectContaining({
        params: { ...REQUEST.params, saveAsNewDataset: true, newDatasetNme: 'mumbai_region' },
      }),
    )
  })

  it('explains a name conflict from the service and overwrites nothing', async () => {
    await renderWithRun()
    fake.respond('gis.join', () =>
      fail('conflict', 'newDatasetNme: a dataset named "x1" exists', { status: 409, field: 'newDatasetNme' }),
    )
    await user.click(region().getByRole('button', { name: 'Save as dataset' }))
    await user.type(region().getByRole('textbox', { name: 'Saved dataset name' }), 'x1')
    await user.click(region().getByRole('button', { name: 'Save results as dataset' }))
    const alert = await region().findByRole('alert')
    expect(alert.textContent).toContain('already exists; nothing was overwritten')
    // The table still shows the earlier result.
    expect(status()).toBe('3 rows')
    expect(region().queryByText(/Saved as dataset/)).toBeNull()
  })
})
