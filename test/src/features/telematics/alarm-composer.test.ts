import { screen, waitFor, within } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fail } from '@contract/index'
import { alarmFieldRules, TYPE_VALUES } from '@contract/telematics/alarm'
import * as bridge from '../../../../src/bridge'
import AlarmComposer from '../../../../src/features/telematics/AlarmComposer.vue'
import DevicesPanel from '../../../../src/features/telematics/DevicesPanel.vue'
import type { FakeGeo } from '../../support/fake-geo'
import { renderFleet } from './fleet-test-app'

vi.mock('../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, fake }
})
const fake = (bridge as unknown as { fake: FakeGeo }).fake
const user = userEvent.setup()

const composer = () => screen.getByRole('form', { name: 'New alarm' })
const field = (name: string | RegExp) => within(composer()).queryByLabelText(name)
const createButton = () => within(composer()).getByRole<HTMLButtonElement>('button', { name: 'Create alarm' })
const createCalls = () => vi.mocked(fake.geo['telematics.createAlarm']).mock.calls.map((c) => c[0])

async function renderWithDevices() {
  renderFleet(DevicesPanel, AlarmComposer)
  await waitFor(() => expect(screen.getAllByRole('row').length).toBeGreaterThan(4))
}

/** Choose a device in the list, then add it to the alarm. */
async function addDevice(name: string) {
  await user.click(screen.getByRole('row', { name: new RegExp(name) }))
  await user.click(within(composer()).getByRole('button', { name: `Add ${name}` }))
}

