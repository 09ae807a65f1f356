import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../../../electron/core/secrets/memory-secret-store'
import {
  CommandLog,
  humanText,
  OUTPUT_TESTED,
  SCRIPT_LICENCE_KEY,
  SCRIPT_TOKEN,
  scriptJson,
  scriptJsonLines,
  startScriptService,
  warmUpVision,
  type ScriptService,
} from '../../../support/cli-script'
import { writeTown } from '../../../support/road-town'
import { cli } from '../cli-harness'

/**
 * The area commands — places, routing, fleet, vision — read as a script reads them: --json through
 * JSON.parse, the text without it. One built-in local service for the file, reached as the profile
 * "Script"; `fleet replay`, which belongs to the built-in Local profile, on a config of its own.
 */

let svc: ScriptService
const store = new MemorySecretStore()
const log = new CommandLog()
type Loose = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

function run(args: string[], env?: NodeJS.ProcessEnv) {
  log.note(args)
  return cli(args, env ?? svc.env, store)
}

let deviceId: number

beforeAll(async () => {
  svc = await startScriptService({})
  expect((await cli(['profile', 'set', 'Script', ...svc.profileFlags], svc.env, store)).code).toBe(0)
  expect((await cli(['profile', 'use', 'Script'], svc.env, store)).code).toBe(0)
  await store.set('Script:token', SCRIPT_TOKEN)
  await store.set('Script:licence-key', SCRIPT_LICENCE_KEY)
  const devices = await fetch(`${svc.service.urls.telematics_url}/devices`, {
    headers: { authorization: `Bearer ${SCRIPT_TOKEN}` },
  })
  deviceId = ((await devices.json()) as { data: Array<{ id: number }> }).data[0]!.id
}, 60_000)
afterAll(() => svc?.close())

describe('geo-analyst places', () => {
  it('standardize: the answer as JSON, the recognised parts as a table', async () => {
    const address = 'Flat 302, MG Road, Gurgaon, Haryana 122001'
    const json = scriptJson<Loose>(
      await run(['places', 'standardize', address, '--json']),
      'standardize --json',
    )
    expect(json).toMatchObject({
      found: true,
      address: { inputAddress: address, referentialInformation: { pincodes: '122001' } },
    })
    humanText(
      await run(['places', 'standardize', address]),
      'places standardize',
      /^PART\s+VALUE$/m,
      /^house number\s+Flat 302$/m,
      /^PIN code\s+122001$/m,
      /^city\s+Gurugram$/m,
    )
  })

  it('suggest: the suggestions as arrays in JSON, one line a place as text', async () => {
    const json = scriptJson<Loose>(
      await run(['places', 'suggest', 'indiranagar', '--filter', 'pin:560038', '--json']),
      'suggest --json',
    )
    expect(Array.isArray(json.suggestedLocations)).toBe(true)
    expect(Array.isArray(json.userAddedLocation)).toBe(true)
    expect(json.suggestedLocations[0]).toMatchObject({
      placeName: 'Indiranagar',
      eLoc: expect.any(String),
      latitude: expect.any(Number),
      longitude: expect.any(Number),
    })
    humanText(
      await run(['places', 'suggest', 'indiranagar', '--filter', 'pin:560038']),
      'places suggest',
      /^NAME\s+TYPE\s+ADDRESS\s+ELOC\s+LAT\s+LNG$/m,
      /^Indiranagar\s+LOCALITY\s+Bengaluru, Karnataka, 560038\s+\w+\s+[\d.]+\s+[\d.]+$/m,
    )
  })

  it('geocode: the summary as JSON, a sentence as text; the points in the GeoJSON file', async () => {
    const csv = path.join(svc.dir, 'addresses.csv')
    await writeFile(
      csv,
      'id,address\n1,"12 MG Road, Bangalore 560001"\n2,"Koramangala, Bengaluru 560034"\n3,qwzx\n',
    )
    const out = path.join(svc.dir, 'points.geojson')
    const json = scriptJson<Loose>(
      await run(['places', 'geocode', csv, '--column', 'address', '--out', out, '--json']),
      'geocode --json',
    )
    expect(json).toMatchObject({ total: 3, matched: 2, cancelled: false, out })
    expect(Object.values(json.byLevel as Record<string, number>).every((n) => Number.isInteger(n))).toBe(true)
    expect(json).not.toHaveProperty('geojson')
    const fc = JSON.parse(await readFile(out, 'utf8')) as { features: unknown[] }
    expect(fc.features).toHaveLength(3)
    humanText(
      await run(['places', 'geocode', csv, '--column', 'address', '--out', out]),
      'places geocode',
      /^2 of 3 addresses placed \((\w+ \d+(, )?)+\); written to .*points\.geojson$/m,
    )
  })
})

