import { describe, expect, it } from 'vitest'
import type { FleetPoll, FleetStatus, ReplayTrack } from '../../../../electron/contract/telematics/fleet'
import { useLocalCores } from '../../../support/local-core'
import { useTempDirs } from '../../../support/temp-dir'

const localCore = useLocalCores(useTempDirs())

const GPX = `<?xml version="1.0"?>
<gpx version="1.1" creator="test"><trk><name>Morning run</name><trkseg>
<trkpt lat="57.700" lon="11.950"><time>2026-01-12T08:00:00Z</time></trkpt>
<trkpt lat="57.701" lon="11.951"><time>2026-01-12T08:00:10Z</time></trkpt>
<trkpt lat="57.702" lon="11.952"><time>2026-01-12T08:00:20Z</time></trkpt>
</trkseg></trk></gpx>`

describe('fleet operations of the core (Local profile)', () => {
  it('imports a track by reference, polls it as columns, creates and lists an alarm, and previews it redacted', async () => {
    let ms = Date.UTC(2026, 0, 12, 9, 0, 0)
    const core = await localCore({ now: () => ms })
    const status = await core.call('telematics.configure', { vehicles: 0 })
    expect(status).toMatchObject({ ok: true, value: { source: 'local', simulated: true, vehicles: 0 } })

    const imported = await core.call('telematics.importTrack', {
      file: await core.offer(GPX, 'run.gpx'),
      speed: 2,
    })
    expect(imported).toMatchObject({
      ok: true,
      value: { name: 'run', points: 3, recordedSeconds: 20, speed: 2 },
    })
    const track = (imported as { value: ReplayTrack }).value

    const full = (await core.call('telematics.poll', { alertsSince: 0 })) as { ok: true; value: FleetPoll }
    expect(full.value).toMatchObject({ full: true, alertHistory: true, alerts: [] })
    expect(full.value.devices.id).toEqual([track.deviceId])
    expect(full.value.devices.lat[0]).toBeCloseTo(57.7, 3)
    ms += 5000
    const changed = (await core.call('telematics.poll', { state: full.value.serverTime })) as {
      value: FleetPoll
    }
    expect(changed.value.full).toBe(false)
    expect(changed.value.devices.id).toEqual([track.deviceId])
    expect(changed.value.serverTime).toBe(full.value.serverTime + 5)

    const fields = { alarmType: '22', deviceId: String(track.deviceId), limit: '80', duration: '30' }
    const preview = await core.call('telematics.previewAlarm', { fields })
    expect(preview).toMatchObject({ ok: true, value: { method: 'POST' } })
    const shown = JSON.stringify(preview)
    expect(shown).toContain('Idempotency-Key')
    const headers = (preview as { value: { headers: Array<[string, string]> } }).value.headers
    expect(headers).toContainEqual(['Authorization', 'Bearer [REDACTED]'])
    const token = (await core.ensureLocalService())!.token
    expect(shown).not.toContain(token)
    expect((preview as { value: { cli: string } }).value.cli).toContain('geo-analyst call telematics.alarm')

    const created = await core.call('telematics.createAlarm', { fields })
    expect(created).toMatchObject({
      ok: true,
      value: { status: 201, configuration: { id: 1, alarmType: 22, limit: 80, deviceId: [track.deviceId] } },
    })
    const listed = await core.call('telematics.alarms', {})
    expect(listed).toMatchObject({ ok: true, value: { supported: true, configurations: [{ id: 1 }] } })

    const device = await core.call('telematics.device', { id: track.deviceId })
    expect(device).toMatchObject({
      ok: true,
      value: { device: { id: track.deviceId }, hardware: { mappedDeviceIds: [track.deviceId] } },
    })
    expect(await core.call('telematics.device', { id: 3 })).toMatchObject({
      ok: false,
      error: { failureClass: 'not-found' },
    })

    const paused = await core.call('telematics.controlTrack', { id: track.id, playing: false })
    expect(paused).toMatchObject({ ok: true, value: { playing: false } })
    expect(await core.call('telematics.removeTrack', { id: track.id })).toMatchObject({ ok: true })
    const after = (await core.call('telematics.status', {})) as { value: FleetStatus }
    expect(after.value.tracks).toEqual([])
  })

  it('refuses a bad alarm with every field named and a file that is no track by its name', async () => {
    const core = await localCore()
    await core.call('telematics.configure', { vehicles: 0 })
    const bad = await core.call('telematics.createAlarm', { fields: { alarmType: '22', deviceId: '1' } })
    expect(bad).toMatchObject({ ok: false, error: { failureClass: 'validation' } })
    const message = (bad as { error: { message: string } }).error.message
    expect(message).toMatch(/duration/)
    expect(message).toMatch(/limit/)
    const notTrack = await core.call('telematics.importTrack', { file: await core.offer('x', 'notes.kml') })
    expect(notTrack).toMatchObject({ ok: false, error: { failureClass: 'validation', field: 'file' } })
    const broken = await core.call('telematics.importTrack', {
      file: await core.offer('time,lat\n1,2', 'bad.csv'),
    })
    expect(broken).toMatchObject({ ok: false, error: { failureClass: 'validation' } })
    expect((await core.call('telematics.status', {})) as { value: FleetStatus }).toMatchObject({
      value: { tracks: [] },
    })
  })
})
