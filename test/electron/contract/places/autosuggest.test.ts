import { describe, expect, it } from 'vitest'
import {
  autosuggestResponseSchema,
  isAutosuggestFilter,
  validateAutosuggest,
} from '../../../../electron/contract/places/autosuggest'
import { validateStandardize } from '../../../../electron/contract/places/standardize'

describe('places validators (§4.1, §4.2)', () => {
  it('knows the three filter forms', () => {
    for (const good of ['pin:110001', 'bounds:28.5,77.1;28.7,77.3', 'cop:MMI000', 'cop:ABCD1234'])
      expect(isAutosuggestFilter(good)).toBe(true)
    for (const bad of ['pin:11', 'bounds:95,77;28,77', 'cop:x', 'near:me', 'bounds:1,2'])
      expect(isAutosuggestFilter(bad)).toBe(false)
  })
  it('requires query; hyperLocal only with location; flags accept a bare presence', () => {
    expect(validateAutosuggest({}).ok).toBe(false)
    expect(validateAutosuggest({ query: 'x', hyperLocal: '', location: '28.6,77.2' })).toEqual({
      ok: true,
      value: { query: 'x', hyperLocal: true, location: '28.6,77.2' },
    })
    const r = validateAutosuggest({ query: 'x', hyperLocal: 'true' })
    expect(r.ok ? null : r.issues[0]).toMatchObject({ field: 'location', kind: 'missing' })
    expect(validateAutosuggest({ query: 'x', location: '91,10' }).ok).toBe(false)
  })
  it('standardize needs an address and a numeric bias', () => {
    expect(
      validateStandardize({ bias: 'urban' }).ok
        ? null
        : (validateStandardize({ bias: 'urban' }) as { issues: { field: string }[] }).issues.map(
            (i) => i.field,
          ),
    ).toEqual(['bias', 'address'])
  })
  it('keeps RESTRICTED and reads Hindi', () => {
    const r = autosuggestResponseSchema.parse({
      suggestedLocations: [{ latitude: 'RESTRICTED', longitude: '77.5' }],
      lang: 'hi',
    })
    expect(r.suggestedLocations[0]).toMatchObject({
      latitude: 'RESTRICTED',
      longitude: 77.5,
      entryLatitude: null,
    })
    expect(r.lang).toBe('hi')
    expect(autosuggestResponseSchema.parse({}).lang).toBe('en')
  })
})
