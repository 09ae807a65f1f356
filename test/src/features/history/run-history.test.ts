import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia, type Pinia } from 'pinia'
import PrimeVue from 'primevue/config'
import { defineComponent, h } from 'vue'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ok, type JoinRun, type RunSummary } from '@contract/index'
import * as bridge from '../../../../src/bridge'
import RunHistory from '../../../../src/features/history/RunHistory.vue'
import { useJoinFormStore } from '../../../../src/features/join/join-form-store'
import ResultsPanel from '../../../../src/features/results/ResultsPanel.vue'
import type { FakeGeo } from '../../support/fake-geo'
import { getByRole, queryAllByRole } from '../../support/query'

vi.mock('../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake
let pinia: Pinia

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
  rows: [
    { prop1: 'Mumbai', prop2: 'POINT (72.88 19.07)' },
    { prop1: 'Thane', prop2: 'POINT (72.97 19.2)' },
  ],
  columns: [
    { prop: 'prop1', table: 'source', name: 'name' },
    { prop: 'prop2', table: 'source', name: 'geom' },
  ],
  partial: false,
  status: 200,
  durationMs: 1234,
}

const Both = defineComponent({ render: () => [h(ResultsPanel), h(RunHistory)] })

async function mountHistory() {
  mount(Both, { attachTo: document.body, global: { plugins: [pinia, [PrimeVue, { unstyled: true }]] } })
  await flushPromises()
}
async function click(element: HTMLElement) {
  element.click()
  await flushPromises()
}
const history = () => getByRole(document.body, 'region', 'Run history')
const items = () => [...history().querySelectorAll('li')]

describe('Run history', () => {
  beforeEach(() => {
    fake.reset()
    fake.state.runs = [DONE, FAILED]
    pinia = createPinia()
    setActivePinia(pinia)
  })
  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('lists each run with its parameters, status, duration and row count', async () => {
    await mountHistory()
    expect(items()).toHaveLength(2)
    const [done, failed] = items().map((li) => li.textContent?.replace(/\s+/g, ' ') ?? '')
    expect(done).toContain('india_cities DWithin 1 drawn shape (5000 m) [name,geom]')
    expect(done).toContain('succeeded (HTTP 200)')
    expect(done).toContain('1.2 s')
    expect(done).toContain('2 rows')
    expect(failed).toContain('india_cities.name = india_states.name')
    expect(failed).toContain('failed: not-found (HTTP 404)')
    expect(getByRole<HTMLButtonElement>(items()[1]!, 'button', 'Reopen').disabled).toBe(true)
  })

  it('reopens a kept result in the results table', async () => {
    fake.respond('runs.get', () => ok({ run: DONE, result: KEPT }))
    await mountHistory()
    await click(getByRole(items()[0]!, 'button', 'Reopen'))
    expect(fake.geo['runs.get']).toHaveBeenCalledWith({ id: 'run-1' })
    const table = getByRole(document.body, 'table', 'Join results')
    expect(table.textContent).toContain('Thane')
    expect(getByRole(document.body, 'region', 'Results').textContent).toContain('2 rows')
  })

  it('re-runs with the same parameters and body, and lists the new run', async () => {
    await mountHistory()
    fake.respond('gis.join', ({ runId }: { runId: string }) => {
      fake.state.runs = [{ ...DONE, id: runId, time: '2026-11-22T11:00:00.000Z' }, ...fake.state.runs]
      return ok<JoinRun>({ ...KEPT, runId })
    })
    await click(getByRole(items()[0]!, 'button', 'Re-run'))
    expect(fake.geo['gis.join']).toHaveBeenCalledWith({
      runId: expect.any(String),
      params: DONE.params,
      body: DRAWN,
    })
    await flushPromises()
    expect(items()).toHaveLength(3)
    expect(queryAllByRole(document.body, 'table', 'Join results')).toHaveLength(1)
  })

  it('copies a run into the composer, with its distance and its drawn shapes', async () => {
    await mountHistory()
    await click(getByRole(items()[0]!, 'button', 'Copy to composer'))
    const form = useJoinFormStore()
    expect(form.datasetSource).toBe('india_cities')
    expect(form.operator).toBe('DWithin')
    expect(form.distance).toBe('5')
    expect(form.distanceUnit).toBe('km')
    expect(form.useDrawn).toBe(true)
    expect(form.params).toMatchObject({ distance: 5000, userGeom: true, selectionParamSource: 'name,geom' })
    expect(form.body?.features).toHaveLength(1)
    expect(form.valid).toBe(true)
  })
})
