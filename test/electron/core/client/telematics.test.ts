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

  it('alarm: a reset after the request was received is sent exactly once, looked for in the list, and reported unknown-outcome; an identical resubmission is refused until confirmed, and then carries the same Idempotency-Key', async () => {
    fake.on(`POST ${ALARM}`, { reset: true }, { status: 201, json: {} })
    fake.on(`GET ${ALARM}`, { status: 200, json: { data: [{ id: 4, alarmType: 27, deviceId: [1] }] } })
    const { client, history } = clientFor(fake)
    const r = await client.telematics.createAlarm(overspeed)
    expect(fake.to(ALARM, 'POST')).toHaveLength(1)
    expect(fake.to(ALARM, 'GET')).toHaveLength(1)
    expect(r.ok ? null : r.error).toMatchObject({ failureClass: 'unknown-outcome', retry: 'reconcile-first' })
    const fingerprint = r.ok ? '' : (r.error.code as string)
    expect(fingerprint).toMatch(/^[0-9a-f]{16}$/)
    expect(r.ok ? '' : r.error.message).toContain(fingerprint)
    expect(r.ok ? '' : r.error.message).toMatch(/probably not created; resend with confirm/)
    const key = fake.to(ALARM, 'POST')[0]!.headers['idempotency-key'] as string
    expect(key).toMatch(/^[0-9a-f-]{36}$/)

    const again = await client.telematics.createAlarm({ ...overspeed })
    expect(again.ok ? null : again.error).toMatchObject({
      failureClass: 'unknown-outcome',
      code: fingerprint,
    })
    expect(again.ok ? '' : again.error.message).toMatch(/resend with confirm/)
    expect(fake.to(ALARM, 'POST')).toHaveLength(1)

    const confirmed = await client.telematics.createAlarm(overspeed, { confirm: true })
    expect(confirmed).toMatchObject({ ok: true, value: { idempotencyKey: key } })
    expect(fake.to(ALARM, 'POST')).toHaveLength(2)
    expect(fake.to(ALARM, 'POST')[1]!.headers['idempotency-key']).toBe(key)
    expect(
      history
        .filter((h) => h.operation === 'telematics.alarm')
        .map((h) => [h.failureClass, h.attempts, h.fingerprint]),
    ).toEqual([
      ['unknown-outcome', 1, fingerprint],
      ['unknown-outcome', 0, fingerprint],
      [undefined, 1, fingerprint],
    ])
  })

  it('alarm: a lost answer is reconciled by identity — the configuration listed with its Idempotency-Key is the result, nothing is sent again', async () => {
    fake.on(`POST ${ALARM}`, { reset: true })
    fake.on(`GET ${ALARM}`, {
      status: 200,
      json: {
        data: [
          { id: 3, alarmType: 22, deviceId: [101, 102], idempotencyKey: 'other-key-0001' },
          {
            id: 9,
            alarmType: 22,
            deviceId: [101, 102],
            limit: 80,
            duration: 30,
            idempotencyKey: 'key-0123456789',
          },
        ],
      },
    })
    const { client } = clientFor(fake)
    const r = await client.telematics.createAlarm(overspeed, { idempotencyKey: 'key-0123456789' })
    expect(r).toMatchObject({
      ok: true,
      value: { created: true, reconciled: 'found', response: { id: 9 }, idempotencyKey: 'key-0123456789' },
    })
    expect(fake.to(ALARM, 'POST')).toHaveLength(1)
    // Found: the same alarm may be created again on purpose (its outcome is no longer unknown).
    fake.on(`POST ${ALARM}`, { status: 201, json: { data: { id: 10 } } })
    expect((await client.telematics.createAlarm(overspeed)).ok).toBe(true)
  })

  it('alarm: a hanging provider times out once, never resent', async () => {
    fake.on(`POST ${ALARM}`, { hang: true })
    fake.on(`GET ${ALARM}`, { status: 404, json: { message: 'no such path' } })
    const { client } = clientFor(fake)
    const r = await client.telematics.createAlarm(overspeed)
    expect(fake.to(ALARM, 'POST')).toHaveLength(1)
    expect(r.ok ? null : r.error.failureClass).toBe('unknown-outcome')
    expect(r.ok ? '' : r.error.message).toMatch(/could not be listed/)
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

  it('alarms and alerts: the local extensions, read tolerantly', async () => {
    fake.on(`GET ${ALARM}`, {
      status: 200,
      json: { data: [{ id: 1, alarmType: 22, deviceId: [3], extra: 1 }] },
    })
    fake.on('/telematics/alerts', {
      status: 200,
      json: { serverTime: 100, data: [{ deviceId: 3, timestamp: 99, alarmType: 22, actualLimit: 91 }] },
    })
    const { client } = clientFor(fake)
    expect(await client.telematics.alarms()).toMatchObject({ ok: true, value: [{ id: 1, extra: 1 }] })
    expect(await client.telematics.alerts({ since: '90', deviceId: 3 })).toMatchObject({
      ok: true,
      value: { serverTime: 100, data: [{ deviceId: 3, actualLimit: 91 }] },
    })
    expect(Object.fromEntries(fake.to('/telematics/alerts')[0]!.query)).toEqual({
      since: '90',
      deviceId: '3',
    })
    const bad = await client.telematics.alerts({ since: 'yesterday' })
    expect(bad.ok ? null : bad.error).toMatchObject({ failureClass: 'validation', field: 'since' })
  })
})

describe('alarm fingerprint', () => {
  it('is the same for the same alarm as JSON or form data, and differs for another alarm', async () => {
    fake.on(`POST ${ALARM}`, { reset: true })
    fake.on(`GET ${ALARM}`, { status: 200, json: { data: [] } })
    const { client } = clientFor(fake)
    const first = await client.telematics.createAlarm(overspeed)
    const asForm = await client.telematics.createAlarm(overspeed, { contentType: 'form' })
    expect(asForm.ok ? null : asForm.error.code).toBe(first.ok ? 'x' : first.error.code)
    expect(fake.to(ALARM, 'POST')).toHaveLength(1)
    const other = await client.telematics.createAlarm({ ...overspeed, limit: 90 })
    expect(other.ok ? null : other.error.code).not.toBe(first.ok ? 'x' : first.error.code)
    expect(fake.to(ALARM, 'POST')).toHaveLength(2)
  })
})
