import { beforeAll, describe, expect, it } from 'vitest'
import type { Gazetteer } from '../../../../../electron/local-service/places/data/gazetteer'
import {
  autosuggest,
  parseFilter,
  type SuggestParams,
  type UserPlace,
} from '../../../../../electron/local-service/places/engine/autosuggest'
import { shippedGazetteer } from '../support'

let g: Gazetteer
beforeAll(async () => {
  g = await shippedGazetteer()
})
const suggest = (params: SuggestParams, places: UserPlace[] = []) => autosuggest(g, params, places)
const names = (params: SuggestParams) => suggest(params)?.suggestedLocations.map((s) => s.placeName) ?? []
const first = (params: SuggestParams) => {
  const r = suggest(params)
  if (!r?.suggestedLocations[0]) throw new Error(`no suggestion for ${JSON.stringify(params)}`)
  return r.suggestedLocations[0]
}

describe('autosuggest: matching', () => {
  it('completes a prefix with the most important places first', () => {
    expect(names({ query: 'beng' })[0]).toBe('Bengaluru')
    expect(names({ query: 'mum' })[0]).toBe('Mumbai')
    expect(first({ query: 'koramangala' })).toMatchObject({ placeName: 'Koramangala', type: 'LOCALITY' })
    expect(names({ query: 'connaught pl' })[0]).toBe('Connaught Place')
  })

  it('tolerates typing errors and spelling variants', () => {
    expect(names({ query: 'hydrabad' })[0]).toBe('Hyderabad')
    expect(names({ query: 'chenai' })[0]).toBe('Chennai')
    expect(names({ query: 'koramangla' })).toContain('Koramangala')
    expect(first({ query: 'bangalore' })).toMatchObject({
      placeName: 'Bengaluru',
      suggester: 'alternateName',
    })
    expect(names({ query: 'gurgaon' })[0]).toBe('Gurugram')
  })

  it('matches words of where a place lies (city, district, state)', () => {
    const r = first({ query: 'indiranagar beng' })
    expect(r.placeName).toBe('Indiranagar')
    expect(r.placeAddress).toMatch(/Bengaluru, Karnataka, 560038/)
  })

  it('answers a Devanagari query in Hindi, and Latin and Devanagari spellings find each other', () => {
    const hi = suggest({ query: 'दिल्ली' })!
    expect(hi.lang).toBe('hi')
    expect(hi.suggestedLocations[0]).toMatchObject({
      placeName: 'दिल्ली',
      alternateName: expect.stringContaining('Delhi'),
    })
    const latin = suggest({ query: 'dilli' })!
    expect(latin.lang).toBe('en')
    expect(latin.suggestedLocations[0]!.eLoc).toBe(hi.suggestedLocations[0]!.eLoc)
    // A place with a Latin name only, found by its Devanagari spelling.
    expect(names({ query: 'कोरमंगला' })).toContain('Koramangala')
  })

  it('finds places by PIN code', () => {
    const r = suggest({ query: '560034' })!
    expect(r.suggestedLocations.length).toBeGreaterThan(0)
    expect(r.suggestedLocations.every((s) => s.placeAddress.endsWith('560034'))).toBe(true)
  })

  it('answers null (HTTP 204) when nothing matches, and for a region the gazetteer does not cover', () => {
    expect(suggest({ query: 'qxzwv' })).toBeNull()
    expect(suggest({ query: 'paris', region: 'FRA' })).toBeNull()
  })
})

