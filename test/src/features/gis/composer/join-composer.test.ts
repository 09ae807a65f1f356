import { screen, waitFor, within } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { NEXT_STEP_BY_CLASS, fail, ok, type JoinRun } from '@contract/index'
import { BASIC_OPERATORS, NEW_DATASET_NAME_MESSAGE, SPATIAL_OPERATORS } from '@contract/gis/join-params'
import * as bridge from '../../../../../src/bridge'
import JoinComposer from '../../../../../src/features/gis/composer/JoinComposer.vue'
import { useDrawingsStore } from '../../../../../src/features/gis/draw/drawings-store'
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

/** The composer, once it has listed the datasets (the source dataset suggests them). */
async function renderComposer() {
  const rendered = renderInApp(JoinComposer)
  await waitFor(() => expect(optionsOf(datalistOf(combobox('Source dataset')))).toHaveLength(2))
  return rendered
}

async function fill(control: HTMLElement, value: string) {
  await user.clear(control)
  if (value) await user.type(control, value)
}

const combobox = (name: string) =>
  screen.getByRole<HTMLInputElement & HTMLSelectElement>('combobox', { name })
const textbox = (name: string) => screen.getByRole<HTMLInputElement>('textbox', { name })
const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name })
const runButton = () => button('Run join')
const datalistOf = (input: HTMLInputElement) => document.getElementById(input.getAttribute('list') ?? '')!
const optionsOf = (list: Element) => [...list.querySelectorAll('option')].map((o) => o.value)
/** The error or hint a control points at with aria-describedby. */
const described = (control: Element) =>
  document.getElementById(control.getAttribute('aria-describedby') ?? '')?.textContent?.trim() ?? ''
const joinCalls = () => vi.mocked(fake.geo['gis.join']).mock.calls

/** Fill an Intersects query of india_cities against india_states. */
async function fillDatasetJoin() {
  await fill(combobox('Source dataset'), 'india_cities')
  await fill(combobox('Reference dataset'), 'india_states')
  await fill(textbox('Selection (source)'), 'name,population,geom')
}

