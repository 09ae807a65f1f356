import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../../electron/core/secrets/memory-secret-store'
import { FakeProvider, fakeUrls } from '../../support/fake-provider'
import { cli, tempDir } from './cli-harness'
import { INTERFACE_OPERATION_NAMES } from '../../../electron/contract'

let fake: FakeProvider
let env: NodeJS.ProcessEnv
let dataDir: string
let configDir: string

const TOKEN = 'env-token-abcdef123'
const KEY = 'env-licence-key-777'

beforeEach(async () => {
  fake = await new FakeProvider().start()
  dataDir = await tempDir('ga-data-')
  configDir = await tempDir('ga-config-')
  const urls = fakeUrls(fake.base)
  env = {
    GEO_ANALYST_DATA_DIR: dataDir,
    GEO_ANALYST_CONFIG_DIR: configDir,
    GEO_ANALYST_ATLAS_URL: urls.atlas_url,
    GEO_ANALYST_ADVANCEDMAPS_URL: urls.advancedmaps_url,
    GEO_ANALYST_MGIS_URL: urls.mgis_url,
    GEO_ANALYST_MGIS_V2_URL: urls.mgis_v2_url,
    GEO_ANALYST_TELEMATICS_URL: urls.telematics_url,
    GEO_ANALYST_AIML_URL: urls.aiml_url,
    GEO_ANALYST_TOKEN: TOKEN,
    GEO_ANALYST_LICENCE_KEY: KEY,
  }
})
afterEach(async () => {
  await fake.stop()
  await fs.rm(dataDir, { recursive: true, force: true })
  await fs.rm(configDir, { recursive: true, force: true })
})