describe('autosuggest: ranking, filters and options', () => {
  it('ranks by distance to the location, more strongly with hyperLocal', () => {
    const far = first({ query: 'rampur' })
    const near = first({ query: 'rampur', location: '31.45,77.63', hyperLocal: true })
    expect(far.placeAddress).toMatch(/Uttar Pradesh/)
    expect(near.placeAddress).toMatch(/Himachal Pradesh/)
  })

  it('restricts the place type with pod', () => {
    const r = suggest({ query: 'bengaluru', pod: 'DIST' })!
    expect(r.suggestedLocations.map((s) => s.type)).toEqual(['DISTRICT'])
    expect(suggest({ query: 'civil lines', pod: 'STATE' })).toBeNull()
  })

  it('filters by PIN code, bounds (either corner order) and containing place', () => {
    const pin = suggest({ query: 'koramangala', filter: 'pin:560095' })!
    expect(pin.suggestedLocations.every((s) => s.placeAddress.endsWith('560095'))).toBe(true)
    const target = first({ query: 'koramangala' })
    const box = (f: string) =>
      suggest({ query: 'koramangala', filter: f })!.suggestedLocations.map((s) => s.eLoc)
    const [lat, lng] = [target.latitude, target.longitude]
    const inBox = box(`bounds:${lat - 0.02},${lng - 0.02};${lat + 0.02},${lng + 0.02}`)
    expect(inBox).toContain(target.eLoc)
    expect(inBox.length).toBeLessThan(names({ query: 'koramangala' }).length)
    expect(box(`bounds:${lat + 0.02},${lng + 0.02};${lat - 0.02},${lng - 0.02}`)).toEqual(inBox)
    const karnataka = first({ query: 'karnataka', pod: 'STATE' }).eLoc
    const inside = suggest({ query: 'nagar', filter: `cop:${karnataka}` })!.suggestedLocations
    expect(inside.length).toBeGreaterThan(0)
    expect(inside.every((s) => /Karnataka/.test(s.placeAddress))).toBe(true)
    expect(parseFilter('bounds:1,2;3,4')).toEqual({
      kind: 'bounds',
      minLat: 1,
      maxLat: 3,
      minLng: 2,
      maxLng: 4,
    })
  })

  it('adds address tokens with tokenizeAddress: district, city and state always, the PIN code when known', () => {
    const r = first({ query: 'koramangala', tokenizeAddress: true })
    expect(r.addressTokens).toMatchObject({
      locality: 'Koramangala',
      city: 'Bengaluru',
      district: 'Bengaluru',
      state: 'Karnataka',
      pincode: 560034,
    })
    expect(first({ query: 'karnataka', pod: 'STATE', tokenizeAddress: true }).addressTokens).toEqual({
      district: '',
      city: '',
      state: 'Karnataka',
    })
    expect(first({ query: 'koramangala' }).addressTokens).toBeUndefined()
  })

  it('adds near-searches with bridge, at the location or "me"', () => {
    const me = suggest({ query: 'atm', bridge: true })
    expect(me?.suggestedSearches[0]).toMatchObject({ keyword: 'atm', identifier: 'near', location: 'me' })
    const at = suggest({ query: 'koramangala', bridge: true, location: '12.93,77.62' })!
    expect(at.suggestedSearches[0]).toMatchObject({ identifier: 'near', location: '12.93,77.62' })
    expect(at.suggestedSearches[1]!.eLoc).toBe(at.suggestedLocations[0]!.eLoc)
  })

  it('numbers results in rank order and gives each a distinct eLoc', () => {
    const r = suggest({ query: 'ram' })!
    expect(r.suggestedLocations.map((s) => s.orderIndex)).toEqual(r.suggestedLocations.map((_, i) => i + 1))
    expect(new Set(r.suggestedLocations.map((s) => s.eLoc)).size).toBe(r.suggestedLocations.length)
    const scores = r.suggestedLocations.map((s) => s.score)
    expect([...scores].sort((a, b) => b - a)).toEqual(scores)
  })
})

describe('autosuggest: the analyst\u2019s saved places', () => {
  const saved: UserPlace[] = [
    {
      eLoc: 'AB12CD34',
      placeName: 'Client office Koramangala',
      placeAddress: '80 Ft Road, Bengaluru',
      latitude: 12.935,
      longitude: 77.624,
      type: 'POI',
      userName: 'analyst',
      created: '2026-01-01T00:00:00.000Z',
    },
  ]

  it('come back in userAddedLocation when the query matches them', () => {
    const r = suggest({ query: 'client off' }, saved)!
    expect(r.userAddedLocation).toEqual([
      expect.objectContaining({
        eLoc: 'AB12CD34',
        placeName: 'Client office Koramangala',
        resultType: 'UAP',
        orderIndex: 1,
      }),
    ])
    expect(suggest({ query: 'warehouse' }, saved)?.userAddedLocation ?? []).toEqual([])
  })

  it('work as cop: filters (places within 3 km)', () => {
    const target = first({ query: 'koramangala' })
    const near = [{ ...saved[0]!, latitude: target.latitude + 0.01, longitude: target.longitude }]
    const r = suggest({ query: 'koramangala', filter: 'cop:AB12CD34' }, near)!
    expect(r.suggestedLocations.map((s) => s.eLoc)).toContain(target.eLoc)
    const far = [{ ...saved[0]!, latitude: target.latitude + 1, longitude: target.longitude }]
    expect(
      suggest({ query: 'koramangala', filter: 'cop:AB12CD34' }, far)?.suggestedLocations ?? [],
    ).not.toContainEqual(expect.objectContaining({ eLoc: target.eLoc }))
  })
})
