import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia, type Pinia } from 'pinia'
import PrimeVue from 'primevue/config'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { NEXT_STEP_BY_CLASS, fail, ok, type JoinRun } from '@contract/index'
import { BASIC_OPERATORS, NEW_DATASET_NAME_MESSAGE, SPATIAL_OPERATORS } from '@contract/gis/join-params'
import * as bridge from '../../../../src/bridge'
import JoinComposer from '../../../../src/features/join/JoinComposer.vue'
import { useDrawingsStore } from '../../../../src/features/draw/drawings-store'
import type { FakeGeo } from '../../support/fake-geo'
import { accessibleName, getByRole, getInputByLabel, queryAllByRole } from '../../support/query'

vi.mock('../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake
let pinia: Pinia

const CITIES = {
  layername: 'india_cities',
  geometrytype: 'POINT',
  local: true,
  fields: [
    { name: 'name', type: 'string' },
    { name: 'population', type: 'number' },
  ],
}
const STATES = {
  layername: 'india_states',
  geometrytype: 'MULTIPOLYGON',
  local: true,
  fields: [{ name: 'name', type: 'string' }],
}
const SQUARE = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [72, 18],
      [74, 18],
      [74, 20],
      [72, 20],
      [72, 18],
    ],
  ],
}
const BOWTIE = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [72, 18],
      [74, 20],
      [74, 18],
      [72, 20],
      [72, 18],
    ],
  ],
}

/** Let the preview's debounce fire and every promise settle. */
async function settle(ms = 350) {
  await flushPromises()
  await new Promise((resolve) => setTimeout(resolve, ms))
  await flushPromises()
}

async function mountComposer() {
  const wrapper = mount(JoinComposer, {
    attachTo: document.body,
    global: { plugins: [pinia, [PrimeVue, { unstyled: true }]] },
  })
  await settle()
  return wrapper
}

async function type(input: HTMLInputElement, value: string) {
  input.value = value
  input.dispatchEvent(new Event('input'))
  await flushPromises()
}

async function choose(select: HTMLSelectElement, value: string) {
  select.value = value
  select.dispatchEvent(new Event('change'))
  await flushPromises()
}

async function click(element: HTMLElement) {
  element.click()
  await flushPromises()
}

const combobox = (name: string) =>
  getByRole<HTMLInputElement & HTMLSelectElement>(document.body, 'combobox', name)
const textbox = (name: string) => getByRole<HTMLInputElement>(document.body, 'textbox', name)
const runButton = () => getByRole<HTMLButtonElement>(document.body, 'button', 'Run join')
const optionsOf = (select: HTMLSelectElement) => [...select.options].map((o) => o.value)
/** The inline error a control points at with aria-describedby. */
const describedError = (control: Element) =>
  document.getElementById(control.getAttribute('aria-describedby') ?? '')?.textContent?.trim() ?? ''

/** Fill an Intersects query of india_cities against india_states. */
async function fillDatasetJoin() {
  await type(combobox('Source dataset'), 'india_cities')
  await type(combobox('Reference dataset'), 'india_states')
  await type(textbox('Selection (source)'), 'name,population,geom')
}

