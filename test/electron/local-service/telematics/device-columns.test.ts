import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  DEVICES_COLUMNS_EXTENSION,
  LOCAL_EXTENSIONS_HEADER,
} from '../../../../electron/contract/telematics/devices'
import { deviceColumns } from '../../../../electron/core/telematics/handlers'
import { runService, TOKEN, type Running } from '../helpers'

const running: Running[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()))
})

/** A deterministic pseudo-random sequence (mulberry32), so a failing case can be run again by its seed. */
function random(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A service whose clock the test moves, with a simulated fleet on the Gothenburg sample. */
async function fleet(vehicles: number, seed: number) {
  let ms = Date.UTC(2026, 0, 13, 6, 40, 0)
  const r = await runService({}, { now: () => ms })
  running.push(r)
  const get = async (pathname: string, init: RequestInit = {}) => {
    const response = await fetch(r.service.urls.telematics_url + pathname, {
      ...init,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    })
    return { status: response.status, headers: response.headers, json: (await response.json()) as never }
  }
  expect(
    (await get('/local/fleet', { method: 'PUT', body: JSON.stringify({ vehicles, seed }) })).status,
  ).toBe(200)
  return { ...r, get, advance: (seconds: number) => (ms += seconds * 1000) }
}

interface Records {
  data: Array<Record<string, unknown>>
  serverTime: number
}
interface Columns {
  form: string
  serverTime: number
  devices: ReturnType<typeof deviceColumns>
}

describe('GET /telematics/devices?form=columns (a local extension of §4.7)', () => {
  it(
    'answers the same devices as the §2.6 list, for any filter at any second, in either order',
    { timeout: 120_000 },
    async () => {
      const f = await fleet(80, 11)
      // Two replayed tracks join the simulated vehicles (a device of another source, standing still).
      const track = path.join(f.dir, 'parked.csv')
      await writeFile(track, 'time,lat,lon,speed\n1700000000,57.7,11.95,0\n1700000060,57.7,11.95,0\n')
      expect(
        (await f.get('/local/tracks', { method: 'POST', body: JSON.stringify({ path: track }) })).status,
      ).toBe(201)
      const next = random(20261128)
      let lastServerTime = 0
      let compared = 0
      let polled = 0
      for (let round = 0; round < 40; round++) {
        f.advance(1 + Math.floor(next() * 40))
        const all = (await f.get('/devices?includeInActive=true')).json as Records
        const ids = all.data.map((d) => d.id as number)
        const query = new URLSearchParams()
        if (next() < 0.3) query.set('includeInActive', 'true')
        if (next() < 0.2) query.set('ignoreBeacon', 'true')
        if (next() < 0.4 && lastServerTime > 0)
          query.set('state', String(lastServerTime - Math.floor(next() * 5)))
        else if (next() < 0.2) query.set('id', String(ids[Math.floor(next() * ids.length)]))
        const columnsFirst = next() < 0.5
        const askRecords = () => f.get(`/devices?${query}`)
        const askColumns = () => f.get(`/devices?${query}${query.size ? '&' : ''}form=columns`)
        const [records, columns] = columnsFirst
          ? await askColumns().then(async (c) => [await askRecords(), c] as const)
          : await askRecords().then(async (r) => [r, await askColumns()] as const)
        expect(records.status).toBe(200)
        expect(columns.status).toBe(200)
        for (const answer of [records, columns])
          expect(answer.headers.get(LOCAL_EXTENSIONS_HEADER)).toBe(DEVICES_COLUMNS_EXTENSION)
        const r = records.json as Records
        const c = columns.json as Columns
        expect(c.form).toBe('columns')
        expect(c.serverTime).toBe(r.serverTime)
        expect(c.devices, `round ${round}: ?${query}`).toEqual(deviceColumns(r.data))
        compared += r.data.length
        if (query.has('state')) polled++
        lastServerTime = r.serverTime
      }
      // The property held over real devices, incremental polls among them, not only over empty lists.
      expect(compared).toBeGreaterThan(500)
      expect(polled).toBeGreaterThan(3)
    },
  )

  it('shows a replay imported within the same second in both forms (a kept list is not served stale)', async () => {
    const f = await fleet(5, 3)
    f.advance(60)
    const before = (await f.get('/devices?includeInActive=true')).json as Records
    const beforeColumns = (await f.get('/devices?includeInActive=true&form=columns')).json as Columns
    expect(beforeColumns.devices.id).toEqual(before.data.map((d) => d.id))
    const track = path.join(f.dir, 'late.csv')
    await writeFile(track, 'time,lat,lon,speed\n1700000000,57.71,11.96,30\n1700000060,57.72,11.97,30\n')
    const imported = await f.get('/local/tracks', { method: 'POST', body: JSON.stringify({ path: track }) })
    expect(imported.status).toBe(201)
    const deviceId = (imported.json as { deviceId: number }).deviceId
    // The clock has not moved: the same second, a new device.
    const after = (await f.get('/devices?includeInActive=true')).json as Records
    const afterColumns = (await f.get('/devices?includeInActive=true&form=columns')).json as Columns
    expect(after.serverTime).toBe(before.serverTime)
    expect(after.data.map((d) => d.id)).toContain(deviceId)
    expect(afterColumns.devices.id).toContain(deviceId)
    expect(afterColumns.devices).toEqual(deviceColumns(after.data))
  })

  it('refuses a form it does not know, naming the parameter', async () => {
    const f = await fleet(2, 1)
    for (const q of ['form=rows', 'form=columns&form=columns', 'form=']) {
      const answer = await f.get(`/devices?${q}`)
      expect(answer.status, q).toBe(400)
      expect(answer.json).toMatchObject({ field: 'form' })
      expect((answer.json as { message: string }).message).toMatch(/form.*columns/)
    }
  })
})
