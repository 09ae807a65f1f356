import { watch } from 'vue'
import { boxesIntersect } from '../../geo/extent'
import { useMapStore } from '../map/view/map-store'
import { openAreaId } from './open-area'
import type { Shell } from './shell'
import { useShellStore } from './shell-store'

/**
 * The map follows the area: the first time an area whose data lives somewhere (`dataExtent`: the routing
 * network, the fleet) is opened, and the map shows none of it, the map goes there. Only once per area and
 * window — after that, where the map is is the analyst's choice — and not if another area was opened
 * while the answer came. Returns what stops it.
 */
export function installAreaFollow(shell: Shell): () => void {
  const layout = useShellStore()
  const mapStore = useMapStore()
  const asked = new Set<string>()
  return watch(
    () => openAreaId(shell, layout.activeArea),
    async (id) => {
      const area = shell.areas.find((a) => a.id === id)
      if (!area?.dataExtent || asked.has(area.id)) return
      asked.add(area.id)
      let boxes: Awaited<ReturnType<NonNullable<typeof area.dataExtent>>>
      try {
        boxes = await area.dataExtent(shell)
      } catch (error) {
        console.warn(`Where the ${area.title} area's data is could not be told: ${String(error)}`)
        return
      }
      if (openAreaId(shell, layout.activeArea) !== area.id || boxes.length === 0) return
      const view = mapStore.viewBox
      if (view && boxes.some((box) => boxesIntersect(view, box))) return
      await shell.run('map.zoomTo', { extent: boxes[0]! })
    },
    { immediate: true },
  )
}
