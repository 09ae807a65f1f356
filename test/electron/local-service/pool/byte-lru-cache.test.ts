import { describe, expect, it } from 'vitest'
import { ByteLruCache } from '../../../../electron/local-service/pool/byte-lru-cache'

describe('ByteLruCache', () => {
  it('evicts the least recently used entries past its byte budget, releasing each', () => {
    const released: string[] = []
    const cache = new ByteLruCache<string, string>(100, (value) => released.push(value))
    cache.set('a', 'A', 40)
    cache.set('b', 'B', 40)
    expect(cache.get('a')).toBe('A') // a is now the most recently used
    cache.set('c', 'C', 40)
    expect(released).toEqual(['B'])
    expect(cache.get('b')).toBeUndefined()
    expect(cache.bytes).toBe(80)
    expect(cache.size).toBe(2)
  })

  it('keeps nothing larger than the whole budget, and replacing an entry releases the old value', () => {
    const released: string[] = []
    const cache = new ByteLruCache<string, string>(100, (value) => released.push(value))
    expect(cache.set('huge', 'H', 101)).toBe(false)
    expect(cache.size).toBe(0)
    cache.set('a', 'A1', 10)
    cache.set('a', 'A2', 20)
    expect(released).toEqual(['A1'])
    expect(cache.bytes).toBe(20)
    cache.clear()
    expect(released).toEqual(['A1', 'A2'])
    expect(cache.bytes).toBe(0)
  })
})