describe('geo-analyst routing', () => {
  const positions = '11.9668,57.7072;11.9746,57.7089;11.9600,57.7000'

  it('matrix: rows of cells as JSON, a table of km and h:mm as text', async () => {
    const json = scriptJson<Loose>(
      await run(['routing', 'matrix', positions, '--sources', '0;1', '--json']),
      'matrix --json',
    )
    expect(json).toMatchObject({ code: 'Ok', sources: [0, 1], destinations: [0, 1, 2] })
    for (const cells of [json.distances, json.durations]) {
      expect(cells).toHaveLength(2)
      for (const row of cells as unknown[][]) {
        expect(row).toHaveLength(3)
        for (const cell of row) expect(typeof cell === 'number' || cell === null).toBe(true)
      }
    }
    expect(json.distances[0][0]).toBe(0)
    humanText(
      await run(['routing', 'matrix', positions, '--sources', '0;1']),
      'routing matrix',
      /^FROM\\TO\s+0\s+1\s+2$/m,
      /^0\s+0\.0 km 0:00\s+\d+\.\d km \d+:\d\d\s+\d+\.\d km \d+:\d\d$/m,
      /^1\s+\d+\.\d km \d+:\d\d\s+0\.0 km 0:00\s+\d+\.\d km \d+:\d\d$/m,
      /results\.code Ok; network gothenburg-sample/,
    )
  })

  it('import, networks, remove: JSON objects and arrays, sentences and lines as text', async () => {
    const workspace = path.join(svc.dir, 'networks')
    const town = path.join(svc.dir, 'town')
    await mkdir(town)
    const { pbf } = await writeTown(town)
    humanText(
      await run(['routing', 'import', pbf, '--workspace', workspace]),
      'routing import',
      /^Imported town: 7 ways, 12 nodes, 17 edges in [\d.]+ s \(peak memory \d+ MiB\), time zone Asia\/Kolkata$/m,
    )
    const imported = scriptJson<Loose>(
      await run(['routing', 'import', pbf, '--id', 'town2', '--workspace', workspace, '--json']),
      'routing import --json',
    )
    expect(imported).toMatchObject({
      network: 'town2',
      counts: { ways: 7, nodes: 12, edges: 17 },
      timeZone: 'Asia/Kolkata',
    })
    expect(imported.bbox).toEqual([
      expect.closeTo(77.2, 6),
      expect.closeTo(28.6, 6),
      expect.closeTo(77.206, 6),
      expect.closeTo(28.604, 6),
    ])

    const list = scriptJson<Loose[]>(
      await run(['routing', 'networks', '--workspace', workspace, '--json']),
      'routing networks --json',
    )
    expect(list.map((n) => n.id)).toEqual(['town', 'town2', 'gothenburg-sample'])
    expect(list[0]).toMatchObject({ counts: { edges: 17 }, bundled: false, bbox: expect.any(Array) })
    expect(JSON.stringify(list)).not.toContain(workspace)
    humanText(
      await run(['routing', 'networks', '--workspace', workspace]),
      'routing networks',
      /^town: town\.osm\.pbf — 17 edges, bbox 77\.200,28\.600,77\.206,28\.604, OpenStreetMap contributors, ODbL$/m,
      /^gothenburg-sample \(bundled\): .* — \d+ edges, bbox /m,
    )

    humanText(
      await run(['routing', 'remove', 'town', '--workspace', workspace]),
      'routing remove',
      /^Removed town$/m,
    )
    expect(
      scriptJson(
        await run(['routing', 'remove', 'town2', '--workspace', workspace, '--json']),
        'remove --json',
      ),
    ).toEqual({ removed: 'town2' })
  })
})

