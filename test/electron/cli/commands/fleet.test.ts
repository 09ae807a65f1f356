import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../../../electron/core/secrets/memory-secret-store'
import { cli, tempDir } from '../cli-harness'

let env: NodeJS.ProcessEnv
let track: string
const store = new MemorySecretStore()

const GPX = `<?xml version="1.0"?>
<gpx version="1.1" creator="test"><trk><trkseg>
<trkpt lat="57.700" lon="11.950"><time>2026-01-12T08:00:00Z</time></trkpt>
<trkpt lat="57.705" lon="11.955"><time>2026-01-12T08:01:00Z</time></trkpt>
<trkpt lat="57.710" lon="11.960"><time>2026-01-12T08:02:00Z</time></trkpt>
</trkseg></trk></gpx>`

beforeAll(async () => {
  const workspace = await tempDir('geo-cli-fleet-ws-')
  // No simulated vehicles: the replayed track is the fleet.
  await mkdir(path.join(workspace, 'telematics'), { recursive: true })
  await writeFile(path.join(workspace, 'telematics', 'fleet.json'), JSON.stringify({ vehicles: 0 }))
  env = {
    GEO_ANALYST_CONFIG_DIR: await tempDir('geo-cli-config-'),
    GEO_ANALYST_DATA_DIR: await tempDir('geo-cli-data-'),
    GEO_ANALYST_WORKSPACE: workspace,
  }
  track = path.join(await tempDir('geo-cli-track-'), 'track.gpx')
  await writeFile(track, GPX)
})

describe('geo-analyst fleet', () => {
  it('replay, devices, alarm create and list, hardware, alerts on the Local profile', async () => {
    const replay = await cli(['fleet', 'replay', track, '--speed', '10', '--json'], env, store)
    expect(replay.stderr).toBe('')
    expect(replay.code).toBe(0)
    const imported = JSON.parse(replay.stdout) as { deviceId: number; points: number; speed: number }
    expect(imported).toMatchObject({ points: 3, speed: 10 })
    const id = imported.deviceId

    const devices = await cli(['fleet', 'devices'], env, store)
    expect(devices.code).toBe(0)
    const lines = devices.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^ID\s+NAME\s+TYPE\s+STATUS\s+SPEED\s+LAT,LON\s+RECEIVED$/)
    expect(lines[1]).toMatch(new RegExp(`^${id}\\s+track\\s+car\\s+`))

    const created = await cli(
      [
        'fleet',
        'alarm',
        'create',
        '--type',
        '22',
        '--device',
        String(id),
        '--limit',
        '80',
        '--duration',
        '30',
      ],
      env,
      store,
    )
    expect(created.stderr).toBe('')
    expect(created.stdout).toMatch(/^Alarm configuration 1 created \(HTTP 201\)/)
    const listed = await cli(['fleet', 'alarm', 'list'], env, store)
    expect(listed.stdout).toMatch(
      new RegExp(`^1\\s+Overspeed \\(22\\)\\s+devices ${id}\\s+limit 80\\s+duration 30 s`),
    )

    const hardware = await cli(['fleet', 'hardware', '--json'], env, store)
    expect(JSON.parse(hardware.stdout)).toMatchObject({ data: [{ mappedDeviceIds: [id], active: true }] })
    const alerts = await cli(['fleet', 'alerts'], env, store)
    expect(alerts).toMatchObject({ code: 0, stdout: 'No alerts.\n' })
  })

  it('refuses a bad alarm naming every wrong field (exit 2), and an unknown device (exit 4)', async () => {
    const bad = await cli(['fleet', 'alarm', 'create', '--type', '22', '--device', 'x'], env, store)
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/deviceId/)
    expect(bad.stderr).toMatch(/duration: is required for alarm type OVERSPEED \(22\)/)
    expect(bad.stderr).toMatch(/limit: is required/)
    const unknown = await cli(['fleet', 'alarm', 'create', '--type', '24', '--device', '4242'], env, store)
    expect(unknown.code).toBe(4)
    expect(unknown.stderr).toMatch(/device 4242 not found/)
    const notTrack = await cli(['fleet', 'replay', 'notes.kml'], env, store)
    expect(notTrack.code).toBe(2)
  })

  it('devices --watch polls with state and prints what changed each round', async () => {
    const watched = await cli(['fleet', 'devices', '--watch', '--interval', '1', '--count', '2'], env, store)
    expect(watched.code).toBe(0)
    const rounds = watched.stdout.split('\n').filter((l) => l.startsWith('— '))
    expect(rounds).toHaveLength(1)
    expect(rounds[0]).toMatch(/^— \d\d:\d\d:\d\d: \d+ changed$/)
  })

  it('devices --watch reads the local service’s columns form after its first §2.6 list', async () => {
    const watched = await cli(
      ['fleet', 'devices', '--watch', '--interval', '1', '--count', '3', '--json'],
      env,
      store,
    )
    expect(watched.code).toBe(0)
    const rounds = watched.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { devices: { id: number[] } })
    expect(rounds).toHaveLength(3)
    // The replayed track is the fleet: the first round lists it.
    expect(rounds[0]!.devices.id).toHaveLength(1)
    const history = await cli(['history', '--limit', '20', '--json'], env, store)
    const calls = (JSON.parse(history.stdout) as Array<{ operation: string; url: string }>)
      .filter((e) => e.operation === 'telematics.devices')
      .slice(0, 3)
      .reverse()
      .map((e) => new URL(e.url).searchParams)
    // The first answer tells the client the service has the form; the next rounds ask for it, with state.
    expect(calls.map((q) => q.get('form'))).toEqual([null, 'columns', 'columns'])
    expect(calls[1]!.get('state')).toMatch(/^\d+$/)
  })
})
