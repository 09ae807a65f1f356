import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  INTERFACE_OPERATION_NAMES,
  interfaceOperation,
  type InterfaceOperationName,
} from '../../../../electron/contract'
import { runCliProcess } from '../../../support/cli'
import {
  scriptJson,
  startScriptService,
  WELLS_AND_ZONES,
  WELLS_IN_ZONES,
  WELLS_IN_ZONES_ROWS,
  warmUpVision,
  type ScriptService,
} from '../../../support/cli-script'
import { cli } from '../cli-harness'

/**
 * `geo-analyst call <operation>` for every operation of the interface, run as a script runs it: the six
 * GEO_ANALYST_*_URL variables, token and licence key pointing at one built-in local service for the file,
 * stdout through JSON.parse. With --json and without, stdout is the same JSON (without, the call's command
 * line goes to stderr). The join also as a separate process, its stdout read through a pipe.
 */

let svc: ScriptService
let image: string
let deviceId: number

beforeAll(async () => {
  svc = await startScriptService(WELLS_AND_ZONES)
  image = path.join(svc.dir, 'street-small.jpg')
  await sharp(path.join(import.meta.dirname, '../../../fixtures/vision/street.jpg'))
    .resize(480)
    .jpeg()
    .toFile(image)
  await warmUpVision(svc, image)
  const devices = await fetch(`${svc.service.urls.telematics_url}/devices`, {
    headers: { authorization: `Bearer ${svc.service.token}` },
  })
  deviceId = ((await devices.json()) as { data: Array<{ id: number }> }).data[0]!.id
}, 120_000)
afterAll(() => svc?.close())

// A result read loosely, as a script reads it.
type Loose = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/** What each operation is called with, and what a script relies on in its JSON. */
const CALLS: Record<InterfaceOperationName, { args: () => string[]; check: (json: Loose) => void }> = {
  'places.standardize': {
    args: () => ['address=Koramangala, Bangalore 560034'],
    check: (j) =>
      expect(j).toMatchObject({ found: true, address: { referentialInformation: { pincodes: '560034' } } }),
  },
  'places.autosuggest': {
    args: () => ['query=indiranagar'],
    check: (j) => {
      expect(Array.isArray(j.suggestedLocations)).toBe(true)
      expect(j.suggestedLocations.length).toBeGreaterThan(0)
      for (const s of j.suggestedLocations)
        expect(s).toMatchObject({ placeName: expect.any(String), latitude: expect.any(Number) })
      expect(j.suggestedLocations.map((s: Loose) => s.placeName)).toContain('Indiranagar')
    },
  },
  'routing.matrix': {
    args: () => [
      'resources=distance_matrix',
      'profile=driving',
      'geopositions=11.9668,57.7072;11.9746,57.7089',
      'sources=0;1',
    ],
    check: (j) => {
      expect(j.results.code).toBe('Ok')
      expect(j.results.distances).toEqual([
        [0, expect.any(Number)],
        [expect.any(Number), 0],
      ])
    },
  },
  'routing.predictive': {
    args: () => ['coordinates=11.9668,57.7072;11.9746,57.7089', 'dep_time=1767250800'],
    check: (j) => {
      expect(j.results.code).toBe('Ok')
      // From the first position to the second.
      expect(j.results.durations).toEqual([[expect.any(Number)]])
      expect(j.results.durations[0][0]).toBeGreaterThan(0)
    },
  },
  'gis.layers': {
    args: () => [],
    check: (j) => {
      expect(Array.isArray(j.layers)).toBe(true)
      expect(j.layers.map((l: Loose) => l.layername).sort()).toEqual(['wells', 'zones'])
      expect(j.layers.find((l: Loose) => l.layername === 'wells')).toMatchObject({
        geometrytype: 'POINT',
        featureCount: 4,
      })
    },
  },
  'gis.join': {
    args: () => WELLS_IN_ZONES,
    check: (j) => {
      // The rows as the JSON array they are: objects with the requested columns, never the bytes.
      expect(Array.isArray(j.response.rows), JSON.stringify(j.response.rows).slice(0, 120)).toBe(true)
      expect(j.response.rows).toHaveLength(3)
      expect(j.response.rows).toEqual(expect.arrayContaining(WELLS_IN_ZONES_ROWS))
      expect(j.response.columns.map((c: Loose) => c.name)).toEqual(['name', 'depth', 'label'])
      expect(j).toMatchObject({ partial: false, response: { code: '200' } })
    },
  },
  'telematics.devices': {
    args: () => [],
    check: (j) => {
      expect(Array.isArray(j.data)).toBe(true)
      expect(j.data.length).toBeGreaterThan(0)
      for (const d of j.data)
        expect(d).toMatchObject({
          id: expect.any(Number),
          location: { latitude: expect.any(Number), longitude: expect.any(Number) },
          deviceDetails: { name: expect.any(String) },
        })
    },
  },
  'telematics.hardware': {
    args: () => [],
    check: (j) => {
      expect(Array.isArray(j.data)).toBe(true)
      expect(j.data[0]).toMatchObject({ id: expect.any(Number), mappedDeviceIds: [expect.any(Number)] })
    },
  },
  'telematics.alarm': {
    args: () => ['alarmType=24', `deviceId=${deviceId}`],
    check: (j) => expect(j).toMatchObject({ created: true, status: 201 }),
  },
  'telematics.alarms': {
    args: () => [],
    check: (j) => {
      expect(Array.isArray(j.data)).toBe(true)
      for (const c of j.data) expect(c).toMatchObject({ alarmType: expect.any(Number) })
    },
  },
  'telematics.alerts': {
    args: () => ['since=0'],
    check: (j) => expect(Array.isArray(j.data)).toBe(true),
  },
  'vision.blurPlates': {
    args: () => ['--file', image],
    check: (j) => {
      expect(j).toEqual({
        operation: 'vision.blurPlates',
        written: expect.stringMatching(/blurred-.*\.jpg$/),
        bytes: expect.any(Number),
        contentType: 'image/jpeg',
      })
      // The image went to the file, whole; only the summary to stdout.
      const written = readFileSync(j.written as string)
      expect(written.byteLength).toBe(j.bytes)
      expect([...written.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff])
    },
  },
}