describe('geo-analyst fleet', () => {
  it('devices: columns as arrays in JSON, one line a device as text', async () => {
    const json = scriptJson<Loose>(await run(['fleet', 'devices', '--json']), 'fleet devices --json')
    expect(json).toMatchObject({ serverTime: expect.any(Number), full: true, alerts: expect.any(Array) })
    const columns = json.devices as Record<string, unknown[]>
    expect(Array.isArray(columns.id)).toBe(true)
    expect(columns.id).toContain(deviceId)
    for (const [name, values] of Object.entries(columns)) {
      expect(Array.isArray(values), name).toBe(true)
      expect(values, name).toHaveLength(columns.id!.length)
    }
    const i = columns.id!.indexOf(deviceId)
    const text = humanText(
      await run(['fleet', 'devices']),
      'fleet devices',
      /^ID\s+NAME\s+TYPE\s+STATUS\s+SPEED\s+LAT,LON\s+RECEIVED$/m,
    )
    expect(text).toMatch(
      new RegExp(
        `^${deviceId}\\s+${String(columns.name![i])}\\s+${String(columns.deviceType![i])}\\s+\\d+`,
        'm',
      ),
    )
  })

  it('devices --watch --json: one JSON document a line, one line a round', async () => {
    const lines = scriptJsonLines<Loose>(
      await run(['fleet', 'devices', '--watch', '--interval', '1', '--count', '2', '--json']),
      'fleet devices --watch --json',
    )
    expect(lines).toHaveLength(2)
    expect(lines[0]).toEqual({
      serverTime: expect.any(Number),
      devices: expect.objectContaining({ id: expect.any(Array) }),
    })
    expect(lines[1]).toMatchObject({ serverTime: expect.any(Number), alerts: expect.any(Array) })
    expect(Array.isArray(lines[1]!.devices.id)).toBe(true)
  }, 30_000)

  it('alarm create and list: the configuration as JSON, sentences and lines as text', async () => {
    const created = scriptJson<Loose>(
      await run(['fleet', 'alarm', 'create', '--type', '24', '--device', String(deviceId), '--json']),
      'fleet alarm create --json',
    )
    expect(created).toMatchObject({ status: 201, configuration: { id: expect.any(Number), alarmType: 24 } })
    humanText(
      await run([
        'fleet',
        'alarm',
        'create',
        '--type',
        '22',
        '--device',
        String(deviceId),
        '--limit',
        '80',
        '--duration',
        '30',
      ]),
      'fleet alarm create',
      /^Alarm configuration \d+ created \(HTTP 201\)$/m,
    )
    const listed = scriptJson<Loose>(
      await run(['fleet', 'alarm', 'list', '--json']),
      'fleet alarm list --json',
    )
    expect(listed.supported).toBe(true)
    expect(listed.configurations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: created.configuration.id, alarmType: 24, deviceId: [deviceId] }),
      ]),
    )
    humanText(
      await run(['fleet', 'alarm', 'list']),
      'fleet alarm list',
      new RegExp(`^${created.configuration.id}\\s+Panic \\(24\\)\\s+devices ${deviceId}$`, 'm'),
      new RegExp(`^\\d+\\s+Overspeed \\(22\\)\\s+devices ${deviceId}\\s+limit 80\\s+duration 30 s$`, 'm'),
    )
  })

  it('alerts: an array as JSON, one line an alert (or "No alerts.") as text', async () => {
    const json = scriptJson<Loose>(await run(['fleet', 'alerts', '--json']), 'fleet alerts --json')
    expect(Object.keys(json)).toEqual(['alerts'])
    expect(Array.isArray(json.alerts)).toBe(true)
    const text = humanText(await run(['fleet', 'alerts']), 'fleet alerts')
    for (const line of text.trim().split('\n'))
      expect(line).toMatch(
        /^No alerts\.$|^\d{4}-\d\d-\d\dT[\d:.]+Z {2}\S.* {2}device \d+ {2}actual [\d.]+ for [\d.]+ s/,
      )
  })

  it('hardware: an array as JSON, one line a device as text', async () => {
    const json = scriptJson<Loose>(await run(['fleet', 'hardware', '--json']), 'fleet hardware --json')
    expect(Array.isArray(json.data)).toBe(true)
    const mapped = (json.data as Loose[]).find((h) => (h.mappedDeviceIds as number[]).includes(deviceId))
    expect(mapped).toMatchObject({ id: expect.any(Number), trackingCode: expect.any(String), active: true })
    humanText(
      await run(['fleet', 'hardware']),
      'fleet hardware',
      new RegExp(
        `^${mapped!.id}\\s+.+\\s+${mapped!.trackingCode}\\s+devices ${deviceId}\\s+active\\s+expires \\d{4}-\\d\\d-\\d\\d$`,
        'm',
      ),
    )
  })

  it('replay (the built-in Local profile): the track as JSON, a sentence as text', async () => {
    const local = path.join(svc.dir, 'local')
    await mkdir(path.join(local, 'workspace', 'telematics'), { recursive: true })
    // No simulated vehicles: the replayed track is the fleet.
    await writeFile(
      path.join(local, 'workspace', 'telematics', 'fleet.json'),
      JSON.stringify({ vehicles: 0 }),
    )
    const env = {
      GEO_ANALYST_CONFIG_DIR: path.join(local, 'config'),
      GEO_ANALYST_DATA_DIR: path.join(local, 'data'),
      GEO_ANALYST_WORKSPACE: path.join(local, 'workspace'),
    }
    const track = path.join(local, 'track.gpx')
    await writeFile(
      track,
      `<?xml version="1.0"?><gpx version="1.1" creator="test"><trk><trkseg>
<trkpt lat="57.700" lon="11.950"><time>2026-01-12T08:00:00Z</time></trkpt>
<trkpt lat="57.705" lon="11.955"><time>2026-01-12T08:01:00Z</time></trkpt>
<trkpt lat="57.710" lon="11.960"><time>2026-01-12T08:02:00Z</time></trkpt>
</trkseg></trk></gpx>`,
    )
    const json = scriptJson<Loose>(
      await run(['fleet', 'replay', track, '--speed', '10', '--name', 'Morning run', '--json'], env),
      'fleet replay --json',
    )
    expect(json).toMatchObject({
      name: 'Morning run',
      deviceId: expect.any(Number),
      points: 3,
      speed: 10,
      recordedSeconds: 120,
    })
    humanText(
      await run(['fleet', 'replay', track], env),
      'fleet replay',
      /^Imported track as device \d+: 3 points, 120 s recorded, replaying at 1× in the local service \(track [\w-]+\)$/m,
    )
  }, 60_000)
})

