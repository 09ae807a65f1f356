import { screen, waitFor, within } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { AlertEntry } from '@contract/telematics/fleet'
import * as bridge from '../../../../src/bridge'
import AlertNotifications from '../../../../src/features/telematics/AlertNotifications.vue'
import AlertsFeed from '../../../../src/features/telematics/AlertsFeed.vue'
import DeviceDrawer from '../../../../src/features/telematics/DeviceDrawer.vue'
import ReplayPanel from '../../../../src/features/telematics/ReplayPanel.vue'
import { useFleetStore } from '../../../../src/features/telematics/fleet-store'
import type { FakeGeo } from '../../support/fake-geo'
import { renderFleet } from './fleet-test-app'

vi.mock('../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})
const fake = (bridge as unknown as { fake: FakeGeo }).fake
const user = userEvent.setup()

const alert = (over: Partial<AlertEntry>): AlertEntry => ({
  deviceId: 1,
  timestamp: 1_800_000_100,
  latitude: 57.7,
  longitude: 11.97,
  alarmType: 22,
  limit: 80,
  duration: 30,
  actualLimit: 97,
  actualDuration: 42,
  severity: 0,
  seq: 1,
  ...over,
})

describe('Alerts feed', () => {
  beforeEach(() => {
    fake.reset()
    localStorage.clear()
  })

  it('lists alerts newest first, notifies high severity, and shows a chosen alert and its device', async () => {
    renderFleet(AlertsFeed, AlertNotifications, DeviceDrawer)
    const store = useFleetStore()
    await store.poll()
    fake.fleet.pending.push(
      alert({ seq: 1, timestamp: 1_800_000_100 }),
      alert({
        seq: 2,
        deviceId: 3,
        alarmType: 26,
        data: 2,
        geofenceId: 1,
        timestamp: 1_800_000_200,
        severity: 1,
        actualLimit: undefined,
        actualDuration: undefined,
      }),
    )
    await store.poll()
    const feed = await screen.findByRole('list', { name: 'Alerts, newest first' })
    const items = within(feed).getAllByRole('button')
    expect(items.map((b) => b.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      expect.stringMatching(/^Geofence \(entry\) — Bus 3/),
      expect.stringMatching(/^Overspeed — Truck 1: 97 km\/h \(limit 80\) for 42 s/),
    ])

    expect(within(items[0]!).getByRole('img', { name: 'High severity' })).toBeTruthy()
    expect(within(items[1]!).queryByRole('img')).toBeNull()
    // Only the high-severity alert is a notification.
    const notifications = screen.getByRole('region', { name: 'Alert notifications' })
    expect(within(notifications).getAllByRole('alert')).toHaveLength(1)
    await user.click(within(notifications).getByRole('button', { name: 'Show on map' }))
    expect(within(notifications).queryAllByRole('alert')).toHaveLength(0)
    expect(store.focusedAlert?.seq).toBe(2)
    expect(store.selectedId).toBe(3)

    await user.click(items[1]!)
    expect(items[1]!.getAttribute('aria-current')).toBe('true')
    await waitFor(() =>
      expect(
        within(screen.getByRole('region', { name: 'Device details' })).getByRole('heading', {
          name: 'Truck 1',
        }),
      ).toBeTruthy(),
    )

    // A poll that repeats an alert does not list it twice.
    fake.fleet.pending.push(alert({ seq: 1, timestamp: 1_800_000_100 }))
    await store.poll()
    expect(within(feed).getAllByRole('button')).toHaveLength(2)
  })
})

describe('Replay', () => {
  beforeEach(() => {
    fake.reset()
    localStorage.clear()
  })

  it('imports a track by file, then pauses it, changes its speed and removes it', async () => {
    renderFleet(ReplayPanel)
    const input = screen.getByLabelText<HTMLInputElement>('Track to replay')
    const gpx = new File(['<gpx></gpx>'], 'morning-run.gpx', { type: 'application/gpx+xml' })
    await user.upload(input, gpx)
    const tracks = await screen.findByRole('list', { name: 'Replayed tracks' })
    expect(fake.geoFiles.offerForImport).toHaveBeenCalledWith(gpx)
    expect(vi.mocked(fake.geo['telematics.importTrack'])).toHaveBeenCalledWith({
      file: expect.stringMatching(/^ref-/),
    })
    expect(within(tracks).getByText(/playing at 1×/)).toBeTruthy()
    expect(useFleetStore().selectedId).toBe(900)

    await user.click(within(tracks).getByRole('button', { name: 'Pause morning-run' }))
    await waitFor(() => expect(within(tracks).getByText(/paused/)).toBeTruthy())
    await user.selectOptions(within(tracks).getByRole('combobox', { name: 'Speed of morning-run' }), '10')
    await waitFor(() => expect(fake.fleet.tracks[0]?.speed).toBe(10))
    await user.click(within(tracks).getByRole('button', { name: 'Remove morning-run' }))
    await waitFor(() => expect(screen.getByText('No track yet.')).toBeTruthy())
  })

  it('refuses a file that is not a track before sending it', async () => {
    renderFleet(ReplayPanel)
    const input = screen.getByLabelText<HTMLInputElement>('Track to replay')
    // A person may pick "All files" in the dialog; the panel still refuses it by name.
    await userEvent
      .setup({ applyAccept: false })
      .upload(input, new File(['x'], 'photo.png', { type: 'image/png' }))
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /photo\.png: only \.gpx, \.csv, \.geojson, \.json files/,
    )
    expect(vi.mocked(fake.geo['telematics.importTrack'])).not.toHaveBeenCalled()
  })
})
