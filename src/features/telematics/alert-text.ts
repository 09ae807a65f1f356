import { ALARM_TYPE_LABELS, LIMIT_UNITS, TYPE_LABELS } from '@contract/telematics/alarm'
import type { AlertEntry } from '@contract/telematics/fleet'
import { formatDuration } from './device-format'

/** §3 `data` of an alert: ignition 0/1 (21); geofence 2 entry, 3 leaving, 4 long stay (26). */
function dataText(a: AlertEntry): string {
  if (a.data === undefined) return ''
  if (a.alarmType === 21) return a.data === 1 ? ' (on)' : ' (off)'
  if (a.alarmType === 26) return ` (${TYPE_LABELS[26]?.[a.data]?.toLowerCase() ?? a.data})`
  return ''
}

/** An alert in one line: what, how much against the limit, for how long. */
export function alertSummary(a: AlertEntry, deviceName: string): string {
  const what = `${ALARM_TYPE_LABELS[a.alarmType] ?? `Alarm ${a.alarmType}`}${dataText(a)}`
  const unit = LIMIT_UNITS[a.alarmType]
  const limit =
    unit && a.actualLimit !== undefined
      ? `: ${Math.round(a.actualLimit)} ${unit}${a.limit !== undefined ? ` (limit ${a.limit})` : ''}`
      : ''
  const duration = a.actualDuration ? ` for ${formatDuration(a.actualDuration)}` : ''
  return `${what} — ${deviceName}${limit}${duration}`
}
