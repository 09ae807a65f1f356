import { describe, expect, it } from 'vitest'
import {
  editDistance,
  normalize,
  phoneticKey,
  romanize,
  tokens,
} from '../../../../../electron/local-service/places/engine/normalize'

describe('normalize', () => {
  it('folds case and diacritics, drops dots and apostrophes, turns & into and', () => {
    expect(normalize('Karol Bāgh')).toBe('karol bagh')
    expect(normalize("St. John's Medical College")).toBe('st johns medical college')
    expect(normalize('Andaman & Nicobar')).toBe('andaman and nicobar')
    expect(tokens('  B-204, Gokul Dham ')).toEqual(['b', '204', 'gokul', 'dham'])
  })

  it('keeps Devanagari letters and drops the nukta', () => {
    expect(normalize('नई दिल्ली')).toBe('नई दिल्ली')
    expect(normalize('ज़िला')).toBe(normalize('जिला'))
  })
})

describe('romanize', () => {
  it('writes Devanagari in plain Latin letters, dropping the final schwa', () => {
    expect(romanize('दिल्ली')).toBe('dilli')
    expect(romanize('मुंबई')).toBe('mumbai')
    expect(romanize('राम')).toBe('ram')
    expect(romanize('कर्नाटक')).toBe('karnatak')
    expect(romanize('बिहार')).toBe('bihar')
  })
})

describe('phoneticKey', () => {
  it('gives common spelling variants the same key', () => {
    expect(phoneticKey('delhi')).toBe(phoneticKey('dilli'))
    expect(phoneticKey('chennai')).toBe(phoneticKey('chenai'))
    expect(phoneticKey('karnataka')).toBe(phoneticKey(romanize('कर्नाटक')))
    expect(phoneticKey('mumbai')).not.toBe(phoneticKey('mysuru'))
  })
})

describe('editDistance', () => {
  it('counts edits up to a bound, a transposition as one', () => {
    expect(editDistance('koramangla', 'koramangala', 2)).toBe(1)
    expect(editDistance('hydrabad', 'hyderabad', 2)).toBe(1)
    expect(editDistance('banglaore', 'bangalore', 2)).toBe(1)
    expect(editDistance('pune', 'agra', 1)).toBe(2)
  })

  it('compares with the start of a longer word when told how much of it', () => {
    expect(editDistance('bengalur', 'bengaluru', 1, 8)).toBe(0)
    expect(editDistance('bangalr', 'bangalore', 1, 7)).toBe(1)
  })
})