describe('Alarm composer', () => {
  beforeEach(() => {
    fake.reset()
    localStorage.clear()
  })

  it('shows the fields the shared rules give each alarm type', async () => {
    await renderWithDevices()
    const alarmType = within(composer()).getByRole('combobox', { name: 'Alarm type' })
    // Overspeed: limit in km/h and duration, no type, no geofences.
    expect(field('Limit (km/h)')).toBeTruthy()
    expect(field('Duration (s)')).toBeTruthy()
    expect(field('When')).toBeNull()
    expect(within(composer()).queryByRole('group', { name: 'Geofences' })).toBeNull()

    for (const id of [21, 26, 27, 129, 133, 151, 24]) {
      await user.selectOptions(alarmType, String(id))
      const rules = alarmFieldRules(id, TYPE_VALUES[id]?.[0])
      expect(!!field(/^Limit/), `limit of ${id}`).toBe(rules.limit !== 'unused')
      expect(!!field('Duration (s)'), `duration of ${id}`).toBe(rules.duration !== 'unused')
      expect(!!within(composer()).queryByRole('group', { name: 'Geofences' }), `geofences of ${id}`).toBe(
        rules.geofenceId !== 'unused',
      )
      const when = field('When') as HTMLSelectElement | null
      expect(when ? [...when.options].map((o) => Number(o.value)) : null, `type of ${id}`).toEqual(
        rules.type ? [...rules.type] : null,
      )
    }
    await user.selectOptions(alarmType, '129')
    expect(field('Limit (mV)')).toBeTruthy()
    // Geofence long stay takes an optional duration.
    await user.selectOptions(alarmType, '26')
    expect(field('Duration (s)')).toBeNull()
    await user.selectOptions(field('When')!, '4')
    expect(field('Duration (s)')).toBeTruthy()
  })

  it('explains what is missing in the validator’s words, then creates the alarm with a key', async () => {
    await renderWithDevices()
    await user.type(field('Limit (km/h)')!, 'fast')
    expect(createButton().disabled).toBe(true)
    expect(within(composer()).getByText(/Limit must be a non-negative integer/)).toBeTruthy()
    expect(within(composer()).getByText(/Duration is required for alarm type OVERSPEED \(22\)/)).toBeTruthy()
    expect(within(composer()).getByText(/Devices \(deviceId\) is required/)).toBeTruthy()

    await user.clear(field('Limit (km/h)')!)
    await user.type(field('Limit (km/h)')!, '80')
    await user.type(field('Duration (s)')!, '30')
    await addDevice('Truck 1')
    await addDevice('Bus 3')
    expect(within(composer()).getByRole('list', { name: 'Devices of the alarm' }).textContent).toMatch(
      /Truck 1.*Bus 3/,
    )
    await user.selectOptions(field('Severity')!, '1')
    await waitFor(() =>
      expect(within(composer()).getByLabelText('Request body').textContent).toMatch(/"limit": "80"/),
    )

    await user.click(createButton())
    await waitFor(() => expect(within(composer()).getByRole('status').textContent).toMatch(/configuration 1/))
    expect(createCalls()).toEqual([
      {
        fields: { alarmType: 22, deviceId: [1, 3], duration: '30', limit: '80', severity: '1' },
        idempotencyKey: expect.stringMatching(/.{8,}/),
      },
    ])
    expect(fake.fleet.configurations).toHaveLength(1)
  })

  it('picks geofences of the geofence layer for a geofence alarm', async () => {
    await renderWithDevices()
    await user.selectOptions(within(composer()).getByRole('combobox', { name: 'Alarm type' }), '26')
    const geofences = within(composer()).getByRole('list', { name: 'Geofences of the geofence layer' })
    await waitFor(() => expect(within(geofences).getAllByRole('checkbox')).toHaveLength(2))
    await user.selectOptions(field('When')!, '2')
    await addDevice('Car 2')
    expect(createButton().disabled).toBe(true)
    await user.click(within(geofences).getByRole('checkbox', { name: 'Harbour (2)' }))
    expect(createButton().disabled).toBe(false)
    await user.click(createButton())
    await waitFor(() => expect(createCalls()).toHaveLength(1))
    expect(createCalls()[0]!.fields).toEqual({
      alarmType: 26,
      deviceId: [2],
      type: '2',
      geofenceId: [2],
      severity: '0',
    })
  })

  it('shows an unknown outcome as such, checks the list, and sends again only on request with the same key', async () => {
    await renderWithDevices()
    await user.type(field('Limit (km/h)')!, '80')
    await user.type(field('Duration (s)')!, '30')
    await addDevice('Truck 1')
    fake.failNext(
      'telematics.createAlarm',
      fail('unknown-outcome', 'telematics.alarm: the connection closed before the answer').error,
    )
    await user.click(createButton())
    const alert = await within(composer()).findByRole('alert')
    expect(alert.textContent).toMatch(/Outcome unknown: telematics\.alarm: the connection closed/)
    expect(within(alert).queryByRole('button', { name: 'Send again with the same key' })).toBeNull()
    expect(createCalls()).toHaveLength(1)

    await user.click(within(alert).getByRole('button', { name: 'Check the configurations' }))
    await waitFor(() => expect(alert.textContent).toMatch(/not in the list of configurations/))
    await user.click(within(alert).getByRole('button', { name: 'Send again with the same key' }))
    await waitFor(() => expect(within(composer()).getByRole('status').textContent).toMatch(/Alarm created/))
    const [first, second] = createCalls()
    expect(second).toEqual({ ...first, confirm: true })
    expect(fake.fleet.configurations).toHaveLength(1)
  })

  it('finds a configuration whose answer was lost, and does not send it again', async () => {
    await renderWithDevices()
    await user.type(field('Limit (km/h)')!, '80')
    await user.type(field('Duration (s)')!, '30')
    await addDevice('Truck 1')
    // The service creates it, but the answer never arrives.
    fake.respond(
      'telematics.createAlarm',
      (request: { fields: { alarmType: number }; idempotencyKey: string }) => {
        fake.fleet.configurations.push({
          id: 7,
          alarmType: 22,
          deviceId: [1],
          idempotencyKey: request.idempotencyKey,
        })
        return fail('unknown-outcome', 'telematics.alarm: timed out waiting for the answer')
      },
    )
    await user.click(createButton())
    const alert = await within(composer()).findByRole('alert')
    await user.click(within(alert).getByRole('button', { name: 'Check the configurations' }))
    await waitFor(() =>
      expect(within(composer()).getByRole('status').textContent).toMatch(
        /configuration 7.*found in the list of configurations, so it was not sent again/s,
      ),
    )
    expect(createCalls()).toHaveLength(1)
  })
})
