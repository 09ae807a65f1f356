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

/** The alarm types as a person reads them (the composer's options, the alerts feed). */
export const ALARM_TYPE_LABELS: Readonly<Record<number, string>> = {
  21: 'Ignition',
  22: 'Overspeed',
  23: 'Unplugged',
  24: 'Panic',
  25: 'AC',
  26: 'Geofence',
  27: 'Stoppage',
  28: 'Idle',
  29: 'Towing',
  126: 'GPRS connectivity',
  129: 'Vehicle battery',
  133: 'Mileage',
  146: 'GPS connectivity',
  151: 'Distance covered',
  161: 'Internal battery voltage',
}

/** §4.8: which alarm types need `duration`, `limit`, `geofenceId`, and the `type` values each allows. */
export const DURATION_REQUIRED: readonly number[] = [22, 27, 28, 29, 126, 129, 146, 151, 161]
export const LIMIT_REQUIRED: readonly number[] = [22, 129, 133, 151, 161]
export const TYPE_VALUES: Readonly<Record<number, readonly number[]>> = {
  26: [1, 2, 3, 4],
  21: [1, 2, 3, 5],
  133: [0, 1],
  151: [1, 2],
}

/** What each `type` value means, per alarm type (§4.8). */
export const TYPE_LABELS: Readonly<Record<number, Readonly<Record<number, string>>>> = {
  26: { 1: 'Entry and exit', 2: 'Entry', 3: 'Exit', 4: 'Long stay' },
  21: { 1: 'On and off', 2: 'On', 3: 'Off', 5: 'First ignition on of the day' },
  133: { 0: 'Daily', 1: 'Monthly' },
  151: { 1: 'At least', 2: 'At most' },
}

/**
 * Units of `limit` per alarm type: km/h for overspeed, km for mileage and distance covered, millivolts for
 * the batteries (a vehicle battery alarm at 11.5 V is `limit: 11500`). `duration` is in seconds.
 */
export const LIMIT_UNITS: Readonly<Record<number, string>> = {
  22: 'km/h',
  129: 'mV',
  133: 'km',
  151: 'km',
  161: 'mV',
}

/**
 * Geofence long stay (26 with type 4) takes an optional `duration`: seconds inside a geofence before it
 * counts as a long stay (a local choice; the spec names no threshold). Without it, one hour.
 */
export const LONG_STAY_DEFAULT_SECONDS = 3600

/** The fields an alarm type uses: what the composer shows and the validator asks for. */
export interface AlarmFieldRules {
  duration: 'required' | 'optional' | 'unused'
  limit: 'required' | 'unused'
  /** The allowed `type` values, or null when the alarm type takes no `type`. */
  type: readonly number[] | null
  geofenceId: 'required' | 'unused'
}

/** The §4.8 rules of one alarm type; `type` decides the optional duration of a geofence long stay. */
export function alarmFieldRules(alarmType: number, type?: number): AlarmFieldRules {
  const longStay = alarmType === ALARM_TYPES.GEOFENCE && type === 4
  return {
    duration: DURATION_REQUIRED.includes(alarmType) ? 'required' : longStay ? 'optional' : 'unused',
    limit: LIMIT_REQUIRED.includes(alarmType) ? 'required' : 'unused',
    type: TYPE_VALUES[alarmType] ?? null,
    geofenceId: alarmType === ALARM_TYPES.GEOFENCE ? 'required' : 'unused',
  }
}

/** What exists where the alarm is checked: a service knows its geofences, the app its geofence layer. */
export interface AlarmContext {
  /** Geofence ids that exist; when given, `geofenceId` must name only these. */
  geofenceIds?: Iterable<number>
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
export function validateAlarm(
  input: Readonly<Record<string, unknown>>,
  context: AlarmContext = {},
): Checked<AlarmBody> {
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
    const rules = alarmFieldRules(type, out.type)
    if (rules.duration === 'required' && !present('duration')) {
      issues.push(issue('duration', 'missing', `is required for alarm type ${name}`))
    }
    if (rules.duration === 'unused' && present('duration')) {
      issues.push(
        issue(
          'duration',
          'conflict',
          type === ALARM_TYPES.GEOFENCE
            ? 'is used by alarm type GEOFENCE (26) only with type 4 (long stay)'
            : `is not used by alarm type ${name}`,
        ),
      )
    }
    if (rules.limit === 'required' && !present('limit')) {
      issues.push(issue('limit', 'missing', `is required for alarm type ${name} (${LIMIT_UNITS[type]})`))
    }
    if (rules.limit === 'unused' && present('limit')) {
      issues.push(issue('limit', 'conflict', `is not used by alarm type ${name}`))
    }
    if (rules.geofenceId === 'required' && !present('geofenceId')) {
      issues.push(issue('geofenceId', 'missing', 'is required for alarm type GEOFENCE (26)'))
    }
    if (rules.geofenceId === 'unused' && present('geofenceId')) {
      issues.push(issue('geofenceId', 'conflict', `is used only by alarm type GEOFENCE (26), not ${name}`))
    }
    const allowed = rules.type
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
    if (rules.geofenceId === 'required' && out.geofenceId && context.geofenceIds) {
      const known = new Set(context.geofenceIds)
      const unknown = out.geofenceId.filter((id) => !known.has(id))
      if (unknown.length > 0) {
        const list = [...known].sort((a, b) => a - b)
        const shown = list.length > 12 ? `${list.slice(0, 12).join(', ')}, …` : list.join(', ')
        issues.push(
          issue(
            'geofenceId',
            'invalid',
            `names no geofence of the geofence layer: ${unknown.join(', ')}${list.length ? ` (known: ${shown})` : ' (the geofence layer has none)'}`,
          ),
        )
      }
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
