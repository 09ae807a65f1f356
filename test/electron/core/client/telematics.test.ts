import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FakeProvider } from '../../../support/fake-provider'
import { clientFor, TOKEN } from './helpers'

let fake: FakeProvider
beforeEach(async () => {
  fake = await new FakeProvider().start()
})
afterEach(() => fake.stop())

const ALARM = '/telematics/alarm'
const overspeed = { alarmType: 22, deviceId: [101, 102], duration: 30, limit: 80, severity: 1 }

describe('telematics client', () => {
  it('devices: query as the spec names it; booleans as text, timetamp kept, unknown members kept', async () => {
    fake.on('/telematics/devices', {
      status: 200,
      json: {
        data: [
          {
            id: 7,
            active: 'true',
            status: 1,
            location: { latitude: 28.6, longitude: '77.2', address: 'x' },
            deviceFaults: [
              { code: 3, timetamp: 1700000000, status: 0 },
              { code: 4, timestamp: '1700000001' },
            ],
            brandNew: { a: 1 },
          },
        ],
      },
    })
    const { client } = clientFor(fake)
    const r = await client.telematics.devices({ id: '7', includeInActive: 'true', ignoreBeacon: false })
    const req = fake.received[0]!
    expect(req.path).toBe('/telematics/devices')
    expect(Object.fromEntries(req.query)).toEqual({ id: '7', includeInActive: 'true', ignoreBeacon: 'false' })
    expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`)
    expect(r).toMatchObject({
      ok: true,
      value: {
        data: [
          {
            id: 7,
            active: true,
            location: { longitude: 77.2 },
            deviceFaults: [{ timetamp: 1700000000 }, { timetamp: 1700000001 }],
            brandNew: { a: 1 },
          },
        ],
      },
    })
  })

  it('devices: 203 means device not found', async () => {
    fake.on('/telematics/devices', { status: 203, json: {} })
    const r = await clientFor(fake).client.telematics.devices({ id: 99 })
    expect(r.ok ? null : r.error).toMatchObject({ failureClass: 'not-found', status: 203, field: 'id' })
  })

  it('hardware: GET /devices/hardwareinfo; 204 is an empty list', async () => {
    fake.on('/telematics/devices/hardwareinfo', {
      status: 200,
      json: { data: [{ id: 'hw1', active: 'false', odometerType: '2' }] },
    })
    const { client } = clientFor(fake)
    expect(await client.telematics.hardware({ id: 5 })).toMatchObject({
      ok: true,
      value: { data: [{ id: 'hw1', active: false, odometerType: 2 }] },
    })
    expect(fake.received[0]!.query.get('id')).toBe('5')
    fake.on('/telematics/devices/hardwareinfo', { status: 204 })
    expect(await client.telematics.hardware({})).toEqual({ ok: true, value: { data: [] } })
  })

  it('alarm: JSON body by default, form data when chosen', async () => {
    fake.on(ALARM, { status: 201, json: { message: 'created', id: 1 } })
    const { client } = clientFor(fake)
    const r = await client.telematics.createAlarm(overspeed)
    const json = fake.to(ALARM)[0]!
    expect(json.method).toBe('POST')
    expect(json.headers['content-type']).toBe('application/json')
    expect(JSON.parse(json.body.toString())).toEqual(overspeed)
    expect(r).toMatchObject({
      ok: true,
      value: {
        created: true,
        status: 201,
        response: { id: 1 },
        fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/),
      },
    })
    await client.telematics.createAlarm(
      { alarmType: '26', deviceId: '5', type: '2', geofenceId: '11,12' },
      { contentType: 'form' },
    )
    const form = fake.to(ALARM)[1]!
    expect(form.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/)
    const text = form.body.toString()
    for (const [k, v] of [
      ['alarmType', '26'],
      ['deviceId', '5'],
      ['type', '2'],
      ['geofenceId', '11,12'],
    ]) {
      expect(text).toContain(`name="${k}"\r\n\r\n${v}\r\n`)
    }
  })

  it('alarm: per-type rules are checked before sending', async () => {
    const { client } = clientFor(fake)
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ alarmType: 22, deviceId: [1], limit: 80 }, /duration: is required for alarm type OVERSPEED \(22\)/],
      [{ alarmType: 26, deviceId: [1], type: 1 }, /geofenceId: is required/],
      [{ alarmType: 21, deviceId: [1], type: 4 }, /type: must be one of 1, 2, 3, 5/],
      [{ alarmType: 25, deviceId: [1] }, /alarmType: must be one of the §2.8 ids/],
      [{ alarmType: 24, deviceId: [1], geofenceId: [3] }, /geofenceId: is used only by alarm type GEOFENCE/],
      [{ alarmType: 133, deviceId: [], limit: 5, type: 0 }, /deviceId: must be one or more/],
      [{ alarmType: 24, deviceId: [1], severity: 2 }, /severity: must be 0/],
    ]
    for (const [body, message] of cases) {
      const r = await client.telematics.createAlarm(body)
      expect(r.ok ? '' : r.error.message).toMatch(message)
    }
    expect(fake.received).toHaveLength(0)
  })

  it('alarm: a reset after the request was received is sent exactly once and reported unknown-outcome; an identical resubmission is refused until confirmed', async () => {
    fake.on(ALARM, { reset: true }, { status: 201, json: {} })
    const { client, history } = clientFor(fake)
    const r = await client.telematics.createAlarm(overspeed)
    expect(fake.to(ALARM)).toHaveLength(1)
    expect(r.ok ? null : r.error).toMatchObject({ failureClass: 'unknown-outcome', retry: 'reconcile-first' })
    const fingerprint = r.ok ? '' : (r.error.code as string)
    expect(fingerprint).toMatch(/^[0-9a-f]{16}$/)
    expect(r.ok ? '' : r.error.message).toContain(fingerprint)

    const again = await client.telematics.createAlarm({ ...overspeed })
    expect(again.ok ? null : again.error).toMatchObject({
      failureClass: 'unknown-outcome',
      code: fingerprint,
    })
    expect(again.ok ? '' : again.error.message).toMatch(/resend with confirm/)
    expect(fake.to(ALARM)).toHaveLength(1)

    const confirmed = await client.telematics.createAlarm(overspeed, { confirm: true })
    expect(confirmed.ok).toBe(true)
    expect(fake.to(ALARM)).toHaveLength(2)
    expect(history.map((h) => [h.failureClass, h.attempts, h.fingerprint])).toEqual([
      ['unknown-outcome', 1, fingerprint],
      ['unknown-outcome', 0, fingerprint],
      [undefined, 1, fingerprint],
    ])
  })

  it('alarm: a hanging provider times out once, never resent', async () => {
    fake.on(ALARM, { hang: true })
    const { client } = clientFor(fake)
    const r = await client.telematics.createAlarm(overspeed)
    expect(fake.to(ALARM)).toHaveLength(1)
    expect(r.ok ? null : r.error.failureClass).toBe('unknown-outcome')
  }, 10_000)

  it('alarm: a 409 is reported, never turned into a new write; 503 is not replayed either', async () => {
    fake.on(ALARM, { status: 409, json: { message: 'exists' } })
    const { client } = clientFor(fake)
    const r = await client.telematics.createAlarm(overspeed)
    expect(r.ok ? null : r.error).toMatchObject({ failureClass: 'conflict', status: 409 })
    fake.on(ALARM, { status: 503 })
    const u = await client.telematics.createAlarm({ ...overspeed, severity: 0 })
    expect(u.ok ? null : u.error).toMatchObject({ failureClass: 'provider-unavailable' })
    expect(fake.to(ALARM)).toHaveLength(2)
  })
})

describe('alarm fingerprint', () => {
  it('is the same for the same alarm as JSON or form data, and differs for another alarm', async () => {
    fake.on(ALARM, { reset: true })
    const { client } = clientFor(fake)
    const first = await client.telematics.createAlarm(overspeed)
    const asForm = await client.telematics.createAlarm(overspeed, { contentType: 'form' })
    expect(asForm.ok ? null : asForm.error.code).toBe(first.ok ? 'x' : first.error.code)
    expect(fake.to(ALARM)).toHaveLength(1)
    const other = await client.telematics.createAlarm({ ...overspeed, limit: 90 })
    expect(other.ok ? null : other.error.code).not.toBe(first.ok ? 'x' : first.error.code)
    expect(fake.to(ALARM)).toHaveLength(2)
  })
})
