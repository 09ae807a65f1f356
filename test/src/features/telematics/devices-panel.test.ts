import { screen, waitFor, within } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import * as bridge from '../../../../src/bridge'
import DevicesPanel from '../../../../src/features/telematics/DevicesPanel.vue'
import DeviceDrawer from '../../../../src/features/telematics/DeviceDrawer.vue'
import { POLL_INTERVAL_KEY, useFleetStore } from '../../../../src/features/telematics/fleet-store'
import type { FakeGeo } from '../../support/fake-geo'
import { createTestApp } from '../../support/render'
import { renderFleet } from './fleet-test-app'

vi.mock('../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, fake }
})
const fake = (bridge as unknown as { fake: FakeGeo }).fake
const user = userEvent.setup()

const table = () => screen.getByRole('table', { name: 'Devices' })
const deviceNames = () =>
  within(table())
    .getAllByRole('row')
    .slice(1)
    .map((r) => r.querySelector('td')?.textContent?.trim())

function setVisibility(state: 'hidden' | 'visible'): void {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true })
  document.dispatchEvent(new Event('visibilitychange'))
}

describe('Fleet devices panel', () => {
  beforeEach(() => {
    fake.reset()
    localStorage.clear()
    setVisibility('visible')
  })

  it('lists the fleet with type icons, says it is simulated, searches and filters by status', async () => {
    renderFleet(DevicesPanel)
    await waitFor(() => expect(deviceNames()).toEqual(['Truck 1', 'Car 2', 'Bus 3', 'Excavator 4']))
    expect(screen.getByText('simulated')).toBeTruthy()
    expect(within(table()).getByRole('img', { name: 'Truck' })).toBeTruthy()
    expect(within(table()).getByRole('img', { name: 'Excavator' })).toBeTruthy()
    expect(screen.getByText(/5 vehicles on gothenburg-sample/)).toBeTruthy()

    await user.type(screen.getByRole('searchbox', { name: 'Search devices' }), 'bus')
    expect(deviceNames()).toEqual(['Bus 3'])
    await user.clear(screen.getByRole('searchbox', { name: 'Search devices' }))

    // Every §3 status is a choice with its count; unticking one hides its devices.
    const statuses = screen.getByRole('group', { name: 'Status' })
    expect(within(statuses).getAllByRole('checkbox')).toHaveLength(8)
    await user.click(within(statuses).getByRole('checkbox', { name: /Moving/ }))
    await user.click(within(statuses).getByRole('checkbox', { name: /Power off/ }))
    expect(deviceNames()).toEqual(['Car 2', 'Bus 3'])
  })

  it('lists inactive devices only when asked to, from a poll of the whole fleet', async () => {
    renderFleet(DevicesPanel)
    await waitFor(() => expect(deviceNames()).toHaveLength(4))
    expect(deviceNames()).not.toContain('Car 5')
    await user.click(screen.getByRole('checkbox', { name: 'Include inactive devices' }))
    await waitFor(() => expect(deviceNames()).toContain('Car 5'))
    const polls = vi.mocked(fake.geo['telematics.poll']).mock.calls.map((c) => c[0])
    expect(polls.at(-1)).toEqual({ includeInActive: true })
    await user.click(screen.getByRole('checkbox', { name: 'Include inactive devices' }))
    await waitFor(() => expect(deviceNames()).not.toContain('Car 5'))
  })

  it('selects a device by keyboard, opens its drawer, follows it and keeps the refresh interval', async () => {
    renderFleet(DevicesPanel, DeviceDrawer)
    await waitFor(() => expect(deviceNames()).toHaveLength(4))
    const rows = within(table()).getAllByRole('row')
    rows[1]!.focus()
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}')
    await waitFor(() => expect(rows[3]!.getAttribute('aria-selected')).toBe('true'))

    const drawer = screen.getByRole('region', { name: 'Device details' })
    await waitFor(() => expect(within(drawer).getByRole('heading', { name: 'Bus 3' })).toBeTruthy())
    expect(within(drawer).getByText('On trip')).toBeTruthy()
    expect(
      within(within(drawer).getByRole('region', { name: "Today's drive" })).getByText('42.3 km'),
    ).toBeTruthy()
    expect(
      within(within(drawer).getByRole('region', { name: 'CAN data' })).getByText('1,800 rpm'),
    ).toBeTruthy()
    expect(within(drawer).getByRole('table', { name: 'Device faults' }).textContent).toMatch(/118.*open/)
    expect(within(within(drawer).getByRole('region', { name: 'Hardware' })).getByText('HW3')).toBeTruthy()

    const follow = screen.getByRole('button', { name: 'Follow' })
    await user.click(follow)
    expect(screen.getByRole('button', { name: 'Following' }).getAttribute('aria-pressed')).toBe('true')
    expect(useFleetStore().followId).toBe(3)

    const interval = screen.getByRole('spinbutton', { name: 'Refresh every (s)' })
    await user.clear(interval)
    await user.type(interval, '12')
    await user.tab()
    expect(localStorage.getItem(POLL_INTERVAL_KEY)).toBe('12')
  })
})

describe('Fleet polling', () => {
  beforeEach(() => {
    fake.reset()
    localStorage.clear()
    setVisibility('visible')
  })

  it('polls the whole fleet once, then only what changed since `state`, and pauses while the window is hidden', async () => {
    vi.useFakeTimers()
    createTestApp([])
    const store = useFleetStore()
    const stopVisibility = store.watchVisibility()
    const polls = () => vi.mocked(fake.geo['telematics.poll']).mock.calls.map((c) => c[0])
    store.start()
    await vi.advanceTimersByTimeAsync(0)
    expect(polls()).toEqual([{}])
    expect(store.list).toHaveLength(4)
    const first = store.serverTime!

    await vi.advanceTimersByTimeAsync(5000)
    expect(polls()[1]).toEqual({ state: first, alertsSince: first })
    // Only the moving devices changed; the others keep their last record.
    expect(store.changed).toEqual([1, 3])
    expect(store.list).toHaveLength(4)
    expect(store.trailOf(1)).toHaveLength(2)

    setVisibility('hidden')
    await vi.advanceTimersByTimeAsync(60_000)
    expect(polls()).toHaveLength(2)
    expect(store.paused).toBe(true)

    setVisibility('visible')
    await vi.advanceTimersByTimeAsync(0)
    expect(polls()).toHaveLength(3)
    stopVisibility()
  })
})
