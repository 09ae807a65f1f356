import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runService, square, TOKEN, type Running } from '../helpers'

const running: Running[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()))
})

/** A clock the test moves: unix milliseconds. */
function clock(start = Date.UTC(2026, 0, 12, 8, 0, 0)) {
  let ms = start
  return {
    now: () => ms,
    seconds: () => Math.floor(ms / 1000),
    advance: (seconds: number) => (ms += seconds * 1000),
  }
}

interface Call {
  status: number
  json: Record<string, unknown>
  headers: Headers
}

async function service(options: { now?: () => number; datasets?: Parameters<typeof runService>[0] } = {}) {
  const r = await runService(options.datasets ?? {}, options.now ? { now: options.now } : {})
  running.push(r)
  const base = r.service.urls.telematics_url
  async function call(
    method: string,
    pathname: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const form = body instanceof URLSearchParams
    const response = await fetch(base + pathname, {
      method,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        ...(body === undefined
          ? {}
          : { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : form ? body.toString() : JSON.stringify(body),
    })
    const text = await response.text()
    return {
      status: response.status,
      json: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
      headers: response.headers,
    } satisfies Call
  }
  return { ...r, call }
}

/**
 * A recorded drive as CSV: 60 km/h for the first 9 seconds, 100 km/h from the 10th second on, for a
 * minute and a half, heading north-east out of Gothenburg.
 */
async function speedingTrack(dir: string): Promise<string> {
  const rows = ['time,lat,lon,speed']
  const t0 = 1_700_000_000
  const at = (s: number) => [57.7 + s * 0.0002, 11.95 + s * 0.0002]
  for (const [s, kmh] of [
    [0, 60],
    [9, 60],
    [10, 100],
    [100, 100],
  ] as const) {
    const [lat, lon] = at(s)
    rows.push(`${t0 + s},${lat},${lon},${kmh}`)
  }
  const file = path.join(dir, 'speeding.csv')
  await writeFile(file, rows.join('\n'))
  return file
}

type Device = { id: number; alerts?: Record<string, number>; location: { speedKph: number } }

describe('the telematics area of the local service (§4.7–§4.9)', () => {
  it('fires an overspeed alarm exactly when the speed has been over the limit for the duration, not before', async () => {
    const time = clock()
    const s = await service({ now: time.now })
    expect((await s.call('PUT', '/local/fleet', { vehicles: 0 })).status).toBe(200)
    const imported = await s.call('POST', '/local/tracks', { path: await speedingTrack(s.dir) })
    expect(imported.status).toBe(201)
    const deviceId = imported.json.deviceId as number
    const created = await s.call(
      'POST',
      '/alarm',
      { alarmType: 22, deviceId: [deviceId], limit: 80, duration: 30, severity: 1 },
      { 'Idempotency-Key': 'overspeed-test-1' },
    )
    expect(created.status).toBe(201)
    const start = time.seconds()
    const device = async () => {
      const r = await s.call('GET', `/devices?id=${deviceId}`)
      expect(r.status).toBe(200)
      return (r.json.data as Device[])[0]!
    }
    // The speed crosses 80 km/h at the 10th second of the recording: the breach begins then.
    time.advance(10)
    expect((await device()).location.speedKph).toBe(100)
    // 29 seconds of breach: nothing yet.
    time.advance(29)
    expect((await device()).alerts).toBeUndefined()
    expect((await s.call('GET', '/alerts')).json.data).toEqual([])
    // The 30th second: it fires, once, with what was measured.
    time.advance(1)
    const alert = (await device()).alerts!
    expect(alert).toMatchObject({
      deviceId,
      alarmType: 22,
      limit: 80,
      duration: 30,
      actualLimit: 100,
      actualDuration: 30,
      severity: 1,
      timestamp: start + 40,
    })
    time.advance(20)
    const history = (await s.call('GET', `/alerts?since=${start}`)).json.data as unknown[]
    expect(history).toHaveLength(1)
  })

  it('answers 400 naming every wrong field of an alarm, JSON or form, and 203 for an unknown device', async () => {
    const s = await service()
    await s.call('PUT', '/local/fleet', { vehicles: 0 })
    const bad = await s.call('POST', '/alarm', { alarmType: 22, deviceId: 'x', type: 1, limit: 'fast' })
    expect(bad.status).toBe(400)
    const fields = (bad.json.issues as Array<{ field: string }>).map((i) => i.field).sort()
    expect(fields).toEqual(['deviceId', 'duration', 'limit', 'type'])
    expect(bad.json.message).toMatch(/duration.*required for alarm type OVERSPEED \(22\)/)

    const form = await s.call(
      'POST',
      '/alarm',
      new URLSearchParams({ alarmType: '26', deviceId: '1', type: '9' }),
    )
    expect(form.status).toBe(400)
    expect((form.json.issues as Array<{ field: string }>).map((i) => i.field).sort()).toEqual([
      'geofenceId',
      'type',
    ])

    const unknown = await s.call('POST', '/alarm', { alarmType: 24, deviceId: [4242] })
    expect(unknown.status).toBe(203)
    expect(unknown.json).toMatchObject({ field: 'deviceId', message: 'device 4242 not found' })
    expect((await s.call('GET', '/alarm')).json.data).toEqual([])
  })

  it('answers 400 naming each bad device-list parameter, 203 for an unknown id, and hardware info', async () => {
    const s = await service()
    await s.call('PUT', '/local/fleet', { vehicles: 0 })
    await s.call('POST', '/local/tracks', { path: await speedingTrack(s.dir) })
    const bad = await s.call('GET', '/devices?id=abc&state=yesterday&includeInActive=maybe')
    expect(bad.status).toBe(400)
    expect((bad.json.issues as Array<{ field: string }>).map((i) => i.field).sort()).toEqual([
      'id',
      'includeInActive',
      'state',
    ])
    expect((await s.call('GET', '/devices?id=99')).status).toBe(203)
    const all = await s.call('GET', '/devices')
    expect(all.status).toBe(200)
    const [device] = all.json.data as Array<Record<string, unknown>>
    expect(device).toMatchObject({ active: true, status: expect.any(Number), currentGeofence: [] })
    expect(Object.keys(device!)).toEqual(
      expect.arrayContaining(['location', 'deviceDetails', 'deviceFaults', 'todaysDrive']),
    )
    // `state`: only devices with records newer than it.
    const later = await s.call('GET', `/devices?state=${(all.json.serverTime as number) + 5}`)
    expect(later.json.data).toEqual([])

    const hardware = await s.call('GET', '/devices/hardwareinfo')
    expect(hardware.status).toBe(200)
    const [h] = hardware.json.data as Array<Record<string, unknown>>
    expect(h).toMatchObject({ active: true, mappedDeviceIds: [device!.id], odometerType: expect.any(Number) })
    expect((await s.call('GET', `/devices/hardwareinfo?id=${h!.id as number}`)).json.data).toEqual([h])
    expect((await s.call('GET', '/devices/hardwareinfo?id=7')).status).toBe(204)
    const badId = await s.call('GET', '/devices/hardwareinfo?id=-3')
    expect(badId).toMatchObject({ status: 400, json: { field: 'id' } })
  })

  it('returns the first result for a repeated Idempotency-Key and refuses the key with another body', async () => {
    const s = await service()
    await s.call('PUT', '/local/fleet', { vehicles: 0 })
    const track = await s.call('POST', '/local/tracks', { path: await speedingTrack(s.dir) })
    const body = { alarmType: 21, deviceId: [track.json.deviceId], type: 2 }
    const key = { 'Idempotency-Key': 'same-key-123' }
    const first = await s.call('POST', '/alarm', body, key)
    const again = await s.call('POST', '/alarm', body, key)
    expect(first.status).toBe(201)
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.json.data).toEqual(first.json.data)
    const other = await s.call('POST', '/alarm', { ...body, type: 3 }, key)
    expect(other).toMatchObject({ status: 409, json: { field: 'Idempotency-Key' } })
    const listed = (await s.call('GET', '/alarm')).json.data as Array<Record<string, unknown>>
    expect(listed).toHaveLength(1)
    expect(listed[0]).toMatchObject({ alarmType: 21, type: 2, idempotencyKey: 'same-key-123' })
  })

  it('takes geofences from a workspace dataset: ids exist, currentGeofence follows, entry fires', async () => {
    const time = clock()
    // The track runs from (11.95, 57.7) north-east; the fence covers its 20th–60th seconds or so.
    const fence = square(11.953, 57.703, 11.962, 57.712)
    const s = await service({
      now: time.now,
      datasets: { depots: [{ geometry: fence, properties: { name: 'Depot' } }] },
    })
    await s.call('PUT', '/local/fleet', { vehicles: 0, geofenceDataset: 'depots' })
    const fences = await s.call('GET', '/local/geofences')
    const ids = (fences.json.features as Array<{ id: number }>).map((f) => f.id)
    expect(ids).toHaveLength(1)
    const track = await s.call('POST', '/local/tracks', { path: await speedingTrack(s.dir) })
    const deviceId = track.json.deviceId as number
    const wrong = await s.call('POST', '/alarm', {
      alarmType: 26,
      deviceId: [deviceId],
      type: 2,
      geofenceId: [999],
    })
    expect(wrong).toMatchObject({ status: 400, json: { field: 'geofenceId' } })
    const ok = await s.call('POST', '/alarm', {
      alarmType: 26,
      deviceId: [deviceId],
      type: 1,
      geofenceId: ids,
    })
    expect(ok.status).toBe(201)
    let inside: Device & { currentGeofence: number[] } = {
      id: 0,
      location: { speedKph: 0 },
      currentGeofence: [],
    }
    for (let s2 = 0; s2 < 90 && inside.currentGeofence.length === 0; s2++) {
      time.advance(1)
      inside = ((await s.call('GET', `/devices?id=${deviceId}`)).json.data as Array<typeof inside>)[0]!
    }
    expect(inside.currentGeofence).toEqual(ids)
    expect(inside.alerts).toMatchObject({ alarmType: 26, data: 2, geofenceId: ids[0] })
  })
})
