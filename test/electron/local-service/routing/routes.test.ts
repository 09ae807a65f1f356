import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runService, TOKEN, type Running } from '../helpers'

/** Two places in central Gothenburg about 1 km apart, and one by the harbour. */
const A = '11.9668,57.7072'
const B = '11.9746,57.7089'
const C = '11.9400,57.6990'
const FAR = '77.2,28.6'
// Monday 2024-01-08 18:00 in Stockholm (evening peak) and 03:00 (night), as service clocks.
const PEAK = Date.UTC(2024, 0, 8, 17, 0)
const NIGHT = Date.UTC(2024, 0, 8, 2, 0)

let svc: Running
let clock = NIGHT

beforeAll(async () => {
  svc = await runService(
    {},
    {
      licenceKey: 'test-licence-key',
      now: () => clock,
      entitlements: {
        routingAllowed: {
          resources: [
            'distance_matrix',
            'distance_matrix_eta',
            'distance_matrix_traffic',
            'distance_matrix_predictive',
          ],
        },
      },
    },
  )
})
afterAll(async () => svc.stop())

/** The parts of a §2.3 answer (and of an error body) the tests read. */
interface Answer {
  responseCode: number | string
  version: string
  Server?: string
  check?: string
  network?: string
  field?: string
  message?: string
  results: { code: string; distances: Array<Array<number | null>>; durations: Array<Array<number | null>> }
}

/** A cell of a matrix (null when the answer has null there). */
const at = (m: Array<Array<number | null>>, i: number, j: number) => m[i]![j] as number

async function get(path: string) {
  const r = await fetch(`${svc.service.urls.advancedmaps_url}/${path}`)
  return { status: r.status, json: (await r.json()) as Answer }
}

describe('GET /advancedmaps/{key}/{resource}/{profile}/{positions} (§4.3)', () => {
  it('answers §2.3 on the bundled sample: rows = sources (default 0), columns = every position', async () => {
    const { status, json } = await get(`test-licence-key/distance_matrix/driving/${A};${B};${C}`)
    expect(status).toBe(200)
    expect(json.responseCode).toBe(200)
    expect(json.version).toEqual(expect.any(String))
    expect(json.Server).toEqual(expect.any(String))
    expect(json.results.code).toBe('Ok')
    expect(json.results.distances).toHaveLength(1)
    expect(json.results.distances[0]).toHaveLength(3)
    expect(at(json.results.distances, 0, 0)).toBe(0)
    expect(at(json.results.distances, 0, 1)).toBeGreaterThan(500)
    expect(at(json.results.durations, 0, 1)).toBeGreaterThan(30)
    expect(json.network).toBe('gothenburg-sample')
  })

  it('takes sources and destinations as ;-separated indexes and least distance with rtype=1', async () => {
    const time = await get(
      `test-licence-key/distance_matrix/driving/${A};${B};${C}?sources=0;1&destinations=2`,
    )
    expect(time.json.results.distances).toEqual([[expect.any(Number)], [expect.any(Number)]])
    const dist = await get(
      `test-licence-key/distance_matrix/driving/${A};${B};${C}?sources=0;1&destinations=2&rtype=1`,
    )
    expect(at(dist.json.results.distances, 0, 0)).toBeLessThanOrEqual(at(time.json.results.distances, 0, 0))
    expect(at(dist.json.results.durations, 0, 0)).toBeGreaterThanOrEqual(
      at(time.json.results.durations, 0, 0),
    )
  })

  it('gives null cells for a position no network covers, and NoRoute when no pair has a route', async () => {
    const some = await get(`test-licence-key/distance_matrix/trucking/${A};${FAR};${B}`)
    expect(some.json.results.code).toBe('Ok')
    expect(at(some.json.results.distances, 0, 1)).toBeNull()
    expect(at(some.json.results.durations, 0, 1)).toBeNull()
    const none = await get(`test-licence-key/distance_matrix/driving/${FAR};78.2,29.6`)
    expect(none.status).toBe(200)
    expect(none.json.results.code).toBe('NoRoute')
  })

  it('prices ETA by the hourly model at the service clock, and typical traffic between free flow and peak', async () => {
    const free = await get(`test-licence-key/distance_matrix/driving/${A};${C}`)
    clock = PEAK
    const peak = await get(`test-licence-key/distance_matrix_eta/driving/${A};${C}`)
    clock = NIGHT
    const night = await get(`test-licence-key/distance_matrix_eta/driving/${A};${C}`)
    const typical = await get(`test-licence-key/distance_matrix_traffic/trucking/${A};${C}`)
    expect(at(night.json.results.durations, 0, 1)).toBeCloseTo(at(free.json.results.durations, 0, 1), 0)
    expect(at(peak.json.results.durations, 0, 1)).toBeGreaterThan(at(free.json.results.durations, 0, 1) * 1.3)
    expect(typical.json.results.code).toBe('Ok')
  })

  it('refuses bad input with 400 and the spec codes, naming the field', async () => {
    const service = await get(`test-licence-key/distance_matrix_live/driving/${A};${B}`)
    expect(service.status).toBe(400)
    expect(service.json.results.code).toBe('InvalidService')
    expect(service.json.field).toBe('resources')
    const options = await get(`test-licence-key/distance_matrix_eta/walking/${A};${B}`)
    expect(options.json.results.code).toBe('InvalidOptions')
    expect(options.json.message).toMatch(/walking is available with resources distance_matrix only/)
    expect(
      (await get(`test-licence-key/distance_matrix_eta/driving/${A};${B}?rtype=1`)).json.results.code,
    ).toBe('InvalidOptions')
    expect(
      (await get(`test-licence-key/distance_matrix/biking/${A};${B}?region=IND`)).json.results.code,
    ).toBe('InvalidOptions')
    const query = await get(`test-licence-key/distance_matrix/driving/${A};somewhere`)
    expect(query.json.results.code).toBe('InvalidQuery')
    expect(query.json.field).toBe('geopositions')
    expect(
      (await get(`test-licence-key/distance_matrix/driving/${A};${B}?sources=0;7`)).json.results.code,
    ).toBe('InvalidQuery')
    const many = Array.from({ length: 101 }, () => A).join(';')
    const tooMany = await get(`test-licence-key/distance_matrix/driving/${many}`)
    expect(tooMany.status).toBe(400)
    expect(tooMany.json.results.code).toBe('InvalidQuery')
    expect(tooMany.json.message).toMatch(/at most 100/)
  })

  it('401 for a wrong licence key, 403 for a resource the key is not allocated', async () => {
    expect((await get(`wrong-key/distance_matrix/driving/${A};${B}`)).status).toBe(401)
    const svc2 = await runService(
      {},
      {
        licenceKey: 'k2',
        entitlements: { routingAllowed: { resources: ['distance_matrix'], profiles: ['driving'] } },
      },
    )
    try {
      const base = svc2.service.urls.advancedmaps_url
      expect((await fetch(`${base}/k2/distance_matrix/driving/${A};${B}`)).status).toBe(200)
      const eta = await fetch(`${base}/k2/distance_matrix_eta/driving/${A};${B}`)
      expect(eta.status).toBe(403)
      expect(((await eta.json()) as { message: string }).message).toMatch(
        /not entitled to the resource distance_matrix_eta/,
      )
      expect((await fetch(`${base}/k2/distance_matrix/walking/${A};${B}`)).status).toBe(403)
      expect(
        (await fetch(`${base}/k2/distance_matrix/driving/${A};${B}`.replace('k2', 'routing'))).status,
      ).toBe(401)
    } finally {
      await svc2.stop()
    }
  })

  it('takes eLocs as positions: a saved place is routed like its coordinates, an unknown eLoc gives null cells', async () => {
    const [lon, lat] = B.split(',').map(Number)
    const post = await fetch(`${svc.service.urls.atlas_url}/local/places/saved`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        placeName: 'Depot Gothenburg',
        latitude: lat,
        longitude: lon,
        placeAddress: '',
      }),
    })
    expect(post.status).toBe(201)
    const { eLoc } = (await post.json()) as { eLoc: string }
    const byCoordinates = await get(`test-licence-key/distance_matrix/driving/${A};${B}`)
    const byEloc = await get(`test-licence-key/distance_matrix/driving/${A};${eLoc.toLowerCase()};ZZZZZZ`)
    expect(byEloc.status).toBe(200)
    expect(at(byEloc.json.results.distances, 0, 1)).toBe(at(byCoordinates.json.results.distances, 0, 1))
    expect(byEloc.json.results.distances[0]![2]).toBeNull()
    expect(byEloc.json.results.durations[0]![2]).toBeNull()
  })
})

