import { defineStore } from 'pinia'
import { computed, ref, shallowRef, triggerRef } from 'vue'
import type { GeoError } from '@contract/index'
import type { AlertEntry, FleetPoll } from '@contract/telematics/fleet'
import { DEVICE_STATUS_VALUES } from '@contract/telematics/fleet'
import { geo } from '../../bridge'
import type { LonLatBox } from '../../geo/extent'
import { rowsOf, type DeviceDetail, type DeviceRow } from './fleet-rows'
import { useFleetAlerts } from './use-fleet-alerts'
import { useFleetSource } from './use-fleet-source'
import { usePollTimer } from './use-poll-timer'
import { useTrails } from './use-trails'

export {
  alertKey,
  DEFAULT_POLL_SECONDS,
  MAX_FEED_ALERTS,
  MAX_POLL_SECONDS,
  MIN_POLL_SECONDS,
  POLL_INTERVAL_KEY,
  rowsOf,
  type DeviceDetail,
  type DeviceRow,
} from './fleet-rows'

/**
 * The live fleet: devices from `telematics.poll` (the whole fleet once, then only what changed since the
 * last `serverTime`), polled every few seconds while live and the window is visible; the list's search
 * and status filter; the selected and followed device; trails of the last minutes; the alerts feed; the
 * fleet's source (simulation, replays, geofences). Devices are held in a map replaced per poll (a poll
 * of 5,000 devices must not make 5,000 reactive objects); `version` says when it changed.
 */
export const useFleetStore = defineStore('telematics', () => {
  const devices = shallowRef<Map<number, DeviceRow>>(new Map())
  /** Bumped after every poll that changed devices; `changed` holds their ids (null: all of them). */
  const version = ref(0)
  const changed = shallowRef<number[] | null>(null)
  const serverTime = ref<number | null>(null)
  const lastPollAt = ref<number | null>(null)
  const pollError = ref<GeoError | null>(null)
  const polling = ref(false)
  const timer = usePollTimer(() => poll())
  const { live, hidden, paused, intervalSeconds } = timer
  const alertHistory = ref(false)

  const search = ref('')
  const statusFilter = ref<number[]>([...DEVICE_STATUS_VALUES])
  const selectedId = ref<number | null>(null)
  const { trailMinutes, recordTrail, trailOf, keepOnly } = useTrails(serverTime)
  const { alerts, alertsError, notifications, focusedAlert, addAlerts, loadAlerts, dismiss } =
    useFleetAlerts()
  const source = useFleetSource(() => poll({ full: true }))
  const { status, geofences, refreshStatus, loadGeofences } = source
  const followId = ref<number | null>(null)
  const detail = ref<DeviceDetail | null>(null)
  const detailError = ref<GeoError | null>(null)

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

  function apply(poll: FleetPoll): void {
    const rows = rowsOf(poll.devices)
    const next = poll.full ? new Map<number, DeviceRow>() : devices.value
    for (const row of rows) {
      next.set(row.id, row)
      recordTrail(row, poll.serverTime)
    }
    if (poll.full) {
      keepOnly(next)
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

  /** Poll now and then every `intervalSeconds` while live and the window is shown. */
  function start(): void {
    if (!timer.start()) return
    if (!status.value) void refreshStatus()
    if (!geofences.value) void loadGeofences()
  }

  /** One poll: the whole fleet the first time, then what changed since the last `serverTime`. */
  async function poll(options: { full?: boolean } = {}): Promise<void> {
    const seq = ++pollSeq
    polling.value = true
    const since = options.full ? null : serverTime.value
    const result = await geo['telematics.poll'](
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

  async function loadDetail(id: number): Promise<void> {
    const result = await geo['telematics.device']({ id })
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
    statusError: source.statusError,
    configuring: source.configuring,
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
    geofencesError: source.geofencesError,
    trailOf,
    poll,
    start,
    stop: timer.stop,
    setInterval: timer.setInterval,
    watchVisibility: timer.watchVisibility,
    refreshStatus,
    configure: source.configure,
    createZones: source.createZones,
    loadGeofences,
    loadAlerts,
    loadDetail,
    select,
    follow,
    focusAlert,
    dismiss,
  }
})
