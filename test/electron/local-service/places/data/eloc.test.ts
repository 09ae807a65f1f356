import { describe, expect, it } from 'vitest'
import {
  assignElocs,
  elocCode,
  isGazetteerEloc,
  placeKey,
  type PlaceIdentity,
} from '../../../../../electron/local-service/places/data/eloc'
import { shippedGazetteer } from '../support'

describe('eLocs', () => {
  it('are six characters derived from the key alone', () => {
    const code = elocCode('GN|1277333')
    expect(code).toMatch(/^[0-9A-HJ-NP-Z]{6}$/)
    expect(isGazetteerEloc(code)).toBe(true)
    expect(elocCode('GN|1277333')).toBe(code)
    expect(elocCode('GN|1277334')).not.toBe(code)
  })

  it('do not depend on the order the places come in', () => {
    const keys = Array.from({ length: 2000 }, (_, i) => `PO|${110000 + i}|place ${i}`)
    const a = assignElocs(keys)
    const b = assignElocs([...keys].reverse())
    expect([...a].sort()).toEqual([...b].sort())
    expect(new Set(a.values()).size).toBe(keys.length)
  })

  it('settle a collision deterministically: the key sorting first keeps its code', () => {
    const collide = (key: string) => (key.includes('#') ? elocCode(key) : 'AAAAAA')
    const one = assignElocs(['b', 'a', 'c'], collide)
    const two = assignElocs(['c', 'b', 'a'], collide)
    expect(one.get('a')).toBe('AAAAAA')
    expect(one.get('b')).toBe(elocCode('b#1'))
    expect(one).toEqual(two)
    expect(new Set(one.values()).size).toBe(3)
  })

  it('refuse a key given twice', () => {
    expect(() => assignElocs(['a', 'a'])).toThrow(/duplicate/)
  })
})

describe('eLocs of the places of the sources', () => {
  /**
   * Codes the gazetteer has given since it was first built, which analysts may have saved (My places,
   * routing positions, projects): they are written out here on purpose, so that a change to how a place's
   * identity is read from the sources, how names are folded or how codes are hashed cannot rename them.
   */
  const GIVEN: Array<[PlaceIdentity, string, string, string]> = [
    [{ source: 'geonames', id: 1269515 }, 'CITY', 'Jaipur', 'BZBVSL'],
    [{ source: 'district', admin1: '24', district: 'Jaipur' }, 'DIST', 'Jaipur', 'LC49KC'],
    [
      { source: 'subDistrict', admin1: '24', district: 'Jaipur', subDistrict: 'Jaipur' },
      'SDIST',
      'Jaipur',
      'P710QE',
    ],
    [{ source: 'state', admin1: '24' }, 'STATE', 'Rajasthan', 'HGC3VY'],
    [{ source: 'postOffice', pin: 560034, name: 'Koramangala' }, 'LC', 'Koramangala', 'MS2LF0'],
  ]

  it('keep the codes they were given, and the shipped gazetteer finds each place by its code', async () => {
    const g = await shippedGazetteer()
    for (const [identity, kind, name, code] of GIVEN) {
      expect(elocCode(placeKey(identity)), name).toBe(code)
      const row = g.byEloc(code.toLowerCase())
      expect([g.kindOf(row), g.name(row), g.eloc(row)]).toEqual([kind, name, code])
    }
  })

  it('are the same for a post office written with its office suffix or a qualifier in brackets', () => {
    const key = placeKey({ source: 'postOffice', pin: 110092, name: 'Laxmi Nagar' })
    for (const name of [
      'Laxmi Nagar S.O',
      'Laxmi Nagar (East Delhi)',
      'LAXMI NAGAR  SO',
      'Laxmi Nagar (East Delhi) S.O',
    ])
      expect(placeKey({ source: 'postOffice', pin: 110092, name }), name).toBe(key)
    expect(placeKey({ source: 'postOffice', pin: 110091, name: 'Laxmi Nagar' })).not.toBe(key)
    expect(placeKey({ source: 'district', admin1: '07', district: 'East  Delhi' })).toBe(
      placeKey({ source: 'district', admin1: '07', district: 'east delhi' }),
    )
  })
})
