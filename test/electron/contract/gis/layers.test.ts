import { describe, expect, it } from 'vitest'
import { parseLayerList } from '../../../../electron/contract/gis/layers'

describe('parseLayerList (§2.5)', () => {
  it('accepts data as one object, an array, or absent', () => {
    expect(parseLayerList({ data: { layername: 'a' } })).toEqual({
      ok: true,
      value: { layers: [{ layername: 'a' }] },
    })
    expect(parseLayerList({ success: 'false', data: [] })).toEqual({
      ok: true,
      value: { success: false, layers: [] },
    })
    expect(parseLayerList({})).toEqual({ ok: true, value: { layers: [] } })
  })
  it('keeps extras when well formed and drops malformed ones, never NaN', () => {
    const r = parseLayerList({
      data: [{ layername: 'a', featureCount: 'many', extent: [1, 2, 3], fields: [{ n: 1 }] }],
    })
    expect(r).toEqual({ ok: true, value: { layers: [{ layername: 'a', fields: [{ n: 1 }] }] } })
  })
  it('names what is wrong', () => {
    expect(parseLayerList([1])).toEqual({ ok: false, reason: 'the response is not a JSON object' })
    expect(parseLayerList({ data: [{ layername: '' }] })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/data\[0\]: layername/),
    })
  })
})
