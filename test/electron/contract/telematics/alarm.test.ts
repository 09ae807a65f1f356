import { describe, expect, it } from 'vitest'
import {
  ALARM_TYPE_IDS,
  alarmFormFields,
  validateAlarm,
} from '../../../../electron/contract/telematics/alarm'

const ok = (body: Record<string, unknown>) => validateAlarm(body).ok
const fieldsOf = (body: Record<string, unknown>) => {
  const r = validateAlarm(body)
  return r.ok ? [] : r.issues.map((i) => `${i.field}:${i.kind}`)
}

describe('validateAlarm (§4.8, §2.8)', () => {
  it('knows the §2.8 ids and refuses 25 (AC is only an alarm state)', () => {
    expect(ALARM_TYPE_IDS).toEqual([21, 22, 23, 24, 26, 27, 28, 29, 126, 129, 133, 146, 151, 161])
    expect(fieldsOf({ alarmType: 25, deviceId: [1] })).toEqual(['alarmType:invalid'])
  })

  it('asks for duration, limit, geofenceId and type exactly where the spec does', () => {
    expect(ok({ alarmType: 22, deviceId: [1], duration: 10, limit: 80 })).toBe(true)
    expect(fieldsOf({ alarmType: 22, deviceId: [1] })).toEqual(['duration:missing', 'limit:missing'])
    expect(fieldsOf({ alarmType: 27, deviceId: [1] })).toEqual(['duration:missing'])
    expect(fieldsOf({ alarmType: 133, deviceId: [1], limit: 300 })).toEqual(['type:missing'])
    expect(ok({ alarmType: 133, deviceId: [1], limit: 300, type: 1 })).toBe(true)
    expect(fieldsOf({ alarmType: 151, deviceId: [1], limit: 5, duration: 60, type: 3 })).toEqual([
      'type:invalid',
    ])
    expect(ok({ alarmType: 26, deviceId: '4,5', type: '4', geofenceId: 9 })).toBe(true)
    expect(fieldsOf({ alarmType: 21, deviceId: [1], type: 5, duration: 3 })).toEqual(['duration:conflict'])
    expect(fieldsOf({ alarmType: 23, deviceId: [1], type: 1 })).toEqual(['type:conflict'])
    expect(fieldsOf({ alarmType: 23, deviceId: [1], limit: 1 })).toEqual(['limit:conflict'])
    expect(fieldsOf({ deviceId: [1] })).toEqual(['alarmType:missing'])
    expect(fieldsOf({ alarmType: 23, deviceId: [1], speed: 3 })).toEqual(['speed:invalid'])
  })

  it('types text input and renders form fields', () => {
    const r = validateAlarm({
      alarmType: '26',
      deviceId: '4, 5',
      type: '2',
      geofenceId: ['7', 8],
      severity: '1',
    })
    expect(r).toEqual({
      ok: true,
      value: { alarmType: 26, deviceId: [4, 5], type: 2, geofenceId: [7, 8], severity: 1 },
    })
    if (r.ok) {
      expect(alarmFormFields(r.value)).toEqual([
        ['alarmType', '26'],
        ['deviceId', '4,5'],
        ['type', '2'],
        ['geofenceId', '7,8'],
        ['severity', '1'],
      ])
    }
  })
})
