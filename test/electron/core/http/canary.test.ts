import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createClient } from '../../../../electron/core/client/create-client'
import { toCli, toCurl } from '../../../../electron/core/http/copy-as-command'
import { Redactor } from '../../../../electron/core/http/redactor'
import { RequestHistory } from '../../../../electron/core/workspace/request-history'
import { FakeProvider, fakeUrls } from '../../../support/fake-provider'
import { cli, tempDir } from '../../cli/cli-harness'

/** A secret that must never be seen again once handed to the client. */
const CANARY = 'CANARY-7f3a9c1e5b'

let fake: FakeProvider
let dataDir: string
beforeEach(async () => {
  fake = await new FakeProvider().start()
  dataDir = await tempDir('ga-canary-')
})
afterEach(async () => {
  await fake.stop()
  await fs.rm(dataDir, { recursive: true, force: true })
})

function count(haystack: string): number {
  return haystack.split(CANARY).length - 1
}

describe('canary: a planted secret appears zero times in anything captured', () => {
  it('through client success and failure paths, logs, errors, history and copied commands', async () => {
    const captured: string[] = []
    const redactor = new Redactor()
    const history = new RequestHistory(dataDir, redactor)
    const client = createClient({
      urls: fakeUrls(fake.base),
      credential: async () => CANARY,
      redactor,
      history,
      transport: {
        log: (line) => captured.push(line),
        sleep: async () => undefined,
        retry: { attemptTimeoutMs: 300, maxAttempts: 2 },
      },
    })
    const echo = { message: `invalid credential ${CANARY} for Bearer ${CANARY}` }
    fake.on(`/advancedmaps/${CANARY}/distance_matrix/driving/1,2;3,4`, { status: 401, json: echo })
    fake.on(`/advancedmaps/${CANARY}/distance_matrix_predictive/driving/1,2;3,4`, {
      status: 200,
      json: { responseCode: '200', results: { code: 'Ok' } },
    })
    fake.on('/mgis/v2/getLayersList', { status: 403, json: echo })
    fake.on('/mgis/query_apply/join', { reset: true })
    fake.on('/telematics/devices', { status: 500, body: `upstream said ${CANARY}` })
    fake.on('/telematics/alarm', { hang: true })
    fake.on('/atlas/api/places/woodpecker', {
      status: 302,
      headers: { location: `http://127.0.0.1:1/${CANARY}` },
    })
    fake.on('/atlas/api/places/search/json', { status: 200, body: `{"broken": "${CANARY}` })
    const results = [
      await client.routing.matrix({
        resources: 'distance_matrix',
        profile: 'driving',
        geopositions: '1,2;3,4',
      }),
      await client.routing.predictive({ coordinates: '1,2;3,4' }),
      await client.gis.layers(),
      await client.gis.join({
        queryType: 'spatialOperation',
        datasetSource: 'a',
        datasetRef: 'b',
        operator: 'Within',
        sourceProperty: 'g',
        saveAsNewDataset: true,
        newDatasetNme: 'n1',
      }),
      await client.telematics.devices({}),
      await client.telematics.createAlarm({ alarmType: 23, deviceId: [1] }),
      await client.telematics.createAlarm({ alarmType: 23, deviceId: [1] }),
      await client.places.standardize({ address: 'x' }),
      await client.places.autosuggest({ query: 'x' }),
    ]
    // The canary really was sent: it is a live secret, not a string that never left.
    expect(fake.received.some((r) => r.headers.authorization === `Bearer ${CANARY}`)).toBe(true)
    expect(fake.received.some((r) => r.path.includes(CANARY))).toBe(true)
    expect(results.filter((r) => !r.ok).length).toBeGreaterThanOrEqual(7)
    captured.push(JSON.stringify(results))
    captured.push(await fs.readFile(history.file, 'utf8'))
    captured.push(JSON.stringify(await history.list(100)))
    captured.push(
      toCurl(
        {
          method: 'POST',
          url: `${fake.base}/advancedmaps/${CANARY}/distance_matrix/driving/1,2;3,4?key=${CANARY}`,
          headers: { Authorization: `Bearer ${CANARY}`, 'X-Echo': CANARY },
          body: `{"token":"${CANARY}"}`,
        },
        redactor,
      ),
    )
    captured.push(
      toCurl(
        {
          method: 'POST',
          url: `${fake.base}/aiml/x`,
          headers: { Authorization: `Bearer ${CANARY}` },
          body: { file: `/tmp/${CANARY}.png` },
        },
        redactor,
      ),
    )
    captured.push(
      toCli('gis.join', { datasetSource: CANARY, queryType: 'basic' }, redactor, {
        body: `/tmp/${CANARY}.json`,
      }),
    )
    const all = captured.join('\n')
    expect(all).toContain('[REDACTED]')
    expect(count(all)).toBe(0)
  }, 20_000)

  it('through the CLI: stdout, stderr and the history file', async () => {
    const env = {
      GEO_ANALYST_DATA_DIR: dataDir,
      GEO_ANALYST_CONFIG_DIR: path.join(dataDir, 'config'),
      ...Object.fromEntries(
        Object.entries(fakeUrls(fake.base)).map(([k, v]) => [
          `GEO_ANALYST_${k.replace(/_url$/, '').toUpperCase()}_URL`,
          v,
        ]),
      ),
      GEO_ANALYST_TOKEN: CANARY,
      GEO_ANALYST_LICENCE_KEY: CANARY,
    }
    fake.on('/mgis/v2/getLayersList', { status: 401, json: { message: `bad token ${CANARY}` } })
    fake.on(`/advancedmaps/${CANARY}/distance_matrix/driving/1,2;3,4`, {
      status: 200,
      json: { responseCode: 200, results: { code: 'Ok' } },
    })
    const runs = [
      await cli(['call', 'gis.layers'], env),
      await cli(
        ['call', 'routing.matrix', 'resources=distance_matrix', 'profile=driving', 'geopositions=1,2;3,4'],
        env,
      ),
      await cli(['history', '--limit', '10'], env),
      await cli(['history', '--json'], env),
    ]
    expect(runs.map((r) => r.code)).toEqual([3, 0, 0, 0])
    const files = await fs.readdir(path.join(dataDir, 'history'))
    const stored = await Promise.all(files.map((f) => fs.readFile(path.join(dataDir, 'history', f), 'utf8')))
    const all = [...runs.flatMap((r) => [r.stdout, r.stderr]), ...stored].join('\n')
    expect(all).toMatch(/routing\.matrix/)
    expect(count(all)).toBe(0)
  })
})