describe('GET /advancedmaps/{key}/distance_matrix_predictive/driving/{coordinates} (§4.4)', () => {
  it('answers with check, version, responseCode as a string, and a slower trip at the evening peak', async () => {
    const night = await get(
      `test-licence-key/distance_matrix_predictive/driving/${A};${C}?dep_time=${NIGHT / 1000}`,
    )
    expect(night.status).toBe(200)
    expect(night.json.responseCode).toBe('200')
    expect(night.json.check).toEqual(expect.any(String))
    expect(night.json.results.code).toBe('Ok')
    const peak = await get(
      `test-licence-key/distance_matrix_predictive/driving/${A};${C}?dep_time=${PEAK / 1000}`,
    )
    expect(at(peak.json.results.durations, 0, 0)).toBeGreaterThan(
      at(night.json.results.durations, 0, 0) * 1.3,
    )
    // Without dep_time: now (the service clock).
    clock = PEAK
    const now = await get(`test-licence-key/distance_matrix_predictive/driving/${A};${C}`)
    clock = NIGHT
    expect(now.json.results.durations).toEqual(peak.json.results.durations)
    // With a via the trip is longer.
    const via = await get(
      `test-licence-key/distance_matrix_predictive/driving/${A};${B};${C}?dep_time=${NIGHT / 1000}`,
    )
    expect(at(via.json.results.distances, 0, 0)).toBeGreaterThan(at(night.json.results.distances, 0, 0))
  })

  it('refuses eLocs and malformed times', async () => {
    const eloc = await get(`test-licence-key/distance_matrix_predictive/driving/${A};MMI000`)
    expect(eloc.status).toBe(400)
    expect(eloc.json.responseCode).toBe('400')
    expect(eloc.json.results.code).toBe('InvalidQuery')
    expect(
      (await get(`test-licence-key/distance_matrix_predictive/driving/${A};${B}?dep_time=soon`)).json.results
        .code,
    ).toBe('InvalidQuery')
  })
})
