import { nextTick, watch } from 'vue'
import { useShellStore } from './shell-store'

/** The DOM id of a panel's slot in its region. */
export function panelDomId(panelId: string): string {
  return `panel-${panelId.replace(/[^A-Za-z0-9_-]/g, '-')}`
}

/**
 * Move focus to a panel when the shell asks for it (`panel.show`) and the panel is in this region.
 * The panel's slot takes focus (tabindex -1), so a screen reader announces the panel by its name.
 */
export function usePanelFocus(holds: (panelId: string) => boolean): void {
  const layout = useShellStore()
  watch(
    () => layout.focusRequest,
    async (request) => {
      if (!request || !holds(request.panelId)) return
      await nextTick()
      const slot = document.getElementById(panelDomId(request.panelId))
      slot?.scrollIntoView?.({ block: 'nearest' })
      slot?.focus({ preventScroll: true })
    },
  )
}
