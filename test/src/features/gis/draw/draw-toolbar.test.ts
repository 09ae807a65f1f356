import { screen, waitFor, within } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import type { Polygon } from 'geojson'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { geoError } from '@contract/index'
import * as bridge from '../../../../../src/bridge'
import DrawToolbar from '../../../../../src/features/gis/draw/DrawToolbar.vue'
import { useDrawingsStore } from '../../../../../src/features/gis/draw/drawings-store'
import { useMapStore } from '../../../../../src/features/map/view/map-store'
import type { FakeGeo } from '../../../support/fake-geo'
import { renderInApp } from '../../../support/render'

vi.mock('../../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake
// A person can pick any file in the chooser (its "All files" filter), not only the accepted types.
const user = userEvent.setup({ applyAccept: false })

const square = (lon = 77): Polygon => ({
  type: 'Polygon',
  coordinates: [
    [
      [lon, 28],
      [lon + 1, 28],
      [lon + 1, 29],
      [lon, 29],
      [lon, 28],
    ],
  ],
})

async function renderToolbar() {
  renderInApp(DrawToolbar)
  await waitFor(() => expect(fake.geo['drawings.load']).toHaveBeenCalled())
}

const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name })
/** The drawn shapes' list items; the list over the map is not there at all while it would be empty. */
const shapeItems = () => {
  const list = screen.queryByRole('list', { name: 'Drawn shapes' })
  return list ? within(list).queryAllByRole('listitem') : []
}
const alerts = (text: RegExp) => screen.queryAllByRole('alert').filter((a) => text.test(a.textContent ?? ''))

describe('DrawToolbar', () => {
  beforeEach(() => {
    fake.reset()
    localStorage.clear()
  })

  it('offers every drawing tool by name and states the circle’s vertex count', async () => {
    await renderToolbar()
    const toolbar = within(screen.getByRole('toolbar', { name: 'Drawing tools' }))
    for (const name of [
      'Draw polygon',
      'Draw rectangle',
      'Draw circle',
      'Draw freehand polygon',
      'Draw point',
      'Draw line',
      'Select and edit',
      'Delete selected',
      'Undo',
      'Redo',
      'Import shapes',
      'Clear drawings',
    ])
      toolbar.getByRole('button', { name })
    // The note is the button's description (its tooltip, outside the button), not part of its name.
    const circleNote = button('Draw circle').getAttribute('aria-describedby') ?? ''
    expect(document.getElementById(circleNote)?.textContent).toContain('Circle (64 vertices)')
    await user.click(button('Draw circle'))
    expect(button('Draw circle').getAttribute('aria-pressed')).toBe('true')
    expect(screen.getByRole('status').textContent).toContain('Circle (64 vertices): sent as a polygon')
    await user.click(button('Draw polygon'))
    expect(useDrawingsStore().mode).toBe('polygon')
    expect(button('Draw circle').getAttribute('aria-pressed')).toBe('false')
    await user.click(button('Draw polygon'))
    expect(useDrawingsStore().mode).toBe('none')
  })

  it('loads the saved drawings on start and lists each shape with its measure', async () => {
    fake.state.drawings = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          id: 'k1',
          properties: { name: 'Polygon 1', shape: 'polygon' },
          geometry: square(),
        },
      ],
    }
    await renderToolbar()
    await waitFor(() =>
      expect(shapeItems().map((li) => li.getAttribute('aria-label'))).toEqual([
        expect.stringMatching(/^Polygon 1 · 10,8\d\d\.\d km²$/),
      ]),
    )
    expect(fake.geo['drawings.load']).toHaveBeenCalledTimes(1)
  })

  it('selects shapes from the list (Shift adds), deletes them, and undoes and redoes with the buttons', async () => {
    await renderToolbar()
    const store = useDrawingsStore()
    store.add('polygon', square())
    store.add('point', { type: 'Point', coordinates: [77.5, 28.5] })
    await waitFor(() => expect(shapeItems()).toHaveLength(2))
    expect(button('Delete selected').disabled).toBe(true)
    const [first, second] = shapeItems().map((li) => within(li).getByRole('button'))
    await user.click(first!)
    await user.keyboard('{Shift>}')
    await user.click(second!)
    await user.keyboard('{/Shift}')
    expect(first!.getAttribute('aria-pressed')).toBe('true')
    expect(second!.getAttribute('aria-pressed')).toBe('true')
    screen.getByRole('region', { name: 'Drawn shapes (2)' })
    await user.click(button('Delete selected'))
    expect(shapeItems()).toHaveLength(0)
    // Empty, the box over the map folds away (it does not cover the map to say "none").
    expect(screen.queryByRole('region', { name: /^Drawn shapes/ })).toBeNull()
    await user.click(button('Undo'))
    expect(shapeItems().map((li) => li.getAttribute('aria-label'))).toEqual([
      expect.stringMatching(/^Polygon 1 · /),
      'Point 1',
    ])
    await user.click(button('Redo'))
    expect(shapeItems()).toHaveLength(0)
    expect(button('Redo').disabled).toBe(true)
  })

  it('shows an alert naming a self-intersecting shape until it is fixed', async () => {
    await renderToolbar()
    const store = useDrawingsStore()
    const id = store.add('polygon', {
      type: 'Polygon',
      coordinates: [
        [
          [77, 28],
          [78, 29],
          [78, 28],
          [77, 29],
          [77, 28],
        ],
      ],
    })
    await waitFor(() => expect(alerts(/^\s*Polygon 1 crosses itself/)).toHaveLength(1))
    store.updateGeometries([{ id, geometry: square() }])
    await waitFor(() => expect(alerts(/crosses itself/)).toHaveLength(0))
  })

  it('says when drawings could not be saved, with the next step, and keeps them', async () => {
    await renderToolbar()
    fake.respond('drawings.save', () => ({
      ok: false,
      error: geoError('local-configuration', 'The drawings file is read-only'),
    }))
    useDrawingsStore().add('polygon', square())
    // Saving waits for a pause in the editing; the alert appears once the save has failed.
    await waitFor(() => expect(alerts(/The drawings file is read-only/)).toHaveLength(1), { timeout: 3000 })
    const [alert] = alerts(/The drawings file is read-only/)
    expect(alert!.textContent).toContain('Fix the setting or credential named in the message')
    screen.getByText(/saved again on your next change/)
    expect(shapeItems()).toHaveLength(1)
  })

  it('imports shapes from the chosen file and fits the map to them', async () => {
    await renderToolbar()
    const input = screen.getByLabelText('Shapes file (GeoJSON or KML)')
    const file = new File(
      [JSON.stringify({ type: 'Feature', properties: { name: 'Zone A' }, geometry: square(80) })],
      'zone.geojson',
    )
    await user.upload(input, file)
    await waitFor(() => expect(shapeItems()).toHaveLength(1))
    expect(shapeItems()[0]!.getAttribute('aria-label')).toMatch(/^Zone A · /)
    expect(useMapStore().fitRequest?.box).toEqual([80, 28, 81, 29])

    await user.upload(input, new File(['nope'], 'notes.txt'))
    await waitFor(() => expect(alerts(/^\s*Shapes not imported: notes\.txt: /)).toHaveLength(1))
    expect(shapeItems()).toHaveLength(1)
  })
})
