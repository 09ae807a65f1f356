import { describe, expect, it } from 'vitest'
import {
  assignElocs,
  elocCode,
  isGazetteerEloc,
} from '../../../../../electron/local-service/places/data/eloc'

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
