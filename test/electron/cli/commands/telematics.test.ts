import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { usage } from '../../../../electron/cli/run'
import { MemorySecretStore } from '../../../../electron/core/secrets/memory-secret-store'
import { cli, tempDir } from '../cli-harness'

let env: NodeJS.ProcessEnv
let track: string
const store = new MemorySecretStore()

const GPX = `<?xml version="1.0"?>
<gpx version="1.1" creator="test"><trk><trkseg>
<trkpt lat="57.700" lon="11.950"><time>2026-01-12T08:00:00Z</time></trkpt>
<trkpt lat="57.705" lon="11.955"><time>2026-01-12T08:01:00Z</time></trkpt>
</trkseg></trk></gpx>`

beforeAll(async () => {
  const workspace = await tempDir('geo-cli-telematics-ws-')
  // No simulated vehicles: the replayed track is the only device.
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

describe('geo-analyst telematics, the area’s one name (fleet kept as an alias)', () => {
  it('replays and lists devices as telematics, and the same device as fleet', async () => {
    const replay = await cli(['telematics', 'replay', track, '--speed', '10', '--json'], env, store)
    expect(replay.stderr).toBe('')
    expect(replay.code).toBe(0)
    const id = (JSON.parse(replay.stdout) as { deviceId: number }).deviceId

    const named = await cli(['telematics', 'devices', '--json'], env, store)
    expect(named.code).toBe(0)
    const alias = await cli(['fleet', 'devices', '--json'], env, store)
    expect(alias.code).toBe(0)
    for (const out of [named, alias]) {
      const devices = (JSON.parse(out.stdout) as { devices: { id: number[] } }).devices
      expect(devices.id).toEqual([id])
    }
  })

  it('refuses an option the command does not take under either name, and lists telematics in the help', async () => {
    for (const name of ['telematics', 'fleet']) {
      const wrong = await cli([name, 'hardware', '--speed', '3'], env, store)
      expect(wrong.code).toBe(2)
      expect(wrong.stderr).toMatch(/Unknown option --speed/)
    }
    const help = await cli(['fleet', 'devices', '--help'], env, store)
    expect(help.stdout).toMatch(/^Usage: geo-analyst telematics devices /)
    expect(usage()).toMatch(/\n {2}telematics devices .*\n.*\(also: fleet devices\)/)
    expect(usage()).not.toMatch(/\n {2}fleet /)
  })
})