describe('Join composer', () => {
  beforeEach(() => {
    fake.reset()
    fake.state.datasets = [CITIES, STATES]
    pinia = createPinia()
    setActivePinia(pinia)
  })
  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('shows the spatial operators, suggests datasets and their fields, and runs only once valid', async () => {
    await mountComposer()
    expect(optionsOf(combobox('Operator'))).toEqual([...SPATIAL_OPERATORS])
    const names = [
      ...document.querySelectorAll<HTMLOptionElement>(
        `#${combobox('Source dataset').getAttribute('list')} option`,
      ),
    ]
    expect(names.map((o) => o.value)).toEqual(['india_cities', 'india_states'])
    expect(runButton().disabled).toBe(true)

    await fillDatasetJoin()
    const fields = document.getElementById(combobox('Source property').getAttribute('list')!)!
    expect([...fields.querySelectorAll('option')].map((o) => o.value)).toEqual(['geom', 'name', 'population'])
    expect(combobox('Source property').value).toBe('geom')
    expect(runButton().disabled).toBe(false)

    await click(runButton())
    await settle(0)
    expect(fake.geo['gis.join']).toHaveBeenCalledWith({
      runId: expect.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
      params: {
        queryType: 'spatialOperation',
        datasetSource: 'india_cities',
        operator: 'Intersects',
        sourceProperty: 'geom',
        datasetRef: 'india_states',
        selectionParamSource: 'name,population,geom',
      },
    })
  })

  it('asks for a distance with DWithin, names the rule at the field, and sends kilometres as metres', async () => {
    await mountComposer()
    await fillDatasetJoin()
    expect(queryAllByRole(document.body, 'textbox', 'Distance')).toHaveLength(0)
    await choose(combobox('Operator'), 'DWithin')

    const distance = textbox('Distance')
    expect(distance.getAttribute('aria-invalid')).toBe('true')
    expect(describedError(distance)).toContain('is required when operator is DWithin')
    expect(runButton().disabled).toBe(true)

    await type(distance, '-3')
    expect(describedError(distance)).toContain('must be a non-negative number')
    await type(distance, '2.5')
    await choose(combobox('Distance unit'), 'km')
    expect(distance.getAttribute('aria-describedby')).toBeNull()
    expect(runButton().disabled).toBe(false)
    await settle()
    const previewCalls = vi.mocked(fake.geo['gis.previewJoin']).mock.calls
    expect(previewCalls.at(-1)?.[0]).toMatchObject({ params: { operator: 'DWithin', distance: 2500 } })
    expect(fake.geo['gis.join']).not.toHaveBeenCalled()
  })

  it('switches to basic: non-spatial operators, reference property required, no user geometry', async () => {
    await mountComposer()
    await choose(combobox('Query type'), 'basic')
    expect(optionsOf(combobox('Operator'))).toEqual([...BASIC_OPERATORS])
    expect(queryAllByRole(document.body, 'checkbox', 'Use drawn shapes')).toHaveLength(0)
    expect(document.body.textContent).not.toContain('Use drawn shapes')
    await type(combobox('Source dataset'), 'india_cities')
    await type(combobox('Source property'), 'name')
    await type(combobox('Reference dataset'), 'india_states')
    expect(describedError(combobox('Reference property'))).toContain(
      'is required for a non-spatial (basic) query',
    )
    await type(combobox('Reference property'), 'name')
    expect(runButton().disabled).toBe(false)
  })

  it('shows the comparison fields for functionBased and checks the value against the function', async () => {
    await mountComposer()
    await choose(combobox('Query type'), 'functionBased')
    await fillDatasetJoin()
    await choose(combobox('Comparison function'), 'isEmpty')
    expect(optionsOf(combobox('Comparison operator'))).toEqual(['', '=', '<>'])
    await choose(combobox('Comparison operator'), '=')
    await type(textbox('Comparison value'), '12')
    expect(describedError(textbox('Comparison value'))).toContain('must be true or false')
    await type(textbox('Comparison value'), 'false')
    expect(runButton().disabled).toBe(false)
  })

  it('sends drawn shapes as the body with userGeom=true, and refuses a self-intersecting one by name', async () => {
    await mountComposer()
    await type(combobox('Source dataset'), 'india_cities')
    await click(getInputByLabel(document.body, 'Use drawn shapes'))
    expect(queryAllByRole(document.body, 'combobox', 'Reference dataset')).toHaveLength(0)
    const checkbox = getInputByLabel(document.body, 'Use drawn shapes')
    expect(describedError(checkbox)).toContain('there are no drawn shapes')

    const drawings = useDrawingsStore()
    drawings.add('polygon', BOWTIE)
    await flushPromises()
    expect(describedError(checkbox)).toMatch(/Polygon 1 crosses itself/)
    expect(runButton().disabled).toBe(true)

    drawings.clear()
    const id = drawings.add('polygon', SQUARE)
    drawings.add('point', { type: 'Point', coordinates: [80, 20] })
    drawings.setSelection([id])
    await flushPromises()
    await click(getByRole(document.body, 'radio', 'Selected shapes'))
    expect(runButton().disabled).toBe(false)
    await click(runButton())
    await settle(0)
    const request = vi.mocked(fake.geo['gis.join']).mock.calls[0]?.[0] as {
      params: object
      body: { features: unknown[] }
    }
    expect(request.params).toMatchObject({ userGeom: true, datasetSource: 'india_cities' })
    expect(request.params).not.toHaveProperty('datasetRef')
    expect(request.body.features).toHaveLength(1)
    expect(request.body.features[0]).toMatchObject({ id, geometry: { type: 'Polygon' } })
  })

  it('checks the new dataset name live: the rule, then a name already taken', async () => {
    await mountComposer()
    await fillDatasetJoin()
    await click(getInputByLabel(document.body, 'Save as new dataset'))
    const name = textbox('New dataset name')
    expect(describedError(name)).toContain('is required when saveAsNewDataset is true')
    await type(name, '2 cities')
    expect(describedError(name)).toContain(NEW_DATASET_NAME_MESSAGE)
    await type(name, 'India_States')
    expect(describedError(name)).toContain('is taken: a dataset named "india_states" exists')
    expect(runButton().disabled).toBe(true)
    await type(name, 'cities_in_states')
    expect(runButton().disabled).toBe(false)
  })

  it('previews the exact request and copies it as curl or CLI', async () => {
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    await mountComposer()
    await fillDatasetJoin()
    await settle()
    const preview = getByRole(document.body, 'region', 'Request preview')
    expect(preview.textContent).toContain('POST http://127.0.0.1:1/mgis/query_apply/join')
    expect(fake.geo['gis.previewJoin']).toHaveBeenLastCalledWith({
      params: expect.objectContaining({ datasetSource: 'india_cities', datasetRef: 'india_states' }),
    })
    await click(getByRole(preview, 'button', 'Copy as curl'))
    expect(writeText).toHaveBeenCalledWith(expect.stringContaining('[REDACTED]'))
    await click(getByRole(preview, 'button', 'Copy as CLI'))
    expect(writeText).toHaveBeenLastCalledWith('geo-analyst call gis.join')
  })

  it('shows progress and elapsed time while running, and cancels through gis.cancelJoin', async () => {
    let finish: (value: ReturnType<typeof fail>) => void = () => {}
    fake.respond('gis.join', () => new Promise((resolve) => (finish = resolve)))
    await mountComposer()
    await fillDatasetJoin()
    await click(runButton())
    const runId = (vi.mocked(fake.geo['gis.join']).mock.calls[0]?.[0] as { runId: string }).runId
    fake.emit('job.progress', { runId, phase: 'waiting', elapsedMs: 1500 })
    await flushPromises()
    const bar = getByRole(document.body, 'progressbar', 'Join progress')
    expect(bar.getAttribute('aria-valuetext')).toMatch(/^waiting, 1\.\d s$/)
    expect(document.body.textContent).toContain('elapsed 1.')
    expect(runButton().disabled).toBe(true)

    await click(getByRole(document.body, 'button', 'Cancel run'))
    expect(fake.geo['gis.cancelJoin']).toHaveBeenCalledWith({ runId })
    finish(fail('unknown-outcome', 'gis.join: cancelled'))
    await flushPromises()
    expect(queryAllByRole(document.body, 'progressbar', 'Join progress')).toHaveLength(0)
    expect(document.body.textContent).toContain('Run cancelled')
    expect(queryAllByRole(document.body, 'alert', /cancelled/)).toHaveLength(0)
  })

  it('shows a failure with its class and next step, and takes the person to the field to fix', async () => {
    fake.respond('gis.join', () =>
      fail('not-found', 'datasetSource: no dataset "india_citie"', { status: 404, field: 'datasetSource' }),
    )
    await mountComposer()
    await fillDatasetJoin()
    await click(runButton())
    await settle(0)
    const alert = getByRole(document.body, 'alert', /not-found/)
    expect(alert.textContent).toContain('HTTP 404')
    expect(alert.textContent).toContain(NEXT_STEP_BY_CLASS['not-found'])
    await click(getByRole(alert, 'button', 'Fix datasetSource'))
    expect(document.activeElement).toBe(combobox('Source dataset'))
  })

  it('after an unknown outcome of a saving run, refreshes the datasets and says whether it was saved', async () => {
    fake.respond('gis.join', () => fail('unknown-outcome', 'The service did not answer', { status: 202 }))
    await mountComposer()
    await fillDatasetJoin()
    await click(getInputByLabel(document.body, 'Save as new dataset'))
    await type(textbox('New dataset name'), 'cities_saved')
    await click(runButton())
    await settle(0)
    fake.state.datasets = [...fake.state.datasets, { layername: 'cities_saved', local: true }]
    await click(getByRole(document.body, 'button', 'Refresh datasets and check'))
    await settle(0)
    expect(document.body.textContent).toContain('The dataset "cities_saved" exists: the run did save it.')
  })

  it('offers Settings for an authentication failure and a retry for a timeout', async () => {
    fake.respond('gis.join', () => fail('authentication', 'token.gis was refused', { status: 401 }))
    await mountComposer()
    await fillDatasetJoin()
    await click(runButton())
    await settle(0)
    getByRole(document.body, 'button', 'Open Settings')
    let calls = 0
    fake.respond('gis.join', ({ runId }: { runId: string }) =>
      ++calls === 1
        ? fail('timeout-network', 'no answer in 30 s')
        : ok<JoinRun>({ runId, rows: [], partial: false, durationMs: 3 }),
    )
    await click(runButton())
    await settle(0)
    await click(getByRole(document.body, 'button', 'Retry'))
    await settle(0)
    expect(calls).toBe(2)
    expect(queryAllByRole(document.body, 'alert', /timeout-network/)).toHaveLength(0)
  })

  it('names every visible control', async () => {
    await mountComposer()
    for (const el of document.querySelectorAll('input, select, button'))
      expect(accessibleName(el)).not.toBe('')
  })
})
