import type { AlertEntry, DeviceColumns } from '@contract/telematics/fleet'

/** One device as the list and the map read it (a row of the poll's columns). */
export interface DeviceRow {
  id: number
  lon: number | null
  lat: number | null
  heading: number
  speed: number
  status: number
  /** Unix seconds the record was received. */
  time: number
  active: boolean
  deviceType: string
  name: string
  registrationNumber: string
}

export type DeviceDetail = {
  device: Record<string, unknown> & { id: number }
  hardware: (Record<string, unknown> & { id: string | number }) | null
}

export const POLL_INTERVAL_KEY = 'geo-analyst.fleet.pollSeconds'
export const MIN_POLL_SECONDS = 1
export const MAX_POLL_SECONDS = 300
export const DEFAULT_POLL_SECONDS = 5
/** Alerts kept in the feed (newest first). */
export const MAX_FEED_ALERTS = 500

export function storedInterval(): number {
  try {
    const n = Number(globalThis.localStorage?.getItem(POLL_INTERVAL_KEY))
    return Number.isFinite(n) && n >= MIN_POLL_SECONDS && n <= MAX_POLL_SECONDS ? n : DEFAULT_POLL_SECONDS
  } catch {
    return DEFAULT_POLL_SECONDS
  }
}

/** Rows of the poll's columns. */
export function rowsOf(c: DeviceColumns): DeviceRow[] {
  return c.id.map((id, i) => ({
    id,
    lon: c.lon[i] ?? null,
    lat: c.lat[i] ?? null,
    heading: c.heading[i] ?? 0,
    speed: c.speed[i] ?? 0,
    status: c.status[i] ?? 5,
    time: c.time[i] ?? 0,
    active: c.active[i] ?? true,
    deviceType: c.deviceType[i] ?? '',
    name: c.name[i] ?? `Device ${id}`,
    registrationNumber: c.registrationNumber[i] ?? '',
  }))
}

/** An alert's identity, so a poll and the history never list it twice. */
export const alertKey = (a: AlertEntry): string =>
  a.seq !== undefined
    ? `seq:${a.seq}`
    : `${a.deviceId}:${a.alarmType}:${a.timestamp}:${a.alarmId ?? ''}:${a.data ?? ''}`
