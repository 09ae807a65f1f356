import { afterEach, describe, expect, it } from 'vitest'
import { runService, TOKEN, type Running } from '../helpers'

const running: Running[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()))
})

interface Device {
  id: number
  status: number
  location: { latitude: number; longitude: number; speedKph: number }
}
interface Model {
  model: string
  localHour: number
  movingShare: number
}

/** A real service on 127.0.0.1 with the given clock (unix milliseconds). */
async function service(now: () => number) {
  const r = await runService({}, { now })
  running.push(r)
  const call = async <T>(method: string, pathname: string, body?: unknown) => {
    const response = await fetch(r.service.urls.telematics_url + pathname, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    expect(response.status, `${method} ${pathname}`).toBe(200)
    return (await response.json()) as T
  }
  const devices = () => call<{ data: Device[]; serverTime: number }>('GET', '/devices')
  const model = async () => (await call<{ model: Model }>('GET', '/local/fleet')).model
  return { call, devices, model }
}

const moving = (devices: Device[]) => devices.filter((d) => d.location.speedKph > 0)
/** Local midnight of a January weekday in Gothenburg (CET, UTC + 1), in unix milliseconds. */
const MIDNIGHT = Date.UTC(2026, 0, 13, 0, 0, 0) - 3600_000
const HOUR = 3600_000

describe('the simulated fleet starts in the steady state of the hour', () => {
  it(
    'shows at once, at every hour, the share of vehicles moving that the model gives for that hour',
    { timeout: 240_000 },
    async () => {
      let ms = MIDNIGHT
      const s = await service(() => ms)
      const shares = new Map<number, number>()
      for (const [i, hour] of [3, 8, 13, 17, 22].entries()) {
        // A fleet started at this hour (a new seed starts a new fleet at the service's clock).
        ms = MIDNIGHT + hour * HOUR
        await s.call('PUT', '/local/fleet', { vehicles: 300, seed: 40 + i })
        const { data } = await s.devices()
        const model = await s.model()
        expect(model).toMatchObject({ model: 'simulated', localHour: hour })
        const observed = moving(data).length / data.length
        const p = model.movingShare
        // The devices are independent draws: within four standard deviations of the model's share.
        const tolerance = 4 * Math.sqrt((p * (1 - p)) / data.length) + 0.01
        expect(
          Math.abs(observed - p),
          `${hour}:00 — ${moving(data).length} of ${data.length} moving, the model says ${(p * 100).toFixed(1)} %`,
        ).toBeLessThanOrEqual(tolerance)
        // A moving device shows a moving status (or no data / no GPS while it is out of coverage).
        for (const d of moving(data)) expect([1, 4, 5, 7, 8]).toContain(d.status)
        shares.set(hour, p)
      }
      // The hour matters: a night is quiet, a morning busy.
      expect(shares.get(3)!).toBeLessThan(shares.get(8)! / 4)
      expect(shares.get(8)!).toBeGreaterThan(0.15)
    },
  )

  it(
    'stays in that state as it runs: the share moving over the next hour keeps to the model',
    { timeout: 240_000 },
    async () => {
      let ms = MIDNIGHT + 11 * HOUR
      const s = await service(() => ms)
      await s.call('PUT', '/local/fleet', { vehicles: 300, seed: 9 })
      const samples: Array<{ observed: number; model: number; minute: number }> = []
      for (let minute = 0; minute <= 60; minute += 5) {
        const { data } = await s.devices()
        samples.push({
          minute,
          observed: moving(data).length / data.length,
          model: (await s.model()).movingShare,
        })
        // The clock moves a minute at a time (each call runs the fleet's steps up to it).
        for (let k = 0; k < 5; k++) {
          ms += 60_000
          await s.call('GET', '/devices?id=1')
        }
      }
      const describe = samples
        .map((x) => `${x.minute}′ ${x.observed.toFixed(3)}/${x.model.toFixed(3)}`)
        .join(', ')
      // No transient: a fleet that started parked (or all leaving at once) would be far off at first.
      for (const x of samples) expect(Math.abs(x.observed - x.model), describe).toBeLessThanOrEqual(0.1)
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
      const drift = mean(samples.map((x) => x.observed)) - mean(samples.map((x) => x.model))
      expect(Math.abs(drift), describe).toBeLessThanOrEqual(0.04)
    },
  )

  it(
    'shows moving vehicles to a user who opens the Fleet area: two polls seconds apart right after the start',
    { timeout: 120_000 },
    async () => {
      // The real clock, running from a weekday morning in Gothenburg (08:00 local) when the service starts.
      const started = Date.now()
      const s = await service(() => MIDNIGHT + 8 * HOUR + (Date.now() - started))
      // The default fleet (25 vehicles), started by the first request, as opening the area does.
      const first = await s.devices()
      await new Promise((resolve) => setTimeout(resolve, 2000))
      const second = await s.devices()
      expect(second.serverTime - first.serverTime).toBeGreaterThanOrEqual(2)
      expect(first.data.length).toBeGreaterThan(20)
      expect(moving(first.data).length).toBeGreaterThan(0)
      const before = new Map(first.data.map((d) => [d.id, d.location]))
      const moved = moving(second.data).filter((d) => {
        const was = before.get(d.id)!
        return was.latitude !== d.location.latitude || was.longitude !== d.location.longitude
      })
      expect(moved.length).toBeGreaterThan(0)
    },
  )
})
