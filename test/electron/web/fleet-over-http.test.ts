import { afterEach, describe, expect, it } from 'vitest'
import { startWebHost, type WebHost } from '../../../electron/web/server'
import { useLocalCores } from '../../support/local-core'
import { useTempDirs } from '../../support/temp-dir'
import { webOp } from '../../support/web-op'

const tempDir = useTempDirs()
const localCore = useLocalCores(tempDir)
const hosts: WebHost[] = []
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()))
})

const CSV = [
  'time,lat,lon,speed',
  '2026-01-12T08:00:00Z,57.70,11.95,40',
  '2026-01-12T08:01:00Z,57.71,11.96,40',
]

describe('the fleet through the browser host', () => {
  it('uploads a track, imports it by reference, and polls, alarms and hardware answer over /api/op', async () => {
    const core = await localCore()
    const host = await startWebHost({
      call: core.call,
      events: core.events,
      staticDir: tempDir(),
      uploads: core.uploads,
    })
    hosts.push(host)
    const headers = { 'x-geo-session': host.secret }
    const op = webOp(host)

    expect(await op('telematics.configure', { vehicles: 0 })).toMatchObject({ ok: true })
    const uploaded = (await (
      await fetch(`${host.url}api/upload`, {
        method: 'POST',
        headers: { ...headers, 'x-file-name': 'delivery.csv' },
        body: CSV.join('\n'),
      })
    ).json()) as { value: { file: string } }
    const track = await op('telematics.importTrack', { file: uploaded.value.file, name: 'Delivery' })
    expect(track).toMatchObject({ ok: true, value: { name: 'Delivery', points: 2, recordedSeconds: 60 } })
    const deviceId = track.value!.deviceId as number

    const poll = await op('telematics.poll', {})
    expect(poll).toMatchObject({
      ok: true,
      value: { full: true, devices: { id: [deviceId], name: ['Delivery'] } },
    })
    const created = await op('telematics.createAlarm', {
      fields: { alarmType: 29, deviceId: [deviceId], duration: 60 },
      contentType: 'form',
    })
    expect(created).toMatchObject({ ok: true, value: { status: 201, configuration: { alarmType: 29 } } })
    const hardware = await op('telematics.hardware', {})
    expect(hardware).toMatchObject({ ok: true, value: { data: [{ mappedDeviceIds: [deviceId] }] } })
    const bad = await op('telematics.createAlarm', {
      fields: { alarmType: 26, deviceId: [deviceId], type: 2 },
    })
    expect(bad).toMatchObject({ ok: false, error: { failureClass: 'validation', field: 'geofenceId' } })
  })
})