describe('Join composer', () => {
  beforeEach(() => {
    fake.reset()
    fake.state.datasets = [CITIES, STATES]
    localStorage.clear()
  })

  it('shows the spatial operators, suggests datasets and their fields, and runs only once valid', async () => {
    await renderComposer()
    expect(optionsOf(combobox('Operator'))).toEqual([...SPATIAL_OPERATORS])
    expect(optionsOf(datalistOf(combobox('Source dataset')))).toEqual(['india_cities', 'india_states'])
    expect(runButton().disabled).toBe(true)

    await fillDatasetJoin()
    expect(optionsOf(datalistOf(combobox('Source property')))).toEqual(['geom', 'name', 'population'])
    expect(combobox('Source property').value).toBe('geom')
    expect(runButton().disabled).toBe(false)

    await user.click(runButton())
    await waitFor(() => expect(joinCalls()).toHaveLength(1))
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
    await renderComposer()
    await fillDatasetJoin()
    expect(screen.queryByRole('textbox', { name: 'Distance' })).toBeNull()
    await user.selectOptions(combobox('Operator'), 'DWithin')

    const distance = textbox('Distance')
    expect(distance.getAttribute('aria-invalid')).toBe('true')
    expect(described(distance)).toContain('is required when operator is DWithin')
    expect(runButton().disabled).toBe(true)

    await fill(distance, '-3')
    expect(described(distance)).toContain('must be a non-negative number')
    await fill(distance, '2.5')
    await user.selectOptions(combobox('Distance unit'), 'km')
    expect(distance.getAttribute('aria-describedby')).toBeNull()
    expect(distance.getAttribute('aria-invalid')).toBeNull()
    expect(runButton().disabled).toBe(false)
    // The preview follows the form (after its short pause) with the distance in metres.
    await waitFor(
      () =>
        expect(vi.mocked(fake.geo['gis.previewJoin']).mock.calls.at(-1)?.[0]).toMatchObject({
          params: { operator: 'DWithin', distance: 2500 },
        }),
      { timeout: 3000 },
    )
    expect(fake.geo['gis.join']).not.toHaveBeenCalled()
  })

  it('switches to basic: non-spatial operators, reference property required, no user geometry', async () => {
    await renderComposer()
    await user.selectOptions(combobox('Query type'), 'basic')
    expect(optionsOf(combobox('Operator'))).toEqual([...BASIC_OPERATORS])
    expect(screen.queryByRole('checkbox', { name: 'Use drawn shapes' })).toBeNull()
    expect(document.body.textContent).not.toContain('Use drawn shapes')
    await fill(combobox('Source dataset'), 'india_cities')
    await fill(combobox('Source property'), 'name')
    await fill(combobox('Reference dataset'), 'india_states')
    expect(described(combobox('Reference property'))).toContain('is required for a non-spatial (basic) query')
    await fill(combobox('Reference property'), 'name')
    expect(runButton().disabled).toBe(false)
  })

  it('shows the comparison fields for functionBased and checks the value against the function', async () => {
    await renderComposer()
    await user.selectOptions(combobox('Query type'), 'functionBased')
    await fillDatasetJoin()
    within(screen.getByRole('group', { name: 'Comparison' })).getByRole('combobox', {
      name: 'Comparison function',
    })
    await user.selectOptions(combobox('Comparison function'), 'isEmpty')
    expect(optionsOf(combobox('Comparison operator'))).toEqual(['', '=', '<>'])
    await user.selectOptions(combobox('Comparison operator'), '=')
    await fill(textbox('Comparison value'), '12')
    expect(described(textbox('Comparison value'))).toContain('must be true or false')
    await fill(textbox('Comparison value'), 'false')
    expect(runButton().disabled).toBe(false)
  })

  it('sends drawn shapes as the body with userGeom=true, and refuses a self-intersecting one by name', async () => {
    await renderComposer()
    await fill(combobox('Source dataset'), 'india_cities')
    const checkbox = screen.getByRole('checkbox', { name: 'Use drawn shapes' })
    await user.click(checkbox)
    expect(screen.queryByRole('combobox', { name: 'Reference dataset' })).toBeNull()
    expect(described(checkbox)).toContain('there are no drawn shapes')

    const drawings = useDrawingsStore()
    drawings.add('polygon', BOWTIE)
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toMatch(/Use drawn shapes \(userGeom\): .*Polygon 1 crosses itself/)
    expect(described(checkbox)).toMatch(/Polygon 1 crosses itself/)
    expect(runButton().disabled).toBe(true)

    drawings.clear()
    const id = drawings.add('polygon', SQUARE)
    drawings.add('point', { type: 'Point', coordinates: [80, 20] })
    drawings.setSelection([id])
    const shapes = within(screen.getByRole('radiogroup', { name: 'Which drawn shapes' }))
    await user.click(shapes.getByRole('radio', { name: 'Selected shapes' }))
    await waitFor(() => expect(runButton().disabled).toBe(false))
    await user.click(runButton())
    await waitFor(() => expect(joinCalls()).toHaveLength(1))
    const request = joinCalls()[0]?.[0] as { params: object; body: { features: unknown[] } }
    expect(request.params).toMatchObject({ userGeom: true, datasetSource: 'india_cities' })
    expect(request.params).not.toHaveProperty('datasetRef')
    expect(request.body.features).toHaveLength(1)
    expect(request.body.features[0]).toMatchObject({ id, geometry: { type: 'Polygon' } })
  })

  it('checks the new dataset name live: the rule, then a name already taken', async () => {
    await renderComposer()
    await fillDatasetJoin()
    await user.click(screen.getByRole('checkbox', { name: 'Save as new dataset' }))
    const name = textbox('New dataset name')
    expect(described(name)).toContain('is required when saveAsNewDataset is true')
    await fill(name, '2 cities')
    expect(described(name)).toContain(NEW_DATASET_NAME_MESSAGE)
    await fill(name, 'India_States')
    expect(described(name)).toContain('is taken: a dataset named "india_states" exists')
    expect(runButton().disabled).toBe(true)
    await fill(name, 'cities_in_states')
    expect(name.getAttribute('aria-invalid')).toBeNull()
    // Without an error the field still tells the rule.
    expect(described(name)).toBe(`The name ${NEW_DATASET_NAME_MESSAGE}.`)
    expect(runButton().disabled).toBe(false)
  })

  it('previews the exact request and copies it as curl or CLI', async () => {
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    await renderComposer()
    await fillDatasetJoin()
    const preview = within(screen.getByRole('region', { name: 'Request preview' }))
    await preview.findByText('POST http://127.0.0.1:1/mgis/query_apply/join', {}, { timeout: 3000 })
    await waitFor(
      () =>
        expect(fake.geo['gis.previewJoin']).toHaveBeenLastCalledWith({
          params: expect.objectContaining({ datasetSource: 'india_cities', datasetRef: 'india_states' }),
        }),
      { timeout: 3000 },
    )
    await user.click(preview.getByRole('button', { name: 'Copy as curl' }))
    expect(writeText).toHaveBeenCalledWith(expect.stringContaining('[REDACTED]'))
    await user.click(preview.getByRole('button', { name: 'Copy as CLI' }))
    expect(writeText).toHaveBeenLastCalledWith('geo-analyst call gis.join')
    preview.getByRole('status')
  })

  it('shows progress and elapsed time while running, and cancels through gis.cancelJoin', async () => {
    let finish: (value: ReturnType<typeof fail>) => void = () => {}
    fake.respond('gis.join', () => new Promise((resolve) => (finish = resolve)))
    await renderComposer()
    await fillDatasetJoin()
    await user.click(runButton())
    await waitFor(() => expect(joinCalls()).toHaveLength(1))
    const runId = (joinCalls()[0]?.[0] as { runId: string }).runId
    fake.emit('job.progress', { runId, phase: 'waiting', elapsedMs: 1500 })
    const bar = await screen.findByRole('progressbar', { name: 'Join progress' })
    await waitFor(() => expect(bar.getAttribute('aria-valuetext')).toMatch(/^waiting, 1\.\d s$/))
    expect(screen.getAllByRole('status').some((s) => s.textContent?.includes('elapsed 1.'))).toBe(true)
    expect(runButton().disabled).toBe(true)

    await user.click(button('Cancel run'))
    expect(fake.geo['gis.cancelJoin']).toHaveBeenCalledWith({ runId })
    finish(fail('unknown-outcome', 'gis.join: cancelled'))
    await waitFor(() => expect(screen.queryByRole('progressbar', { name: 'Join progress' })).toBeNull())
    screen.getByText(/^Run cancelled after \d+\.\d s\.$/)
    expect(screen.queryAllByRole('alert')).toHaveLength(0)
  })

  it('shows a failure with its class and next step, and takes the person to the field to fix', async () => {
    fake.respond('gis.join', () =>
      fail('not-found', 'datasetSource: no dataset "india_citie"', { status: 404, field: 'datasetSource' }),
    )
    await renderComposer()
    await fillDatasetJoin()
    await user.click(runButton())
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('not-found')
    expect(alert.textContent).toContain('HTTP 404')
    expect(alert.textContent).toContain(NEXT_STEP_BY_CLASS['not-found'])
    await user.click(within(alert).getByRole('button', { name: 'Fix datasetSource' }))
    expect(document.activeElement).toBe(combobox('Source dataset'))
  })

  it('after an unknown outcome of a saving run, refreshes the datasets and says whether it was saved', async () => {
    fake.respond('gis.join', () => fail('unknown-outcome', 'The service did not answer', { status: 202 }))
    await renderComposer()
    await fillDatasetJoin()
    await user.click(screen.getByRole('checkbox', { name: 'Save as new dataset' }))
    await fill(textbox('New dataset name'), 'cities_saved')
    await user.click(runButton())
    const alert = await screen.findByRole('alert')
    fake.state.datasets = [...fake.state.datasets, { layername: 'cities_saved', local: true }]
    await user.click(within(alert).getByRole('button', { name: 'Refresh datasets and check' }))
    await screen.findByText(
      'The dataset "cities_saved" exists now and did not before: the run did save it. Do not run it again.',
    )
  })

  it('says "outcome unknown" when a saving run is cancelled after it was sent, and reconciles by the lists before and after', async () => {
    let finish: (value: ReturnType<typeof fail>) => void = () => {}
    fake.respond('gis.join', () => new Promise((resolve) => (finish = resolve)))
    await renderComposer()
    await fillDatasetJoin()
    await user.click(screen.getByRole('checkbox', { name: 'Save as new dataset' }))
    await fill(textbox('New dataset name'), 'cities_saved')
    await user.click(runButton())
    await waitFor(() => expect(joinCalls()).toHaveLength(1))
    await user.click(button('Cancel run'))
    await screen.findByText(/Cancelling · checking the dataset list for "cities_saved"/)
    finish(
      fail(
        'unknown-outcome',
        'gis.join: cancelled by the caller; cities_saved is not in the dataset list yet',
      ),
    )
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toMatch(/Outcome unknown\. The run was cancelled after it was sent\./)
    expect(screen.queryByText(/^Run cancelled after/)).toBeNull()

    // Saved after all, under the name in another letter case: the service's rule counts it as this run's.
    fake.state.datasets = [...fake.state.datasets, { layername: 'CITIES_SAVED', local: true }]
    await user.click(within(alert).getByRole('button', { name: 'Refresh datasets and check' }))
    await screen.findByText(
      'The dataset "CITIES_SAVED" exists now and did not before: the run did save it. Do not run it again.',
    )
  })

  it('offers Settings at the spatial-analytics token for an authentication failure, and a retry for a timeout', async () => {
    fake.respond('gis.join', () => fail('authentication', 'token.gis was refused', { status: 401 }))
    await renderComposer()
    await fillDatasetJoin()
    await user.click(runButton())
    const alert = await screen.findByRole('alert')
    await user.click(within(alert).getByRole('button', { name: 'Open Settings' }))
    const layout = useShellStore()
    expect(layout.settingsOpen).toBe(true)
    expect(layout.settingsRequest).toMatchObject({ section: 'credentials', credential: 'token.gis' })

    let calls = 0
    fake.respond('gis.join', ({ runId }: { runId: string }) =>
      ++calls === 1
        ? fail('timeout-network', 'no answer in 30 s')
        : ok<JoinRun>({ runId, ...withRows([]), partial: false, durationMs: 3 }),
    )
    await user.click(runButton())
    const retry = await screen.findByRole('button', { name: 'Retry' })
    await user.click(retry)
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull())
    expect(calls).toBe(2)
  })

  it('names every control', async () => {
    await renderComposer()
    await user.click(screen.getByRole('checkbox', { name: 'Use drawn shapes' }))
    await user.click(screen.getByRole('checkbox', { name: 'Save as new dataset' }))
    const form = screen.getByRole('form', { name: 'Spatial join' })
    for (const role of ['combobox', 'textbox', 'checkbox', 'radio', 'button'])
      for (const control of within(form).queryAllByRole(role))
        expect(within(form).getAllByRole(role, { name: /\S/ })).toContain(control)
  })
})
