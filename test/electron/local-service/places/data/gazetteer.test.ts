import { describe, expect, it } from 'vitest'
import {
  buildColumns,
  encodeGazetteer,
  Gazetteer,
  type PlaceRow,
} from '../../../../../electron/local-service/places/data/gazetteer'
import { shippedGazetteer } from '../support'

const row = (over: Partial<PlaceRow>): PlaceRow => ({
  kind: 'LC',
  name: 'x',
  hi: '',
  alts: [],
  lat: 12.9,
  lon: 77.6,
  state: 0,
  district: 1,
  subDistrict: -1,
  city: 2,
  pin: 0,
  population: 0,
  importance: 0.3,
  eloc: 'AAAAAA',
  ...over,
})

const rows: PlaceRow[] = [
  row({
    kind: 'STATE',
    name: 'Karnataka',
    hi: 'कर्नाटक',
    importance: 0.95,
    state: -1,
    district: -1,
    city: -1,
    eloc: 'STATE1',
  }),
  row({ kind: 'DIST', name: 'Bengaluru', importance: 0.7, district: -1, city: -1, eloc: 'DIST01' }),
  row({
    kind: 'CITY',
    name: 'Bengaluru',
    alts: ['Bangalore'],
    importance: 0.94,
    pin: 560001,
    city: -1,
    eloc: 'CITY01',
  }),
  row({ kind: 'LC', name: 'Koramangala', pin: 560034, eloc: 'LOC001' }),
  row({ kind: 'SLC', name: 'Koramangala I Block', pin: 560034, importance: 0.27, eloc: 'LOC002' }),
]

describe('gazetteer file', () => {
  it('round-trips rows and answers the index lookups', () => {
    const g = Gazetteer.fromBytes(encodeGazetteer(rows, { test: true }))
    expect(g.size).toBe(5)
    expect(g.meta).toEqual({ test: true })
    expect(g.name(3)).toBe('Koramangala')
    expect(g.kindOf(2)).toBe('CITY')
    expect(g.latitude(3)).toBeCloseTo(12.9, 5)
    expect(g.alts(2)).toEqual(['Bangalore'])
    expect(g.hindi(0)).toBe('कर्नाटक')
    expect(g.byEloc('loc001')).toBe(3)
    expect(g.byEloc('ZZZZZZ')).toBe(-1)
    // Postings ordered by importance: the city before the district.
    expect([...g.postingsOf(g.tokenId('bengaluru'))]).toEqual([2, 1])
    expect([...g.rowsNamed('bangalore')]).toEqual([2])
    expect([...g.rowsNamed('karnatak')]).toEqual([0])
    expect([...g.rowsWithPin(560034)]).toEqual([3, 4])
    expect([...g.rowsWithPin(110001)]).toEqual([])
    const [from, to] = g.tokenRange('kora')
    expect(g.tokens.slice(from, to)).toEqual(['koramangala', 'koramangala i block'])
    expect([...g.topForPrefix('b')].slice(0, 2)).toEqual([2, 1])
  })

  it('is deterministic: the same rows give the same bytes', () => {
    expect(Buffer.from(buildColumns(rows, {})).equals(Buffer.from(buildColumns(rows, {})))).toBe(true)
  })

  it('refuses a file that is not a gazetteer', () => {
    expect(() => Gazetteer.fromBytes(new Uint8Array([1, 2, 3, 4]))).toThrow()
  })
})

describe('the shipped gazetteer', () => {
  it('covers India: every state, hundreds of districts, thousands of cities, the PIN codes', async () => {
    const g = await shippedGazetteer()
    const counts = g.meta.counts as Record<string, number>
    expect(counts.STATE).toBeGreaterThanOrEqual(36)
    expect(counts.DIST).toBeGreaterThan(600)
    expect(counts.CITY).toBeGreaterThan(3000)
    expect(g.pinCodes.length).toBeGreaterThan(19000)
    expect(g.meta.attribution).toMatch(/GeoNames/)
  })

  it('gives every place a distinct six-character eLoc', async () => {
    const g = await shippedGazetteer()
    expect(new Set(g.elocs).size).toBe(g.size)
    expect(g.elocs.every((e) => /^[0-9A-HJ-NP-Z]{6}$/.test(e))).toBe(true)
  })

  it('knows the variants and Hindi names of major places', async () => {
    const g = await shippedGazetteer()
    const city = (key: string) => [...g.rowsNamed(key)].find((r) => g.kindOf(r) === 'CITY')
    expect(city('bangalore')).toBe(city('bengaluru'))
    expect(g.name(city('gurgaon')!)).toBe('Gurugram')
    expect(g.name(city('bombay')!)).toBe('Mumbai')
    expect(g.hindi(city('delhi')!)).toBe('दिल्ली')
    expect(g.name(g.state[city('leh')!]!)).toBe('Ladakh')
  })
})
