import { defineStore } from 'pinia'
import { computed, ref, shallowRef, triggerRef } from 'vue'
import type { GeoError } from '@contract/index'
import type {
  AlertEntry,
  DeviceColumns,
  FleetConfigure,
  FleetPoll,
  FleetStatus,
  Geofences,
} from '@contract/telematics/fleet'
import { DEVICE_STATUS_VALUES } from '@contract/telematics/fleet'
import { geo } from '../../bridge'
import type { LonLatBox } from '../../geo/extent'

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

function storedInterval(): number {
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

const isHidden = () => typeof document !== 'undefined' && document.visibilityState === 'hidden'

/**
 * The live fleet: devices from `fleet.poll` (the whole fleet once, then only what changed since the
 * last `serverTime`), polled every few seconds while live and the window is visible; the list's search
 * and status filter; the selected and followed device; trails of the last minutes; the alerts feed; the
 * fleet's source (simulation, replays, geofences). Devices are held in a map replaced per poll (a poll
 * of 5,000 devices must not make 5,000 reactive objects); `version` says when it changed.
 */
export const useFleetStore = defineStore('fleet', () => {
  const devices = shallowRef<Map<number, DeviceRow>>(new Map())
  /** Bumped after every poll that changed devices; `changed` holds their ids (null: all of them). */
  const version = ref(0)
  const changed = shallowRef<number[] | null>(null)
  const serverTime = ref<number | null>(null)
  const lastPollAt = ref<number | null>(null)
  const pollError = ref<GeoError | null>(null)
  const polling = ref(false)
  const live = ref(false)
  const hidden = ref(isHidden())
  const intervalSeconds = ref(storedInterval())
  const alertHistory = ref(false)

  const status = ref<FleetStatus | null>(null)
  const statusError = ref<GeoError | null>(null)
  const configuring = ref(false)

  const search = ref('')
  const statusFilter = ref<number[]>([...DEVICE_STATUS_VALUES])
  const selectedId = ref<number | null>(null)
  const followId = ref<number | null>(null)
  const detail = ref<DeviceDetail | null>(null)
  const detailError = ref<GeoError | null>(null)

  const trailMinutes = ref(10)
  /** Per device, [lon, lat, time, …] of the last minutes (plain arrays, read by the map layer). */
  const trails = new Map<number, number[]>()

  const alerts = ref<AlertEntry[]>([])
  const alertsError = ref<GeoError | null>(null)
  /** High-severity alerts not yet dismissed: shown as notifications. */
  const notifications = ref<AlertEntry[]>([])
  /** The alert shown on the map (clicked in the feed or a notification). */
  const focusedAlert = ref<AlertEntry | null>(null)
  const seenAlerts = new Set<string>()

  const geofences = shallowRef<Geofences | null>(null)
  const geofencesError = ref<GeoError | null>(null)

  let timer: ReturnType<typeof setTimeout> | null = null
  let pollSeq = 0

  const list = computed(() => {
    void version.value
    return [...devices.value.values()]
  })
  const filtered = computed(() => {
    const text = search.value.trim().toLowerCase()
    const statuses = new Set(statusFilter.value)
    return list.value.filter(
      (d) =>
        statuses.has(d.status) &&
        (!text ||
          d.name.toLowerCase().includes(text) ||
          d.registrationNumber.toLowerCase().includes(text) ||
          String(d.id) === text),
    )
  })
  const countByStatus = computed(() => {
    const counts = new Map<number, number>()
    for (const d of list.value) counts.set(d.status, (counts.get(d.status) ?? 0) + 1)
    return counts
  })
  const selected = computed(() => {
    void version.value
    return selectedId.value === null ? null : (devices.value.get(selectedId.value) ?? null)
  })
  const simulated = computed(() => status.value?.simulated === true)
  /** A lon/lat box around the devices with a location, or null (none yet). */
  const locatedBox = computed((): LonLatBox | null => {
    void version.value
    let box: LonLatBox | null = null
    for (const d of devices.value.values()) {
      if (d.lon === null || d.lat === null) continue
      box = box
        ? [Math.min(box[0], d.lon), Math.min(box[1], d.lat), Math.max(box[2], d.lon), Math.max(box[3], d.lat)]
        : [d.lon, d.lat, d.lon, d.lat]
    }
    return box
  })
  const paused = computed(() => live.value && hidden.value)

  function recordTrail(row: DeviceRow, now: number): void {
    if (row.lon === null || row.lat === null) return
    const points = trails.get(row.id) ?? []
    const n = points.length
    if (n >= 3 && points[n - 3] === row.lon && points[n - 2] === row.lat) points[n - 1] = row.time
    else points.push(row.lon, row.lat, row.time)
    const oldest = now - trailMinutes.value * 60
    let drop = 0
    while (drop + 5 < points.length && points[drop + 2]! < oldest) drop += 3
    if (drop > 0) points.splice(0, drop)
    trails.set(row.id, points)
  }

  /** Lon/lat points of a device's trail within the last `trailMinutes` (oldest first). */
  function trailOf(id: number): Array<[number, number]> {
    const points = trails.get(id) ?? []
    const oldest = (serverTime.value ?? Date.now() / 1000) - trailMinutes.value * 60
    const out: Array<[number, number]> = []
    for (let i = 0; i + 2 < points.length; i += 3)
      if (points[i + 2]! >= oldest) out.push([points[i]!, points[i + 1]!])
    return out
  }

  function addAlerts(incoming: readonly AlertEntry[], notify: boolean): void {
    const fresh = incoming.filter((a) => {
      const key = alertKey(a)
      if (seenAlerts.has(key)) return false
      seenAlerts.add(key)
      return true
    })
    if (fresh.length === 0) return
    alerts.value = [...fresh, ...alerts.value]
      .sort((a, b) => b.timestamp - a.timestamp || (b.seq ?? 0) - (a.seq ?? 0))
      .slice(0, MAX_FEED_ALERTS)
    if (notify) {
      const high = fresh.filter((a) => a.severity === 1)
      if (high.length) notifications.value = [...high, ...notifications.value].slice(0, 5)
    }
  }

  function apply(poll: FleetPoll): void {
    const rows = rowsOf(poll.devices)
    const next = poll.full ? new Map<number, DeviceRow>() : devices.value
    for (const row of rows) {
      next.set(row.id, row)
      recordTrail(row, poll.serverTime)
    }
    if (poll.full) {
      for (const id of trails.keys()) if (!next.has(id)) trails.delete(id)
      devices.value = next
    } else triggerRef(devices)
    changed.value = poll.full ? null : rows.map((r) => r.id)
    serverTime.value = poll.serverTime
    alertHistory.value = poll.alertHistory
    if (poll.full || rows.length > 0) version.value++
    addAlerts(poll.alerts, true)
  }

  /**
   * List inactive devices too (§4.7 includeInActive): asked for in full polls, where inactive devices can
   * appear (a `state` poll lists only active ones); changing it polls the whole fleet again.
   */
  const includeInactive = ref(false)
  async function setIncludeInactive(value: boolean): Promise<void> {
    includeInactive.value = value
    await poll({ full: true })
  }

  /** One poll: the whole fleet the first time, then what changed since the last `serverTime`. */
  async function poll(options: { full?: boolean } = {}): Promise<void> {
    const seq = ++pollSeq
    polling.value = true
    const since = options.full ? null : serverTime.value
    const result = await geo['fleet.poll'](
      since === null
        ? includeInactive.value
          ? { includeInActive: true }
          : {}
        : { state: since, alertsSince: since },
    )
    if (seq !== pollSeq) return
    polling.value = false
    lastPollAt.value = Date.now()
    if (!result.ok) {
      pollError.value = result.error
      return
    }
    pollError.value = null
    const first = serverTime.value === null
    apply(result.value)
    if (first && result.value.alertHistory) void loadAlerts()
    if (selectedId.value !== null && (changed.value === null || changed.value.includes(selectedId.value)))
      void loadDetail(selectedId.value)
    if (status.value?.tracks.some((t) => t.playing && !t.ended)) void refreshStatus()
  }

  function schedule(): void {
    if (timer) clearTimeout(timer)
    timer = null
    if (!live.value || hidden.value) return
    timer = setTimeout(() => void tick(), intervalSeconds.value * 1000)
  }

  async function tick(): Promise<void> {
    timer = null
    if (!live.value || hidden.value) return
    await poll()
    schedule()
  }

  /** Poll now and then every `intervalSeconds` while live and the window is shown. */
  function start(): void {
    if (live.value) return
    live.value = true
    if (!status.value) void refreshStatus()
    if (!geofences.value) void loadGeofences()
    void tick()
  }

  function stop(): void {
    live.value = false
    if (timer) clearTimeout(timer)
    timer = null
  }

  function setInterval(seconds: number): void {
    if (!Number.isFinite(seconds)) return
    intervalSeconds.value = Math.min(MAX_POLL_SECONDS, Math.max(MIN_POLL_SECONDS, Math.round(seconds)))
    try {
      globalThis.localStorage?.setItem(POLL_INTERVAL_KEY, String(intervalSeconds.value))
    } catch {
      // Not kept across restarts; it still applies now.
    }
    schedule()
  }

  /** Follow the window's visibility: hidden stops polling, shown polls at once and resumes. */
  function watchVisibility(): () => void {
    if (typeof document === 'undefined') return () => {}
    const onChange = () => {
      hidden.value = isHidden()
      if (hidden.value) schedule()
      else if (live.value) void tick()
    }
    document.addEventListener('visibilitychange', onChange)
    return () => document.removeEventListener('visibilitychange', onChange)
  }

  async function refreshStatus(): Promise<void> {
    const result = await geo['fleet.status']({})
    if (result.ok) {
      status.value = result.value
      statusError.value = null
    } else statusError.value = result.error
  }

  /** Change the simulated fleet or the geofence layer; the next poll lists the whole fleet again. */
  async function configure(request: FleetConfigure): Promise<boolean> {
    configuring.value = true
    try {
      const result = await geo['fleet.configure'](request)
      if (!result.ok) {
        statusError.value = result.error
        return false
      }
      status.value = result.value
      statusError.value = null
      if ('geofenceDataset' in request) void loadGeofences()
      if (request.vehicles !== undefined || request.seed !== undefined || request.network !== undefined)
        await poll({ full: true })
      return true
    } finally {
      configuring.value = false
    }
  }

  async function createZones(): Promise<void> {
    configuring.value = true
    const result = await geo['fleet.createZones']({})
    configuring.value = false
    if (!result.ok) {
      statusError.value = result.error
      return
    }
    status.value = result.value
    statusError.value = null
    await loadGeofences()
  }

  async function loadGeofences(): Promise<void> {
    const result = await geo['fleet.geofences']({})
    if (result.ok) {
      geofences.value = result.value
      geofencesError.value = null
    } else geofencesError.value = result.error
  }

  async function loadAlerts(): Promise<void> {
    const result = await geo['fleet.alerts']({ limit: 200 })
    if (result.ok) {
      alertsError.value = null
      addAlerts(result.value.alerts, false)
    } else alertsError.value = result.error
  }

  async function loadDetail(id: number): Promise<void> {
    const result = await geo['fleet.device']({ id })
    if (selectedId.value !== id) return
    if (result.ok) {
      detail.value = result.value as DeviceDetail
      detailError.value = null
    } else {
      detail.value = null
      detailError.value = result.error
    }
  }

  function select(id: number | null): void {
    if (selectedId.value !== id) detail.value = null
    selectedId.value = id
    detailError.value = null
    if (id !== null) void loadDetail(id)
  }

  function follow(id: number | null): void {
    followId.value = id
    if (id !== null) select(id)
  }

  function focusAlert(alert: AlertEntry): void {
    focusedAlert.value = alert
    select(alert.deviceId)
  }

  function dismiss(alert: AlertEntry): void {
    notifications.value = notifications.value.filter((a) => a !== alert)
  }

  return {
    devices,
    version,
    changed,
    serverTime,
    lastPollAt,
    pollError,
    polling,
    live,
    includeInactive,
    setIncludeInactive,
    hidden,
    paused,
    intervalSeconds,
    alertHistory,
    status,
    statusError,
    configuring,
    simulated,
    locatedBox,
    search,
    statusFilter,
    list,
    filtered,
    countByStatus,
    selectedId,
    selected,
    followId,
    detail,
    detailError,
    trailMinutes,
    alerts,
    alertsError,
    notifications,
    focusedAlert,
    geofences,
    geofencesError,
    trailOf,
    poll,
    start,
    stop,
    setInterval,
    watchVisibility,
    refreshStatus,
    configure,
    createZones,
    loadGeofences,
    loadAlerts,
    loadDetail,
    select,
    follow,
    focusAlert,
    dismiss,
  }
})
