import { screen, waitFor, within } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import { ok, type JoinRun, type RunSummary } from '@contract/index'
import * as bridge from '../../../../../src/bridge'
import RunHistory from '../../../../../src/features/gis/history/RunHistory.vue'
import { useJoinFormStore } from '../../../../../src/features/gis/composer/join-form-store'
import ResultsPanel from '../../../../../src/features/gis/results/ResultsPanel.vue'
import { useShellStore } from '../../../../../src/features/shell/shell-store'
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

const DRAWN = {
  type: 'FeatureCollection' as const,
  features: [
    {
      type: 'Feature' as const,
      properties: { name: 'Polygon 1' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [72, 18],
            [74, 18],
            [74, 20],
            [72, 20],
            [72, 18],
          ],
        ],
      },
    },
  ],
}
const DONE: RunSummary = {
  id: 'run-1',
  time: '2026-11-22T10:00:00.000Z',
  profile: 'Local',
  params: {
    queryType: 'spatialOperation',
    datasetSource: 'india_cities',
    operator: 'DWithin',
    sourceProperty: 'geom',
    userGeom: true,
    distance: 5000,
    selectionParamSource: 'name,geom',
  },
  body: DRAWN,
  status: 200,
  durationMs: 1234,
  rowCount: 2,
  hasResult: true,
}
const FAILED: RunSummary = {
  id: 'run-0',
  time: '2026-11-22T09:00:00.000Z',
  profile: 'Local',
  params: {
    queryType: 'basic',
    datasetSource: 'india_cities',
    operator: '=',
    sourceProperty: 'name',
    datasetRef: 'india_states',
    refProperty: 'name',
  },
  status: 404,
  failureClass: 'not-found',
  message: 'no row found',
  durationMs: 40,
  hasResult: false,
}
const KEPT: JoinRun = {
  runId: 'run-1',
  ...withRows([
    { prop1: 'Mumbai', prop2: 'POINT (72.88 19.07)' },
    { prop1: 'Thane', prop2: 'POINT (72.97 19.2)' },
  ]),
  columns: [
    { prop: 'prop1', table: 'source', name: 'name' },
    { prop: 'prop2', table: 'source', name: 'geom' },
  ],
  partial: false,
  status: 200,
  durationMs: 1234,
}

const Both = defineComponent({ render: () => [h(ResultsPanel), h(RunHistory)] })

async function renderHistory() {
  const rendered = renderInApp(Both)
  await waitFor(() => expect(items()).toHaveLength(fake.state.runs.length))
  return rendered
}
const history = () => within(screen.getByRole('region', { name: 'Run history' }))
const items = () => history().queryAllByRole('listitem')
const text = (el: HTMLElement) => el.textContent?.replace(/\s+/g, ' ') ?? ''

describe('Run history', () => {
  beforeEach(() => {
    fake.reset()
    fake.state.runs = [DONE, FAILED]
    localStorage.clear()
  })

  it('lists each run with its parameters, status, duration and row count', async () => {
    await renderHistory()
    const [done, failed] = items()
    expect(text(done!)).toContain('india_cities DWithin 1 drawn shape (5000 m) [name,geom]')
    expect(text(done!)).toContain('succeeded (HTTP 200)')
    expect(text(done!)).toContain('1.2 s')
    expect(text(done!)).toContain('2 rows')
    expect(text(failed!)).toContain('india_cities.name = india_states.name')
    expect(text(failed!)).toContain('failed: not-found (HTTP 404)')
    expect(within(failed!).getByRole<HTMLButtonElement>('button', { name: 'Reopen' }).disabled).toBe(true)
  })

  it('says it is loading until the list has come, not that there are no runs', async () => {
    let answer: (value: ReturnType<typeof ok>) => void = () => {}
    fake.respond('runs.list', () => new Promise((resolve) => (answer = resolve)))
    renderInApp(Both)
    await history().findByRole('status', { name: '' })
    expect(history().getByRole('status').textContent).toBe('Loading runs…')
    expect(history().queryByText('No runs yet.')).toBeNull()
    answer(ok({ runs: [] }))
    await history().findByText('No runs yet.')
    expect(history().queryByRole('status')).toBeNull()
  })

  it('reopens a kept result in the results table and brings the Results panel forward', async () => {
    fake.respond('runs.get', () => ok({ run: DONE, result: KEPT }))
    await renderHistory()
    await user.click(within(items()[0]!).getByRole('button', { name: 'Reopen' }))
    const table = await screen.findByRole('table', { name: 'Join results' })
    expect(fake.geo['runs.get']).toHaveBeenCalledWith({ id: 'run-1' })
    within(table).getByRole('cell', { name: 'Thane' })
    within(screen.getByRole('region', { name: 'Results' })).getByText('2 rows')
    expect(useShellStore().bottomTab).toBe('gis.results')
  })

  it('re-runs with the same parameters and body, and lists the new run', async () => {
    await renderHistory()
    fake.respond('gis.join', ({ runId }: { runId: string }) => {
      fake.state.runs = [{ ...DONE, id: runId, time: '2026-11-22T11:00:00.000Z' }, ...fake.state.runs]
      return ok<JoinRun>({ ...KEPT, runId })
    })
    await user.click(within(items()[0]!).getByRole('button', { name: 'Re-run' }))
    await waitFor(() => expect(items()).toHaveLength(3))
    expect(fake.geo['gis.join']).toHaveBeenCalledWith({
      runId: expect.any(String),
      params: DONE.params,
      body: DRAWN,
    })
    expect(screen.getAllByRole('table', { name: 'Join results' })).toHaveLength(1)
  })

  it('copies a run into the composer, with its distance and its drawn shapes, and shows the composer', async () => {
    await renderHistory()
    await user.click(within(items()[0]!).getByRole('button', { name: 'Copy to composer' }))
    history().getByText('Copied into the composer.')
    const form = useJoinFormStore()
    expect(form.datasetSource).toBe('india_cities')
    expect(form.operator).toBe('DWithin')
    expect(form.distance).toBe('5')
    expect(form.distanceUnit).toBe('km')
    expect(form.useDrawn).toBe(true)
    expect(form.params).toMatchObject({ distance: 5000, userGeom: true, selectionParamSource: 'name,geom' })
    expect(form.body?.features).toHaveLength(1)
    expect(form.valid).toBe(true)
    expect(useShellStore().focusRequest?.panelId).toBe('gis.join')
  })
})
