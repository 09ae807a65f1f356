import { watch } from 'vue'
import { lazyMapPart, lazyPanel } from '../shell/lazy'
import { defineArea } from '../shell/shell'
import { useShellStore } from '../shell/shell-store'

/** Panel ids of the fleet area, for `panel.show`. */
export const FLEET_PANELS = {
  devices: 'fleet.devices',
  alarm: 'fleet.alarm',
  replay: 'fleet.replay',
  device: 'fleet.device',
  alerts: 'fleet.alerts',
  hardware: 'fleet.hardware',
} as const

/**
 * Fleet (spec §4.7–4.9): live devices on the map and in a list (the local service's simulated or replayed
 * fleet, or the cloud's), a device's drawer and hardware, the alarm composer, the alerts feed and replay.
 * Polling starts the first time the area is opened and goes on while the window is shown.
 */
export default defineArea({
  id: 'fleet',
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
  mapLayers: [{ id: 'fleet.live', component: lazyMapPart(() => import('./FleetLayers.vue')) }],
  mapControls: [
    { id: 'fleet.notifications', component: lazyMapPart(() => import('./AlertNotifications.vue')) },
  ],
  setup(shell) {
    const layout = useShellStore()
    let stopped = false
    const stops: Array<() => void> = []
    // The first time the Fleet area is opened, go live (and stay live while the window is shown).
    const stopWatch = watch(
      () => layout.activeArea,
      (area) => {
        if (area !== 'fleet') return
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
