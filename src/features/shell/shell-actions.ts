import { useMapStore } from '../map/view/map-store'
import { openAreaId } from './open-area'
import type { Shell } from './shell'
import { useShellStore } from './shell-store'

/** The shell's own actions: Settings, showing a panel, moving the map. Returns what removes them. */
export function installShellActions(shell: Shell): () => void {
  const layout = useShellStore()
  const mapStore = useMapStore()
  const stops = [
    shell.handle('settings.open', ({ section, credential }) => layout.openSettings(section, credential)),
    shell.handle('panel.show', ({ id, focus = true }) => {
      const found = shell.findPanel(id)
      if (!found) throw new Error(`no panel "${id}" is registered`)
      if (found.region === 'side') layout.chooseArea(found.area.id)
      else {
        const open = openAreaId(shell, layout.activeArea)
        const here = found.area.id === open || (found.panel.everywhere?.() ?? false)
        // A panel of another area: asked for, its area opens (as a person would open it); shown on its
        // own (a run that finished, a device chosen on the map), it waits as that area's tab.
        if (!here && !focus) {
          layout.rememberBottomTab(found.area.id, id)
          return
        }
        if (!here) layout.chooseArea(found.area.id)
        layout.bottomOpen = true
        layout.chooseBottomTab(here ? open : found.area.id, id)
      }
      if (focus) layout.focusPanel(id)
    }),
    shell.handle('map.zoomTo', ({ extent }) => mapStore.fitTo(extent)),
    shell.handle('map.flyTo', ({ point, zoom }) => mapStore.centerOn(point, zoom)),
  ]
  return () => stops.forEach((stop) => stop())
}