/** `call OP …` (in this process, on its own streams, as the other CLI tests run it): with --json, and without. */
async function call(op: InterfaceOperationName, json: boolean) {
  const extra = op === 'vision.blurPlates' ? ['--out', path.join(svc.dir, `blurred-${json}.jpg`)] : []
  // Each mode creates an alarm of its own: the same fields twice are two configurations.
  return cli(['call', op, ...CALLS[op].args(), ...extra, ...(json ? ['--json'] : [])], svc.env)
}

/** The operation with --json and without, each read as a script reads it. */
function cases(op: InterfaceOperationName): void {
  it('--json: stdout is one JSON document of the shape a script relies on', async () => {
    const run = await call(op, true)
    CALLS[op].check(scriptJson<Loose>(run, `call ${op} --json`))
    expect(run.stderr).toBe('')
  }, 120_000)

  it('without --json: the same JSON on stdout; the call as a command line on stderr (unless --out)', async () => {
    const run = await call(op, false)
    CALLS[op].check(scriptJson<Loose>(run, `call ${op}`))
    if (interfaceOperation(op).file) expect(run.stderr).toBe('')
    else expect(run.stderr).toMatch(new RegExp(`^# geo-analyst call ${op.replace('.', '\\.')}`))
    expect(run.stderr).not.toContain(svc.service.token)
  }, 120_000)
}

describe('geo-analyst call OPERATION, read by a script', () => {
  it('has a case for every operation of the interface', () => {
    expect(Object.keys(CALLS).sort()).toEqual([...INTERFACE_OPERATION_NAMES].sort())
  })

  // The image operation runs one call at a time: the model is slow on a shared machine.
  const heavy = (op: InterfaceOperationName) => op === 'vision.blurPlates'
  describe.concurrent.each(INTERFACE_OPERATION_NAMES.filter((op) => !heavy(op)))('call %s', cases)
  describe.each(INTERFACE_OPERATION_NAMES.filter(heavy))('call %s', cases)

  it('call gis.join --out FILE: the file holds the rows as an array, stdout a summary', async () => {
    const out = path.join(svc.dir, 'join.json')
    const run = await cli(['call', 'gis.join', ...WELLS_IN_ZONES, '--out', out], svc.env)
    const summary = scriptJson<Loose>(run, 'call gis.join --out')
    const text = await readFile(out, 'utf8')
    expect(summary).toEqual({ operation: 'gis.join', written: out, bytes: Buffer.byteLength(text) })
    CALLS['gis.join'].check(JSON.parse(text) as Loose)
  })
})

describe('geo-analyst call gis.join as a separate process, its stdout piped to the script', () => {
  it.concurrent.each([true, false])(
    '--json %s: the rows are an array of the requested columns',
    async (json) => {
      const run = await runCliProcess(['call', 'gis.join', ...WELLS_IN_ZONES, ...(json ? ['--json'] : [])], {
        env: svc.env,
        timeoutMs: 90_000,
      })
      CALLS['gis.join'].check(scriptJson<Loose>(run, `call gis.join${json ? ' --json' : ''}`))
    },
    120_000,
  )
})
