import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FakeProvider } from '../../../support/fake-provider'
import { clientFor, TOKEN } from './helpers'

let fake: FakeProvider
beforeEach(async () => {
  fake = await new FakeProvider().start()
})
afterEach(() => fake.stop())

describe('places client', () => {
  it('standardize sends GET /api/places/woodpecker with address and bias and a bearer header', async () => {
    fake.on('/atlas/api/places/woodpecker', {
      status: 200,
      json: {
        inputAddress: '12 MG Road',
        remainingAddress: '',
        referentialInformation: { pincodes: '560001', roads: 'MG Road', extra: 1 },
        novel: true,
      },
    })
    const { client } = clientFor(fake)
    const r = await client.places.standardize({ address: '12 MG Road, Bengaluru', bias: '1' })
    const req = fake.to('/atlas/api/places/woodpecker')[0]!
    expect(req.method).toBe('GET')
    expect(req.query.get('address')).toBe('12 MG Road, Bengaluru')
    expect(req.query.get('bias')).toBe('1')
    expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`)
    expect(r).toMatchObject({
      ok: true,
      value: {
        found: true,
        address: {
          inputAddress: '12 MG Road',
          novel: true,
          referentialInformation: { pincodes: '560001', floors: '', extra: 1 },
        },
      },
    })
  })

  it('standardize: 204 means not found', async () => {
    fake.on('/atlas/api/places/woodpecker', { status: 204 })
    const r = await clientFor(fake).client.places.standardize({ address: 'nowhere' })
    expect(r).toEqual({ ok: true, value: { found: false } })
  })

  it('autosuggest sends valueless flags as bare keys and keeps RESTRICTED coordinates as a marker', async () => {
    fake.on('/atlas/api/places/search/json', {
      status: 200,
      json: {
        suggestedLocations: [
          {
            placeName: 'कनॉट प्लेस',
            latitude: 'RESTRICTED',
            longitude: 'RESTRICTED',
            entryLatitude: '28.63',
            entryLongitude: 77.21,
            eLoc: 'ABC123',
            keywords: ['x'],
          },
        ],
        userAddedLocation: [],
        lang: 'hi',
      },
    })
    const { client } = clientFor(fake)
    const r = await client.places.autosuggest({
      query: 'कनॉट',
      location: '28.6,77.2',
      bridge: true,
      hyperLocal: true,
      tokenizeAddress: false,
      pod: 'CITY',
    })
    const req = fake.to('/atlas/api/places/search/json')[0]!
    expect(req.search.split('&')).toEqual(
      expect.arrayContaining(['bridge', 'hyperLocal', 'pod=CITY', 'location=28.6%2C77.2']),
    )
    expect(req.search).not.toMatch(/tokenizeAddress|bridge=|hyperLocal=/)
    expect(req.query.get('query')).toBe('कनॉट')
    expect(r.ok && r.value).toMatchObject({
      lang: 'hi',
      suggestedSearches: [],
      suggestedLocations: [
        { latitude: 'RESTRICTED', longitude: 'RESTRICTED', entryLatitude: 28.63, entryLongitude: 77.21 },
      ],
    })
  })

  it('autosuggest validates before sending: hyperLocal needs location, pod and filter forms', async () => {
    const { client } = clientFor(fake)
    const r = await client.places.autosuggest({ query: 'x', hyperLocal: true, pod: 'TOWN', filter: 'pin:12' })
    expect(r.ok ? null : r.error).toMatchObject({ failureClass: 'validation' })
    expect(r.ok ? '' : r.error.message).toMatch(/pod: must be one of/)
    expect(r.ok ? '' : r.error.message).toMatch(/filter: must be pin/)
    expect(r.ok ? '' : r.error.message).toMatch(/location: hyperLocal works only together with location/)
    expect(fake.received).toHaveLength(0)
    expect((await client.places.autosuggest({ query: 'x', filter: 'bounds:28.1,77.1;28.9,77.9' })).ok).toBe(
      false,
    ) // no script → 404
    expect(fake.received).toHaveLength(1)
  })

  it('a missing token is local-configuration and nothing is sent', async () => {
    const { client, history } = clientFor(fake, {})
    const r = await client.places.standardize({ address: 'x' })
    expect(r.ok ? null : r.error).toMatchObject({
      failureClass: 'local-configuration',
      field: 'token.places',
    })
    expect(r.ok ? '' : r.error.message).toMatch(/nothing was sent/)
    expect(fake.received).toHaveLength(0)
    expect(history[0]).toMatchObject({
      operation: 'places.standardize',
      failureClass: 'local-configuration',
      attempts: 0,
    })
  })

  it('a group token overrides the shared one', async () => {
    fake.on('*', { status: 204 })
    const { client } = clientFor(fake, { token: 'shared-token-1', 'token.places': 'places-token-2' })
    await client.places.standardize({ address: 'x' })
    expect(fake.received[0]!.headers.authorization).toBe('Bearer places-token-2')
  })

  it('a truncated or malformed body is an error naming the operation', async () => {
    fake.on('/atlas/api/places/search/json', { truncate: '{"suggestedLocations":[{"placeName":"x"' })
    const { client } = clientFor(fake)
    const r = await client.places.autosuggest({ query: 'x' })
    expect(r.ok).toBe(false)
    expect(r.ok ? '' : r.error.message).toMatch(/places\.autosuggest/)
    fake.on('/atlas/api/places/woodpecker', { status: 200, body: '{"inputAddress": oops}' })
    const m = await client.places.standardize({ address: 'x' })
    expect(m.ok ? null : m.error).toMatchObject({ failureClass: 'unclassified' })
    expect(m.ok ? '' : m.error.message).toMatch(
      /places\.standardize: the provider's answer is not valid JSON/,
    )
  })
})
