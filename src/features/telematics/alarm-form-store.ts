import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { GeoError } from '@contract/index'
import { ALARM_TYPES, alarmFieldRules, validateAlarm, type AlarmFieldRules } from '@contract/telematics/alarm'
import type { AlarmConfiguration, AlarmRequest } from '@contract/telematics/fleet'
import { geo } from '../../bridge'
import { useFleetStore } from './fleet-store'

/** One inline error: the §4.8 field and the rule it breaks, in the shared validator's words. */
export interface AlarmIssue {
  field: string
  rule: string
}

/** What came of the last "Create alarm". */
export type AlarmOutcome =
  | { kind: 'created'; configuration: AlarmConfiguration | null; reconciled: boolean; replayed: boolean }
  | { kind: 'unknown'; message: string; checked: 'not-found' | 'unsupported' | null }
  | { kind: 'failed'; error: GeoError }

function newKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `alarm-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`
}

/**
 * The alarm composer's form (§4.8). Which fields show and which are required come from the contract's
 * `alarmFieldRules`; every error from `validateAlarm`, the validator the client and the local service use.
 * Creating sends an Idempotency-Key: an outcome that is unknown keeps the key, is checked against the list
 * of configurations, and is only sent again on request — with the same key, so it cannot create two.
 */
export const useAlarmFormStore = defineStore('fleet-alarm-form', () => {
  const alarmType = ref<number>(ALARM_TYPES.OVERSPEED)
  const type = ref('')
  const duration = ref('')
  const limit = ref('')
  const severity = ref<'0' | '1'>('0')
  const deviceIds = ref<number[]>([])
  const geofenceIds = ref<number[]>([])
  const dirty = ref(false)
  /** The map: drawing a polygon picks the devices inside it; clicking a geofence toggles it. */
  const drawing = ref(false)
  const pickingGeofences = ref(false)

  const creating = ref(false)
  const outcome = ref<AlarmOutcome | null>(null)
  /** The key of the request whose outcome is unknown (or of the next request). */
  let key: { identity: string; value: string } | null = null

  const fleet = useFleetStore()

  const rules = computed<AlarmFieldRules>(() => {
    const t = type.value.trim() === '' ? undefined : Number(type.value)
    return alarmFieldRules(alarmType.value, t)
  })

  /** The request's fields: only those the alarm type uses, as the form holds them. */
  const fields = computed<Record<string, string | number | number[]>>(() => {
    const r = rules.value
    const f: Record<string, string | number | number[]> = { alarmType: alarmType.value }
    if (deviceIds.value.length) f['deviceId'] = [...deviceIds.value]
    if (r.type && type.value !== '') f['type'] = type.value
    if (r.duration !== 'unused' && duration.value.trim() !== '') f['duration'] = duration.value.trim()
    if (r.limit !== 'unused' && limit.value.trim() !== '') f['limit'] = limit.value.trim()
    if (r.geofenceId !== 'unused' && geofenceIds.value.length) f['geofenceId'] = [...geofenceIds.value]
    f['severity'] = severity.value
    return f
  })

  const knownGeofences = computed(() => fleet.geofences?.features.map((g) => g.id))

  const issues = computed<AlarmIssue[]>(() => {
    const known = knownGeofences.value
    const checked = validateAlarm(fields.value, known ? { geofenceIds: known } : {})
    return checked.ok ? [] : checked.issues.map((i) => ({ field: i.field, rule: i.rule }))
  })
  const issuesByField = computed(() => {
    const map = new Map<string, string[]>()
    for (const i of issues.value) map.set(i.field, [...(map.get(i.field) ?? []), i.rule])
    return map
  })
  const valid = computed(() => issues.value.length === 0)

  function touch(): void {
    dirty.value = true
  }

  function setAlarmType(next: number): void {
    alarmType.value = next
    const allowed = alarmFieldRules(next).type
    if (!allowed) type.value = ''
    else if (!allowed.includes(Number(type.value))) type.value = String(allowed[0])
    if (next !== ALARM_TYPES.GEOFENCE) pickingGeofences.value = false
    outcome.value = null
    touch()
  }

  function addDevices(ids: Iterable<number>): void {
    deviceIds.value = [...new Set([...deviceIds.value, ...ids])].sort((a, b) => a - b)
    touch()
  }
  function removeDevice(id: number): void {
    deviceIds.value = deviceIds.value.filter((d) => d !== id)
    touch()
  }
  function clearDevices(): void {
    deviceIds.value = []
    touch()
  }
  function toggleGeofence(id: number): void {
    geofenceIds.value = geofenceIds.value.includes(id)
      ? geofenceIds.value.filter((g) => g !== id)
      : [...geofenceIds.value, id].sort((a, b) => a - b)
    touch()
  }

  /** The request as sent (a plain copy of the fields, the key, and `confirm` for a resend). */
  function request(confirm: boolean): AlarmRequest {
    const identity = JSON.stringify(fields.value)
    if (!key || key.identity !== identity) key = { identity, value: newKey() }
    return {
      fields: JSON.parse(identity) as AlarmRequest['fields'],
      idempotencyKey: key.value,
      ...(confirm ? { confirm: true } : {}),
    }
  }

  async function send(confirm: boolean): Promise<void> {
    touch()
    if (!valid.value || creating.value) return
    creating.value = true
    try {
      const result = await geo['telematics.createAlarm'](request(confirm))
      if (result.ok) {
        key = null
        outcome.value = {
          kind: 'created',
          configuration: result.value.configuration,
          reconciled: result.value.reconciled === 'found',
          replayed: result.value.replayed === true,
        }
      } else if (result.error.failureClass === 'unknown-outcome') {
        outcome.value = { kind: 'unknown', message: result.error.message, checked: null }
      } else outcome.value = { kind: 'failed', error: result.error }
    } finally {
      creating.value = false
    }
  }

  /** Create the alarm (once: a repeated click while it is being sent does nothing). */
  const create = () => send(false)
  /** After an unknown outcome was checked and not found: send again, with the same Idempotency-Key. */
  const sendAgain = () => send(true)

  /** Look for the configuration of the request whose outcome is unknown, by its Idempotency-Key. */
  async function check(): Promise<void> {
    const current = outcome.value
    if (current?.kind !== 'unknown' || !key) return
    const result = await geo['telematics.alarms']({})
    if (!result.ok) {
      outcome.value = {
        ...current,
        message: `${current.message}; listing configurations failed: ${result.error.message}`,
      }
      return
    }
    if (!result.value.supported) {
      outcome.value = { ...current, checked: 'unsupported' }
      return
    }
    const found = result.value.configurations.find((c) => c.idempotencyKey === key?.value)
    if (found) {
      key = null
      outcome.value = { kind: 'created', configuration: found, reconciled: true, replayed: false }
    } else outcome.value = { ...current, checked: 'not-found' }
  }

  async function preview() {
    return geo['telematics.previewAlarm']({
      fields: JSON.parse(JSON.stringify(fields.value)) as AlarmRequest['fields'],
    })
  }

  return {
    alarmType,
    type,
    duration,
    limit,
    severity,
    deviceIds,
    geofenceIds,
    dirty,
    drawing,
    pickingGeofences,
    creating,
    outcome,
    rules,
    fields,
    issues,
    issuesByField,
    valid,
    touch,
    setAlarmType,
    addDevices,
    removeDevice,
    clearDevices,
    toggleGeofence,
    create,
    sendAgain,
    check,
    preview,
  }
})
