import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runService, TOKEN, type Running } from '../helpers'

let svc: Running
beforeAll(async () => {
  svc = await runService({})
})
afterAll(async () => {
  await svc?.stop()
})

const auth = { authorization: `Bearer ${TOKEN}` }
async function get(path: string, query: Record<string, string> | string) {
  const search = typeof query === 'string' ? query : new URLSearchParams(query).toString()
  const r = await fetch(`${svc.service.urls.atlas_url}${path}?${search}`, { headers: auth })
  const text = await r.text()
  return { status: r.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : null }
}

describe('GET /atlas/api/places/woodpecker (§4.1)', () => {
  it('answers every field of §2.1 for a recognised address', async () => {
    const r = await get('/api/places/woodpecker', {
      address: 'H.No. 12/3, 2nd Floor, Near Hanuman Mandir, Koramangala, Bangalore 560034',
    })
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({
      inputAddress: 'H.No. 12/3, 2nd Floor, Near Hanuman Mandir, Koramangala, Bangalore 560034',
      remainingAddress: '',
      referentialInformation: {
        pincodes: '560034',
        floors: '2nd Floor',
        roads: '',
        postOffices: '',
        careOfs: '',
        landmarks: 'Near Hanuman Mandir',
        houseNumbers: { prefix: 'H.No.', houseNo: '12/3', formatted: 'H.No. 12/3' },
      },
      addressInformation: {
        adminDetails: {
          city: { originalName: 'Bengaluru' },
          locality: { originalName: 'Koramangala' },
          state: { originalName: 'Karnataka' },
        },
        adminPattern: ['locality', 'city'],
      },
    })
  })

  it('204 with no body when nothing is recognised', async () => {
    const r = await get('/api/places/woodpecker', { address: 'qwzx plmk' })
    expect(r.status).toBe(204)
    expect(r.json).toBeNull()
  })

  it('400 naming the parameter for a missing, blank or too long address, or a bad bias', async () => {
    for (const [query, field] of [
      [{}, 'address'],
      [{ address: '   ' }, 'address'],
      [{ address: 'x'.repeat(1001) }, 'address'],
      [{ address: 'Pune', bias: 'urban' }, 'bias'],
      [{ address: 'Pune', colour: 'red' }, 'colour'],
    ] as const) {
      const r = await get('/api/places/woodpecker', query)
      expect(r.status, JSON.stringify(query)).toBe(400)
      expect(r.json).toMatchObject({ field })
    }
  })

  it('needs the bearer token', async () => {
    const r = await fetch(`${svc.service.urls.atlas_url}/api/places/woodpecker?address=Pune`)
    expect(r.status).toBe(401)
  })
})

describe('GET /atlas/api/places/search/json (§4.2)', () => {
  it('suggests places with the §2.2 fields', async () => {
    const r = await get(
      '/api/places/search/json',
      'query=koramangala&tokenizeAddress&bridge&location=12.9,77.6',
    )
    expect(r.status).toBe(200)
    const json = r.json as {
      suggestedLocations: Array<Record<string, unknown>>
      userAddedLocation: unknown[]
      suggestedSearches: unknown[]
      lang: string
    }
    expect(json.lang).toBe('en')
    expect(json.suggestedLocations[0]).toMatchObject({
      type: 'LOCALITY',
      placeName: 'Koramangala',
      eLoc: expect.stringMatching(/^[0-9A-Z]{6}$/),
      addressTokens: { city: 'Bengaluru', district: 'Bengaluru', state: 'Karnataka', pincode: 560034 },
      orderIndex: 1,
    })
    expect(json.suggestedSearches[0]).toMatchObject({ identifier: 'near', location: '12.9,77.6' })
  })

  it('answers a Hindi query in Hindi', async () => {
    const r = await get('/api/places/search/json', { query: 'लखनऊ' })
    const json = r.json as { lang: string; suggestedLocations: Array<{ placeName: string }> }
    expect(json.lang).toBe('hi')
    expect(json.suggestedLocations[0]!.placeName).toBe('लखनऊ')
  })

  it('204 when nothing matches', async () => {
    expect((await get('/api/places/search/json', { query: 'qxzwv' })).status).toBe(204)
  })

  it('400 naming the parameter for a missing query, a bad location, filter, pod or region', async () => {
    for (const [query, field] of [
      ['', 'query'],
      ['query=x&location=91,77', 'location'],
      ['query=x&filter=pin:1100', 'filter'],
      ['query=x&pod=TOWN', 'pod'],
      ['query=x&region=INDIA', 'region'],
      ['query=x&hyperLocal', 'location'],
    ] as const) {
      const r = await get('/api/places/search/json', query)
      expect(r.status, query).toBe(400)
      expect(r.json, query).toMatchObject({ field })
    }
  })

  it('eLocs work in cop: filters', async () => {
    const karnataka = (await get('/api/places/search/json', { query: 'karnataka', pod: 'STATE' })).json as {
      suggestedLocations: Array<{ eLoc: string }>
    }
    const r = await get('/api/places/search/json', {
      query: 'nagar',
      filter: `cop:${karnataka.suggestedLocations[0]!.eLoc}`,
    })
    const places = (r.json as { suggestedLocations: Array<{ placeAddress: string }> }).suggestedLocations
    expect(places.length).toBeGreaterThan(0)
    expect(places.every((p) => p.placeAddress.includes('Karnataka'))).toBe(true)
  })
})

describe('My places (local extension)', () => {
  const saved = `/atlas/local/places/saved`
  it('saves a place that then comes back in userAddedLocation, and deletes it', async () => {
    const url = `${svc.service.urls.atlas_url.replace(/\/atlas$/, '')}${saved}`
    const post = await fetch(url, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        placeName: 'Depot North',
        latitude: 28.7,
        longitude: 77.1,
        placeAddress: 'Delhi',
      }),
    })
    expect(post.status).toBe(201)
    const place = (await post.json()) as { eLoc: string }
    expect(place.eLoc).toMatch(/^[0-9A-Z]{8}$/)
    const found = await get('/api/places/search/json', { query: 'depot' })
    expect(found.json).toMatchObject({
      userAddedLocation: [
        expect.objectContaining({ eLoc: place.eLoc, placeName: 'Depot North', resultType: 'UAP' }),
      ],
    })
    const list = (await (await fetch(url, { headers: auth })).json()) as { places: Array<{ eLoc: string }> }
    expect(list.places.map((p) => p.eLoc)).toContain(place.eLoc)
    expect((await fetch(`${url}/${place.eLoc}`, { method: 'DELETE', headers: auth })).status).toBe(200)
    expect((await fetch(`${url}/${place.eLoc}`, { method: 'DELETE', headers: auth })).status).toBe(404)
  })

  it('refuses a bad place, naming the field', async () => {
    const url = `${svc.service.urls.atlas_url.replace(/\/atlas$/, '')}${saved}`
    const r = await fetch(url, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ placeName: 'X', latitude: 123, longitude: 77 }),
    })
    expect(r.status).toBe(400)
    expect(await r.json()).toMatchObject({ field: 'latitude' })
  })
})
