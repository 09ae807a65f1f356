import { issue, toInteger, type Checked, type RequestIssue } from '../common/issues'

/** §2.8 alarm type ids that can be configured (25, AC, appears only as an alarm state). */
export const ALARM_TYPES = {
  IGNITION: 21,
  OVERSPEED: 22,
  UNPLUGGED: 23,
  PANIC: 24,
  GEOFENCE: 26,
  STOPPAGE: 27,
  IDLE: 28,
  TOWING: 29,
  GPRS_CONNECTIVITY: 126,
  VEHICLE_BATTERY: 129,
  MILEAGE: 133,
  GPS_CONNECTIVITY: 146,
  DISTANCE_COVERED: 151,
  INTERNAL_BATTERY_VOLTAGE: 161,
} as const

export const ALARM_TYPE_IDS: readonly number[] = Object.values(ALARM_TYPES)
const NAME_BY_ID = new Map<number, string>(Object.entries(ALARM_TYPES).map(([k, v]) => [v, k]))

/** §4.8: which alarm types need `duration`, `limit`, `geofenceId`, and the `type` values each allows. */
export const DURATION_REQUIRED: readonly number[] = [22, 27, 28, 29, 126, 129, 146, 151, 161]
export const LIMIT_REQUIRED: readonly number[] = [22, 129, 133, 151, 161]
export const TYPE_VALUES: Readonly<Record<number, readonly number[]>> = {
  26: [1, 2, 3, 4],
  21: [1, 2, 3, 5],
  133: [0, 1],
  151: [1, 2],
}

export interface AlarmBody {
  alarmType: number
  deviceId: number[]
  type?: number
  duration?: number
  limit?: number
  geofenceId?: number[]
  severity?: 0 | 1
}

export const ALARM_FIELDS = [
  'alarmType',
  'deviceId',
  'type',
  'duration',
  'limit',
  'geofenceId',
  'severity',
] as const

/** One id or several: a number, a numeric text, "1,2" text, or an array of those. */
function idList(value: unknown): number[] | undefined {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value]
  const ids = items.map((v) => toInteger(typeof v === 'string' ? v.trim() : v))
  return ids.length > 0 && ids.every((n) => n !== undefined && n >= 0) ? (ids as number[]) : undefined
}

const alarmName = (id: number) => `${NAME_BY_ID.get(id) ?? id} (${id})`

/**
 * Validate an alarm configuration (§4.8) against the per-type rules. Accepts typed values or their
 * text (from a form or the command line). Returns the typed body or every issue with its field.
 */
export function validateAlarm(input: Readonly<Record<string, unknown>>): Checked<AlarmBody> {
  const issues: RequestIssue[] = []
  const out: Partial<AlarmBody> = {}
  const present = (k: string) => input[k] !== undefined && input[k] !== null && input[k] !== ''
  for (const key of Object.keys(input)) {
    if (!(ALARM_FIELDS as readonly string[]).includes(key) && present(key)) {
      issues.push(issue(key, 'invalid', `is not a field of the alarm; known: ${ALARM_FIELDS.join(', ')}`))
    }
  }
  if (!present('alarmType')) issues.push(issue('alarmType', 'missing', 'is required'))
  else {
    const t = toInteger(input.alarmType)
    if (t === undefined || !ALARM_TYPE_IDS.includes(t)) {
      issues.push(issue('alarmType', 'invalid', `must be one of the §2.8 ids: ${ALARM_TYPE_IDS.join(', ')}`))
    } else out.alarmType = t
  }
  if (!present('deviceId')) issues.push(issue('deviceId', 'missing', 'is required: one or more device ids'))
  else {
    const ids = idList(input.deviceId)
    if (!ids)
      issues.push(issue('deviceId', 'invalid', 'must be one or more device ids (non-negative integers)'))
    else out.deviceId = ids
  }
  for (const name of ['duration', 'limit'] as const) {
    if (!present(name)) continue
    const n = toInteger(input[name])
    if (n === undefined || n < 0) issues.push(issue(name, 'invalid', 'must be a non-negative integer'))
    else out[name] = n
  }
  if (present('type')) {
    const n = toInteger(input.type)
    if (n === undefined) issues.push(issue('type', 'invalid', 'must be an integer'))
    else out.type = n
  }
  if (present('severity')) {
    const n = toInteger(input.severity)
    if (n !== 0 && n !== 1) issues.push(issue('severity', 'invalid', 'must be 0 (normal) or 1 (high)'))
    else out.severity = n
  }
  if (present('geofenceId')) {
    const ids = idList(input.geofenceId)
    if (!ids)
      issues.push(issue('geofenceId', 'invalid', 'must be one or more geofence ids (non-negative integers)'))
    else out.geofenceId = ids
  }
  const type = out.alarmType
  if (type !== undefined) {
    const name = alarmName(type)
    if (DURATION_REQUIRED.includes(type) && !present('duration')) {
      issues.push(issue('duration', 'missing', `is required for alarm type ${name}`))
    }
    if (!DURATION_REQUIRED.includes(type) && present('duration')) {
      issues.push(issue('duration', 'conflict', `is not used by alarm type ${name}`))
    }
    if (LIMIT_REQUIRED.includes(type) && !present('limit')) {
      issues.push(issue('limit', 'missing', `is required for alarm type ${name}`))
    }
    if (!LIMIT_REQUIRED.includes(type) && present('limit')) {
      issues.push(issue('limit', 'conflict', `is not used by alarm type ${name}`))
    }
    if (type === ALARM_TYPES.GEOFENCE && !present('geofenceId')) {
      issues.push(issue('geofenceId', 'missing', 'is required for alarm type GEOFENCE (26)'))
    }
    if (type !== ALARM_TYPES.GEOFENCE && present('geofenceId')) {
      issues.push(issue('geofenceId', 'conflict', `is used only by alarm type GEOFENCE (26), not ${name}`))
    }
    const allowed = TYPE_VALUES[type]
    if (allowed) {
      if (!present('type'))
        issues.push(
          issue('type', 'missing', `is required for alarm type ${name}: one of ${allowed.join(', ')}`),
        )
      else if (out.type !== undefined && !allowed.includes(out.type)) {
        issues.push(issue('type', 'invalid', `must be one of ${allowed.join(', ')} for alarm type ${name}`))
      }
    } else if (present('type')) {
      issues.push(issue('type', 'conflict', `is not used by alarm type ${name}`))
    }
  }
  return issues.length ? { ok: false, issues } : { ok: true, value: out as AlarmBody }
}

/** The alarm body as form fields: arrays as repeated comma-joined values. */
export function alarmFormFields(body: AlarmBody): Array<[string, string]> {
  const out: Array<[string, string]> = []
  for (const key of ALARM_FIELDS) {
    const v = body[key]
    if (v === undefined) continue
    out.push([key, Array.isArray(v) ? v.join(',') : String(v)])
  }
  return out
}
