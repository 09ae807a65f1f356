import { computed, type ComputedRef } from 'vue'
import { useShell, type PanelContribution, type Shell } from './shell'
import { useShellStore } from './shell-store'

/** The open area: the one chosen last when it is registered, else the first of the activity bar. */
export function openAreaId(shell: Shell, chosen: string | null): string | null {
  return shell.areas.some((a) => a.id === chosen) ? chosen : (shell.areas[0]?.id ?? null)
}

/** The open area's id, following the activity bar. */
export function useOpenArea(): ComputedRef<string | null> {
  const shell = useShell()
  const layout = useShellStore()
  return computed(() => openAreaId(shell, layout.activeArea))
}

/** The bottom panel's tabs while the open area is open: its own and those shown everywhere now. */
export function useOpenAreaBottomPanels(): ComputedRef<PanelContribution[]> {
  const shell = useShell()
  const area = useOpenArea()
  return computed(() => (area.value === null ? [] : shell.bottomPanels(area.value)))
}