describe('geo-analyst call', () => {
  it('runs every §4 operation with the spec parameter names and prints JSON', async () => {
    fake.on('/atlas/api/places/woodpecker', {
      status: 200,
      json: { inputAddress: 'a', remainingAddress: '' },
    })
    fake.on('/atlas/api/places/search/json', { status: 200, json: { suggestedLocations: [] } })
    fake.on(`/advancedmaps/${KEY}/distance_matrix/driving/1,2;3,4`, {
      status: 200,
      json: { responseCode: 200, results: { code: 'Ok', distances: [[0, 1]] } },
    })
    fake.on(`/advancedmaps/${KEY}/distance_matrix_predictive/driving/1,2;3,4`, {
      status: 200,
      json: { responseCode: '200', results: { code: 'Ok' } },
    })
    fake.on('/mgis/v2/getLayersList', { status: 200, json: { data: [{ layername: 'wards' }] } })
    fake.on('/mgis/query_apply/join', { status: 200, json: { code: '200', result: [{ prop1: 'x' }] } })
    fake.on('/telematics/devices', { status: 200, json: { data: [{ id: 1 }] } })
    fake.on('/telematics/devices/hardwareinfo', { status: 200, json: { data: [{ id: 'h' }] } })
    fake.on('/telematics/alarm', { status: 201, json: { ok: 1 } })
    fake.on('/aiml/license_plate_blur_pano', { status: 200, body: Buffer.from([0xff, 0xd8, 0xff, 1]) })
    const geo = path.join(dataDir, 'area.geojson')
    // Saved by Windows Notepad: a byte order mark before the JSON.
    await fs.writeFile(
      geo,
      '\uFEFF' +
        JSON.stringify({
          type: 'FeatureCollection',
          features: [{ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [1, 2] } }],
        }),
    )
    const img = path.join(dataDir, 'pano.jpg')
    await fs.writeFile(img, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 7]))
    const out = path.join(dataDir, 'blurred.jpg')
    const runs: Array<[string[], (json: unknown) => void]> = [
      [
        ['places.standardize', 'address=12 MG Road', 'bias=1'],
        (j) => expect(j).toMatchObject({ found: true }),
      ],
      [['places.autosuggest', 'query=cafe', 'bridge=true'], (j) => expect(j).toMatchObject({ lang: 'en' })],
      [
        ['routing.matrix', 'resources=distance_matrix', 'profile=driving', 'geopositions=1,2;3,4'],
        (j) => expect(j).toMatchObject({ responseCode: 200 }),
      ],
      [
        ['routing.predictive', 'coordinates=1,2;3,4', 'dep_time=1700000000'],
        (j) => expect(j).toMatchObject({ responseCode: 200 }),
      ],
      [['gis.layers'], (j) => expect(j).toMatchObject({ layers: [{ layername: 'wards' }] })],
      [
        [
          'gis.join',
          'queryType=spatialOperation',
          'datasetSource=wards',
          'operator=Within',
          'sourceProperty=geom',
          'userGeom=true',
          '--body',
          geo,
        ],
        // The rows as the array the provider sent, not their bytes.
        (j) => expect(j).toEqual({ response: { code: '200', rows: [{ prop1: 'x' }] }, partial: false }),
      ],
      [['telematics.devices', 'id=1'], (j) => expect(j).toMatchObject({ data: [{ id: 1 }] })],
      [['telematics.hardware', 'id=1'], (j) => expect(j).toMatchObject({ data: [{ id: 'h' }] })],
      [
        ['telematics.alarm', 'alarmType=23', 'deviceId=1,2'],
        (j) => expect(j).toMatchObject({ created: true, status: 201 }),
      ],
      [
        ['vision.blurPlates', '--file', img, '--out', out],
        (j) => expect(j).toMatchObject({ bytes: 4, contentType: 'image/jpeg' }),
      ],
    ]
    for (const [argv, check] of runs) {
      const r = await cli(['call', ...argv], env)
      expect(r.stderr.startsWith('geo-analyst:') ? r.stderr : '', argv.join(' ')).toBe('')
      expect(r.code).toBe(0)
      check(JSON.parse(r.stdout))
    }
    expect(fake.to('/atlas/api/places/search/json')[0]!.search).toBe('query=cafe&bridge')
    expect(JSON.parse(fake.to('/telematics/alarm')[0]!.body.toString())).toEqual({
      alarmType: 23,
      deviceId: [1, 2],
    })
    expect((await fs.readFile(out)).equals(Buffer.from([0xff, 0xd8, 0xff, 1]))).toBe(true)
    expect(fake.received).toHaveLength(10)
  })

  it('maps failure classes to exit codes', async () => {
    const args = ['call', 'telematics.devices']
    fake.on('/telematics/devices', { status: 401, json: {} })
    expect((await cli(args, env)).code).toBe(3)
    fake.on('/telematics/devices', { status: 403, json: {} })
    expect((await cli(args, env)).code).toBe(3)
    fake.on('/telematics/devices', { status: 404, json: {} })
    expect((await cli(args, env)).code).toBe(4)
    fake.on('/telematics/devices', { status: 409, json: {} })
    expect((await cli(args, env)).code).toBe(5)
    fake.on('/telematics/devices', { status: 400, json: {} })
    const bad = await cli(args, env)
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/^geo-analyst: validation: telematics\.devices GET/)
    expect((await cli(['call', 'telematics.devices', 'id=x'], env)).code).toBe(2)
    const { GEO_ANALYST_TOKEN: _t, ...noToken } = env
    const missing = await cli(args, noToken, new MemorySecretStore())
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/local-configuration: .*no bearer token/i)
    expect((await cli(['call', 'nope.op'], env)).code).toBe(2)
  })

  it('exits 6 after retries are exhausted', async () => {
    fake.on('/mgis/v2/getLayersList', { status: 429, headers: { 'Retry-After': '3600' } })
    const r = await cli(['call', 'gis.layers'], env)
    expect(r.code).toBe(6)
    expect(r.stderr).toMatch(/rate-limited: .*asked to wait 3600 s/)
  })

  it('uses the active profile and its keychain credentials when no overrides are set', async () => {
    const store = new MemorySecretStore()
    const base = { GEO_ANALYST_DATA_DIR: dataDir, GEO_ANALYST_CONFIG_DIR: configDir }
    const urls = fakeUrls(fake.base)
    const flags = Object.entries(urls).flatMap(([k, v]) => [`--${k.replace(/_/g, '-')}`, v])
    const saved = await cli(['profile', 'set', 'Cloud', ...flags], base, store)
    expect(saved.code, saved.stderr).toBe(0)
    await store.set('Cloud:token.gis', 'keychain-gis-token')
    fake.on('/mgis/v2/getLayersList', { status: 200, json: { data: [] } })
    const r = await cli(['call', 'gis.layers', '--profile', 'Cloud'], base, store)
    expect(r.code, r.stderr).toBe(0)
    expect(fake.received[0]!.headers.authorization).toBe('Bearer keychain-gis-token')
    // The built-in Local profile starts the local service in this process, on the data folder's workspace.
    const local = await cli(['call', 'gis.layers'], base, store)
    expect(local.code, local.stderr).toBe(0)
    expect(JSON.parse(local.stdout).layers.map((l: { layername: string }) => l.layername)).toEqual(
      expect.arrayContaining(['india_states', 'india_cities']),
    )
  })

  it('history lists calls newest first without secrets', async () => {
    fake.on('*', { status: 200, json: { data: [] } })
    await cli(['call', 'telematics.devices', 'id=3'], env)
    await cli(['call', 'routing.predictive', 'coordinates=1,2;3,4'], env)
    const h = await cli(['history', '--json', '--limit', '5'], env)
    expect(h.code).toBe(0)
    const entries = JSON.parse(h.stdout)
    expect(entries.map((e: { operation: string }) => e.operation)).toEqual([
      'routing.predictive',
      'telematics.devices',
    ])
    expect(entries[0].url).toMatch(/\/advancedmaps\/\[REDACTED\]\/distance_matrix_predictive/)
    expect(h.stdout).not.toContain(KEY)
    const text = await cli(['history'], env)
    expect(text.stdout).toMatch(/telematics\.devices/)
    expect((await cli(['history', '--limit', '0'], env)).code).toBe(2)
  })
})

