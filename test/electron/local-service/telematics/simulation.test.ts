import { afterEach, describe, expect, it } from 'vitest'
import { DEVICE_TYPES } from '../../../../electron/contract/telematics/fleet'
import { runService, TOKEN, type Running } from '../helpers'

const running: Running[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()))
})

interface Record {
  id: number
  active: boolean
  status: number
  location: {
    gpsTime: number
    gprsTime: number
    latitude: number
    longitude: number
    speedKph: number
    odometer: number
  }
  deviceDetails: { deviceType: string }
  canInfo?: { engineRPM: number; gearState: number; fuelLevel: number }
  todaysDrive: { todayKms: number }
  source: string
}

/** A service whose clock the test moves, with a simulated fleet of `vehicles` on the Gothenburg sample. */
async function simulated(vehicles: number, seed: number) {
  let ms = Date.UTC(2026, 0, 12, 6, 0, 0)
  const r = await runService({}, { now: () => ms })
  running.push(r)
  const call = async (method: string, pathname: string, body?: unknown) => {
    const response = await fetch(r.service.urls.telematics_url + pathname, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return (await response.json()) as { data: Record[]; serverTime: number }
  }
  await call('PUT', '/local/fleet', { vehicles, seed })
  return {
    call,
    advance: (seconds: number) => (ms += seconds * 1000),
    devices: async () => (await call('GET', '/devices?includeInActive=true')).data,
  }
}

describe('the simulated fleet', () => {
  it(
    'drives seeded vehicles on the road network: the same seed and clock give the same records',
    { timeout: 120_000 },
    async () => {
      const a = await simulated(12, 7)
      const b = await simulated(12, 7)
      a.advance(1800)
      b.advance(1800)
      const [first, second] = [await a.devices(), await b.devices()]
      expect(first).toHaveLength(12)
      expect(second).toEqual(first)
      for (const d of first) {
        expect(DEVICE_TYPES).toContain(d.deviceDetails.deviceType)
        expect(d.source).toBe('simulation')
        // Near Gothenburg, on the sample network.
        expect(d.location.latitude).toBeGreaterThan(57.5)
        expect(d.location.latitude).toBeLessThan(57.9)
        expect([1, 2, 4, 5, 6, 7, 8, 9]).toContain(d.status)
      }
      // Within half an hour of a weekday morning some vehicles have driven.
      expect(first.some((d) => d.todaysDrive.todayKms > 0)).toBe(true)
      // A moving vehicle reports 1, or 8 on a trip, with a speed; the engine turns when the CAN bus is read.
      const moving = first.filter((d) => d.status === 1 || d.status === 8)
      for (const d of moving) expect(d.location.speedKph).toBeGreaterThan(0)
      for (const d of moving.filter((m) => m.canInfo)) expect(d.canInfo!.engineRPM).toBeGreaterThan(0)

      // Another seed: another fleet.
      const c = await simulated(12, 8)
      c.advance(1800)
      expect(await c.devices()).not.toEqual(first)
    },
  )

  it(
    'answers an incremental poll with only the devices that reported after `state`',
    { timeout: 120_000 },
    async () => {
      const f = await simulated(30, 3)
      f.advance(600)
      const full = await f.call('GET', '/devices')
      f.advance(5)
      const changed = await f.call('GET', `/devices?state=${full.serverTime}`)
      expect(changed.serverTime).toBe(full.serverTime + 5)
      // Running vehicles report every second, parked ones once a minute: some, not all.
      expect(changed.data.length).toBeGreaterThan(0)
      expect(changed.data.length).toBeLessThan(full.data.length)
      for (const d of changed.data) {
        expect(d.active).toBe(true)
        expect(d.location.gprsTime).toBeGreaterThan(full.serverTime)
      }
    },
  )
})
