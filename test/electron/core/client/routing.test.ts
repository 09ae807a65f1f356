import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FakeProvider } from '../../../support/fake-provider'
import { clientFor, KEY } from './helpers'

let fake: FakeProvider
beforeEach(async () => {
  fake = await new FakeProvider().start()
})
afterEach(() => fake.stop())

const ok = {
  status: 200,
  json: {
    Server: 'n1',
    version: '1',
    responseCode: 200,
    results: { code: 'Ok', distances: [[0, 1200.5]], durations: [[0, '300']] },
  },
}

describe('routing client', () => {
  it('matrix puts the licence key in the path, sends no Authorization, and reads the result', async () => {
    fake.on('*', ok)
    const { client } = clientFor(fake)
    const r = await client.routing.matrix({
      resources: 'distance_matrix',
      profile: 'driving',
      geopositions: '77.1,28.6;77.2,28.7;MMI000',
      sources: '0',
      destinations: '1;2',
      rtype: '1',
      region: 'ind',
    })
    const req = fake.received[0]!
    expect(req.path).toBe(`/advancedmaps/${KEY}/distance_matrix/driving/77.1,28.6;77.2,28.7;MMI000`)
    expect(req.query.get('sources')).toBe('0')
    expect(req.query.get('destinations')).toBe('1;2')
    expect(req.query.get('rtype')).toBe('1')
    expect(req.headers.authorization).toBeUndefined()
    expect(r).toMatchObject({
      ok: true,
      value: { responseCode: 200, results: { code: 'Ok', distances: [[0, 1200.5]], durations: [[0, 300]] } },
    })
  })

  it('checks the matrix rules before sending', async () => {
    const { client } = clientFor(fake)
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [
        { resources: 'distance_matrix_eta', profile: 'biking', geopositions: '1,2;3,4' },
        /profile: biking is available with resources distance_matrix only/,
      ],
      [
        { resources: 'distance_matrix_eta', profile: 'driving', geopositions: '1,2;3,4', rtype: 1 },
        /rtype: rtype=1/,
      ],
      [
        { resources: 'distance_matrix', profile: 'biking', geopositions: '1,2;3,4', region: 'IND' },
        /region: is not supported for profile biking/,
      ],
      [
        { resources: 'distance_matrix', profile: 'driving', geopositions: '1,2;3,4', destinations: '2' },
        /destinations: index 2 is out of range/,
      ],
      [
        { resources: 'distance_matrix', profile: 'driving', geopositions: '200,2;3,4' },
        /geopositions: position 1/,
      ],
      [
        {
          resources: 'distance_matrix',
          profile: 'driving',
          geopositions: Array.from({ length: 101 }, () => '1,2').join(';'),
        },
        /at most 100/,
      ],
      [{ profile: 'driving', geopositions: '1,2;3,4' }, /resources: is required/],
    ]
    for (const [params, message] of cases) {
      const r = await client.routing.matrix(params)
      expect(r.ok ? '' : r.error.message).toMatch(message)
      expect(r.ok ? null : r.error.failureClass).toBe('validation')
    }
    expect(fake.received).toHaveLength(0)
  })

  it('matrix: 204 is the provider database error; Invalid* result codes are validation', async () => {
    fake.on('*', { status: 204 })
    const { client } = clientFor(fake)
    const r = await client.routing.matrix({
      resources: 'distance_matrix',
      profile: 'driving',
      geopositions: '1,2;3,4',
    })
    expect(r.ok ? null : r.error).toMatchObject({ failureClass: 'provider-unavailable', status: 204 })
    fake.on('*', { status: 200, json: { responseCode: 400, results: { code: 'InvalidQuery' } } })
    const q = await client.routing.matrix({
      resources: 'distance_matrix',
      profile: 'driving',
      geopositions: '1,2;3,4',
    })
    expect(q.ok ? null : q.error).toMatchObject({ failureClass: 'validation', code: 'InvalidQuery' })
  })

  it('predictive uses the fixed path, dep_time and a string responseCode', async () => {
    fake.on('*', {
      status: 200,
      json: { check: 'x', version: '2', responseCode: '200', results: { code: 'NoRoute' } },
    })
    const { client } = clientFor(fake)
    const r = await client.routing.predictive({ coordinates: '77.1,28.6;77.3,28.4', dep_time: '1767225600' })
    expect(fake.received[0]!.path).toBe(
      `/advancedmaps/${KEY}/distance_matrix_predictive/driving/77.1,28.6;77.3,28.4`,
    )
    expect(fake.received[0]!.query.get('dep_time')).toBe('1767225600')
    expect(r).toMatchObject({ ok: true, value: { responseCode: 200, results: { code: 'NoRoute' } } })
  })

  it('a missing licence key is local-configuration and nothing is sent', async () => {
    const { client } = clientFor(fake, { token: 'only-a-token' })
    const r = await client.routing.predictive({ coordinates: '1,2;3,4' })
    expect(r.ok ? null : r.error).toMatchObject({ failureClass: 'local-configuration', field: 'licence-key' })
    expect(fake.received).toHaveLength(0)
  })
})
