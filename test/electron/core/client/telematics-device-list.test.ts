import { rm } from 'node:fs/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createClient } from '../../../../electron/core/client/create-client'
import { Redactor } from '../../../../electron/core/http/redactor'
import { deviceColumns } from '../../../../electron/core/telematics/handlers'
import {
  DEVICES_COLUMNS_EXTENSION,
  LOCAL_EXTENSIONS_HEADER,
} from '../../../../electron/contract/telematics/devices'
import { startLocalService, type LocalService } from '../../../../electron/local-service'
import { FakeProvider } from '../../../support/fake-provider'
import { tempDir } from '../../local-service/helpers'
import { clientFor } from './helpers'

const RECORDS = {
  data: [
    { id: 7, active: true, status: 1, location: { latitude: 57.7, longitude: 11.9, gprsTime: 1700000000 } },
    { id: 8, active: true, status: 2, location: { latitude: 0, longitude: 0, gprsTime: 1700000001 } },
  ],
}

let fake: FakeProvider
beforeEach(async () => {
  fake = await new FakeProvider().start()
})
afterEach(() => fake.stop())

describe('telematics client: the device list in the columns form (a local extension)', () => {
  it('never asks a service that does not advertise it for columns: §2.6 records every time', async () => {
    fake.on('/telematics/devices', { status: 200, json: RECORDS })
    const { client } = clientFor(fake)
    for (let i = 0; i < 3; i++) {
      const r = await client.telematics.deviceList(i === 0 ? {} : { state: 1700000000 + i })
      expect(r).toMatchObject({
        ok: true,
        value: { form: 'records', response: { data: [{ id: 7 }, { id: 8 }] } },
      })
    }
    const sent = fake.to('/telematics/devices')
    expect(sent).toHaveLength(3)
    for (const req of sent) expect(req.query.has('form')).toBe(false)
    expect(sent[2]!.query.get('state')).toBe('1700000002')
  })

  it('asks for columns once the service advertised them, and falls back to §2.6 in the same call when refused', async () => {
    const advertised = { [LOCAL_EXTENSIONS_HEADER]: DEVICES_COLUMNS_EXTENSION }
    fake.on(
      '/telematics/devices',
      { status: 200, json: RECORDS, headers: advertised },
      {
        status: 200,
        json: { form: 'columns', serverTime: 1700000002, devices: deviceColumns(RECORDS.data) },
        headers: advertised,
      },
      // Another service now answers at this address: it does not know the form.
      { status: 400, json: { code: '400', message: 'form: is not a parameter', field: 'form' } },
      { status: 200, json: RECORDS },
      { status: 200, json: RECORDS },
    )
    const { client } = clientFor(fake)
    const first = await client.telematics.deviceList({})
    expect(first.ok && first.value.form).toBe('records')
    const second = await client.telematics.deviceList({ state: 1700000000 })
    expect(second).toMatchObject({
      ok: true,
      value: {
        form: 'columns',
        response: { serverTime: 1700000002, devices: { id: [7, 8], lat: [57.7, null] } },
      },
    })
    const third = await client.telematics.deviceList({ state: 1700000001 })
    expect(third.ok && third.value.form).toBe('records')
    const fourth = await client.telematics.deviceList({})
    expect(fourth.ok && fourth.value.form).toBe('records')
    const forms = fake.to('/telematics/devices').map((r) => r.query.get('form'))
    expect(forms).toEqual([null, 'columns', 'columns', null, null])
  })
})

describe('telematics client against the built-in local service', () => {
  let service: LocalService | undefined
  let dir = ''
  afterEach(async () => {
    await service?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('reads columns after the first answer, the same devices as §2.6', { timeout: 60_000 }, async () => {
    let ms = Date.UTC(2026, 0, 13, 7, 0, 0)
    service = await startLocalService({
      workspaceDir: (dir = await tempDir()),
      token: 'local-token-for-the-test',
      sampleData: false,
      now: () => ms,
    })
    const urls = service.urls
    const client = createClient({
      urls: async () => urls,
      credential: async () => 'local-token-for-the-test',
      redactor: new Redactor(),
      transport: { sleep: async () => undefined, retry: { attemptTimeoutMs: 10_000 } },
    })
    const configured = await fetch(`${urls.telematics_url}/local/fleet`, {
      method: 'PUT',
      headers: { authorization: 'Bearer local-token-for-the-test', 'content-type': 'application/json' },
      body: JSON.stringify({ vehicles: 40, seed: 4 }),
    })
    expect(configured.status).toBe(200)
    ms += 600_000
    const first = await client.telematics.deviceList({ includeInActive: true })
    if (!first.ok || first.value.form !== 'records')
      throw new Error(`expected §2.6 first, got ${first.ok ? first.value.form : first.error.message}`)
    const second = await client.telematics.deviceList({ includeInActive: true })
    if (!second.ok || second.value.form !== 'columns')
      throw new Error(`expected columns, got ${second.ok ? second.value.form : second.error.message}`)
    expect(second.value.response.devices.id).toHaveLength(40)
    expect(second.value.response.devices).toEqual(deviceColumns(first.value.response.data))
  })
})
