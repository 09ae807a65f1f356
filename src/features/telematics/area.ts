import { watch } from 'vue'
import type { LonLatBox } from '../../geo/extent'
import { lazyMapPart, lazyPanel } from '../shell/lazy'
import { defineArea } from '../shell/shell'
import { useShellStore } from '../shell/shell-store'

/** Panel ids of the fleet area, for `panel.show`. */
export const FLEET_PANELS = {
  devices: 'telematics.devices',
  alarm: 'telematics.alarm',
  replay: 'telematics.replay',
  device: 'telematics.device',
  alerts: 'telematics.alerts',
  hardware: 'telematics.hardware',
} as const

/** How long opening the area waits for the first devices before leaving the map where it is. */
const FIRST_DEVICES_WAIT_MS = 30_000

/** The box around the fleet's located devices once the first poll has answered (null: none, or no answer). */
async function firstDevicesBox(): Promise<LonLatBox | null> {
  const { useFleetStore } = await import('./fleet-store')
  const store = useFleetStore()
  store.start()
  return new Promise((resolve) => {
    let stop: (() => void) | null = null
    const timer = setTimeout(() => finish(null), FIRST_DEVICES_WAIT_MS)
    function finish(box: LonLatBox | null): void {
      clearTimeout(timer)
      queueMicrotask(() => stop?.())
      resolve(box)
    }
    stop = watch(
      () => [store.locatedBox, store.serverTime, store.pollError] as const,
      ([box, answered, failed]) => {
        if (box) finish(box)
        else if (answered !== null || failed) finish(null)
      },
      { immediate: true },
    )
  })
}

/**
 * Fleet (spec §4.7–4.9): live devices on the map and in a list (the local service's simulated or replayed
 * fleet, or the cloud's), a device's drawer and hardware, the alarm composer, the alerts feed and replay.
 * Polling starts the first time the area is opened and goes on while the window is shown.
 */
export default defineArea({
  id: 'telematics',
  title: 'Fleet',
  order: 30,
  // A navigation arrow: a vehicle's heading.
  icon: 'M12 2 L20 21 L12 17 L4 21 Z',
  sidePanels: [
    { id: FLEET_PANELS.devices, title: 'Devices', component: lazyPanel(() => import('./DevicesPanel.vue')) },
    { id: FLEET_PANELS.alarm, title: 'New alarm', component: lazyPanel(() => import('./AlarmComposer.vue')) },
    { id: FLEET_PANELS.replay, title: 'Replay', component: lazyPanel(() => import('./ReplayPanel.vue')) },
  ],
  bottomPanels: [
    {
      id: FLEET_PANELS.device,
      title: 'Device',
      order: 20,
      component: lazyPanel(() => import('./DeviceDrawer.vue')),
    },
    {
      id: FLEET_PANELS.alerts,
      title: 'Alerts',
      order: 21,
      component: lazyPanel(() => import('./AlertsFeed.vue')),
    },
    {
      id: FLEET_PANELS.hardware,
      title: 'Hardware',
      order: 22,
      component: lazyPanel(() => import('./HardwareTable.vue')),
    },
  ],
  mapLayers: [{ id: 'telematics.live', component: lazyMapPart(() => import('./FleetLayers.vue')) }],
  mapControls: [
    { id: 'telematics.notifications', component: lazyMapPart(() => import('./AlertNotifications.vue')) },
  ],
  // The fleet opens on its vehicles: the first time, the map goes to them unless some are in view.
  dataExtent: async () => {
    const box = await firstDevicesBox()
    return box ? [box] : []
  },
  setup(shell) {
    const layout = useShellStore()
    let stopped = false
    const stops: Array<() => void> = []
    // The first time the Fleet area is opened, go live (and stay live while the window is shown).
    const stopWatch = watch(
      () => layout.activeArea,
      (area) => {
        if (area !== 'telematics') return
        queueMicrotask(() => stopWatch())
        void import('./fleet-store').then(({ useFleetStore }) => {
          if (stopped) return
          const store = useFleetStore()
          stops.push(store.watchVisibility())
          store.start()
          // A device chosen on the map or in the list opens its drawer.
          stops.push(
            watch(
              () => store.selectedId,
              (id) => {
                if (id !== null) void shell.run('panel.show', { id: FLEET_PANELS.device, focus: false })
              },
            ),
          )
        })
      },
      { immediate: true },
    )
    return () => {
      stopped = true
      stopWatch()
      stops.forEach((stop) => stop())
      void import('./fleet-store').then(({ useFleetStore }) => useFleetStore().stop())
    }
  },
})
