import { describe, expect, it } from 'vitest'
import { devicesResponseSchema, validateDevices } from '../../../../electron/contract/telematics/devices'

describe('devices (§4.7, §2.6)', () => {
  it('types query values given as text', () => {
    expect(validateDevices({ id: '12', includeInActive: 'TRUE', state: '1700000000' })).toEqual({
      ok: true,
      value: { id: 12, includeInActive: true, state: 1700000000 },
    })
    const r = validateDevices({ id: '1.5', ignoreBeacon: 'maybe' })
    expect(r.ok ? [] : r.issues.map((i) => i.field)).toEqual(['id', 'ignoreBeacon'])
  })
  it('parses a response tolerantly: data absent is empty; one object becomes a list', () => {
    expect(devicesResponseSchema.parse({})).toEqual({ data: [] })
    expect(devicesResponseSchema.parse({ data: { id: '3', active: 'false' } }).data).toMatchObject([
      { id: 3, active: false },
    ])
  })
})