describe('geo-analyst call telematics.alarm after an unknown outcome', () => {
  it('sends once, exits 5 with the fingerprint, refuses the identical alarm in a later run until --confirm', async () => {
    fake.on('POST /telematics/alarm', { reset: true }, { status: 201, json: {} })
    // The configurations are listed to look for it by its Idempotency-Key: it is not there.
    fake.on('GET /telematics/alarm', { status: 200, json: { data: [] } })
    const args = ['call', 'telematics.alarm', 'alarmType=24', 'deviceId=9']
    const first = await cli(args, env)
    expect(first.code).toBe(5)
    const fingerprint = /fingerprint ([0-9a-f]{16})/.exec(first.stderr)?.[1]
    expect(fingerprint).toBeDefined()
    const second = await cli(args, env)
    expect(second.code).toBe(5)
    expect(second.stderr).toContain(`fingerprint ${fingerprint}`)
    expect(second.stderr).toMatch(/resend with confirm/)
    expect(fake.to('/telematics/alarm', 'POST')).toHaveLength(1)
    const other = await cli(['call', 'telematics.alarm', 'alarmType=24', 'deviceId=10'], env)
    expect(other.code).toBe(0)
    const confirmed = await cli([...args, '--confirm'], env)
    expect(confirmed.code).toBe(0)
    expect(fake.to('/telematics/alarm', 'POST')).toHaveLength(3)
  })
})

describe('geo-analyst call as a real process', () => {
  it('prints the JSON result on stdout and exits 0', async () => {
    const { runCliProcess } = await import('../../support/cli')
    fake.on('/mgis/v2/getLayersList', {
      status: 200,
      json: { success: 'true', data: { layername: 'wards' } },
    })
    const r = await runCliProcess(['call', 'gis.layers'], { env })
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({ success: true, layers: [{ layername: 'wards' }] })
    expect(fake.received[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`)
  })

  it('derives its operations and --help from the contract table; an unknown operation or flag is named', async () => {
    const help = await cli(['call', '--help'], env)
    expect(help.code).toBe(0)
    for (const name of INTERFACE_OPERATION_NAMES) expect(help.stdout).toContain(name)
    const one = await cli(['call', 'routing.matrix', '--help'], env)
    expect(one.stdout).toMatch(/resources \(required\)/)
    expect(one.stdout).toMatch(/§4\.3/)
    const unknown = await cli(['call', 'routing.matrixx', 'profile=driving'], env)
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/unknown operation "routing\.matrixx"/)
    const flag = await cli(['call', 'gis.layers', '--bogus'], env)
    expect(flag.code).toBe(2)
    expect(flag.stderr).toMatch(/Unknown option --bogus/)
    const misplaced = await cli(['call', 'gis.layers', '--body', 'x.json'], env)
    expect(misplaced.code).toBe(2)
    expect(misplaced.stderr).toMatch(/gis\.layers takes no --body/)
    expect(fake.received).toHaveLength(0)
  })
})