describe('geo-analyst vision blur', () => {
  it('the results as JSON, one line an image as text; the images written', async () => {
    const photos = path.join(svc.dir, 'photos')
    await mkdir(photos)
    const street = path.join(import.meta.dirname, '../../../fixtures/vision/street.jpg')
    await sharp(street).resize(480).jpeg().toFile(path.join(photos, 'street.jpg'))
    await warmUpVision(svc, path.join(photos, 'street.jpg'))
    const out = path.join(svc.dir, 'blurred.jpg')
    const text = humanText(
      await run(['vision', 'blur', path.join(photos, 'street.jpg'), '--out', out]),
      'vision blur',
      /^\[1\/1\] .*street\.jpg → .*blurred\.jpg( \(\d+ regions blurred\))?$/m,
    )
    expect(text.trim().split('\n')).toHaveLength(1)
    const folderOut = path.join(svc.dir, 'blurred')
    await mkdir(folderOut)
    const json = scriptJson<Loose>(
      await run(['vision', 'blur', photos, '--out', folderOut, '--json']),
      'vision blur --json',
    )
    expect(json).toEqual({
      results: [
        {
          input: path.join(photos, 'street.jpg'),
          output: path.join(folderOut, 'street.jpg'),
          plates: expect.toSatisfy((n: unknown) => n === null || Number.isInteger(n)),
        },
      ],
      failed: 0,
    })
    expect((await sharp(path.join(folderOut, 'street.jpg')).metadata()).format).toBe('jpeg')
  }, 120_000)

  it('ran each of its commands with --json and without', () => {
    expect(log.missing(OUTPUT_TESTED['areas-output']!)).toEqual([])
  })
})
