import { ref } from 'vue'
import type { GeoError } from '@contract/index'
import type { AlertEntry } from '@contract/telematics/fleet'
import { geo } from '../../bridge'
import { alertKey, MAX_FEED_ALERTS } from './fleet-rows'

/**
 * The alerts feed (newest first, each alert once whether a poll or the history brought it), the
 * high-severity notifications not yet dismissed, and the alert shown on the map.
 */
export function useFleetAlerts() {
  const alerts = ref<AlertEntry[]>([])
  const alertsError = ref<GeoError | null>(null)
  /** High-severity alerts not yet dismissed: shown as notifications. */
  const notifications = ref<AlertEntry[]>([])
  /** The alert shown on the map (clicked in the feed or a notification). */
  const focusedAlert = ref<AlertEntry | null>(null)
  const seenAlerts = new Set<string>()

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

  async function loadAlerts(): Promise<void> {
    const result = await geo['telematics.alerts']({ limit: 200 })
    if (result.ok) {
      alertsError.value = null
      addAlerts(result.value.alerts, false)
    } else alertsError.value = result.error
  }

  function dismiss(alert: AlertEntry): void {
    notifications.value = notifications.value.filter((a) => a !== alert)
  }

  return { alerts, alertsError, notifications, focusedAlert, addAlerts, loadAlerts, dismiss }
}
