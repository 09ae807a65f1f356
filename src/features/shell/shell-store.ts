import { defineStore } from 'pinia'
import { ref, watch } from 'vue'
import type { CredentialName } from '@contract/index'
import { currentAreaId } from '@contract/map/renamed-areas'
import type { SettingsSection } from './shell'

/** Where the layout is kept between runs (UI state only: no data, no secret). */
export const LAYOUT_STORAGE_KEY = 'geo-analyst.layout'

/** The parts of the layout a person expects back after a restart. */
export interface SavedLayout {
  activeArea: string | null
  sideOpen: boolean
  bottomOpen: boolean
  /** The bottom tab chosen last. */
  bottomTab: string | null
  /** Per area, its bottom tab chosen last: switching areas brings it back. */
  bottomTabs: Record<string, string>
}

const DEFAULT_LAYOUT: SavedLayout = {
  activeArea: null,
  sideOpen: true,
  bottomOpen: true,
  bottomTab: null,
  bottomTabs: {},
}
/** Areas whose bottom tab is remembered (more are not ours). */
const MAX_REMEMBERED_TABS = 50

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null // storage disabled: the layout lives for this window only
  }
}

/** A saved layout, or the default where the saved one is missing or not ours. */
export function readLayout(from: Storage | null = storage()): SavedLayout {
  let saved: unknown
  try {
    saved = JSON.parse(from?.getItem(LAYOUT_STORAGE_KEY) ?? 'null')
  } catch {
    saved = null
  }
  if (!saved || typeof saved !== 'object') return { ...DEFAULT_LAYOUT, bottomTabs: {} }
  const s = saved as Record<string, unknown>
  const text = (v: unknown) => (typeof v === 'string' && v.length <= 100 ? v : null)
  const flag = (v: unknown, fallback: boolean) => (typeof v === 'boolean' ? v : fallback)
  // Area and panel ids under the area's name now: a layout kept while Fleet was `fleet` opens it again.
  const id = (v: unknown) => {
    const t = text(v)
    return t === null ? null : currentAreaId(t)
  }
  return {
    activeArea: id(s['activeArea']),
    sideOpen: flag(s['sideOpen'], true),
    bottomOpen: flag(s['bottomOpen'], true),
    bottomTab: id(s['bottomTab']),
    bottomTabs: tabsOf(s['bottomTabs']),
  }
}

function tabsOf(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {}
  const entries = Object.entries(value as Record<string, unknown>).filter(
    (e): e is [string, string] => e[0].length <= 100 && typeof e[1] === 'string' && e[1].length <= 100,
  )
  return Object.fromEntries(
    entries.slice(0, MAX_REMEMBERED_TABS).map(([area, tab]) => [currentAreaId(area), currentAreaId(tab)]),
  )
}

export interface SettingsRequest {
  section: SettingsSection | null
  credential: CredentialName | null
  /** Grows with each request, so asking for the same section twice moves focus again. */
  seq: number
}

/** The shell's layout: which area, regions and tabs are open, and the Settings dialog. Serializable only. */
export const useShellStore = defineStore('shell', () => {
  const initial = readLayout()
  const activeArea = ref<string | null>(initial.activeArea)
  const sideOpen = ref(initial.sideOpen)
  const bottomOpen = ref(initial.bottomOpen)
  const bottomTab = ref<string | null>(initial.bottomTab)
  const bottomTabs = ref<Record<string, string>>(initial.bottomTabs)
  const settingsOpen = ref(false)
  const settingsRequest = ref<SettingsRequest>({ section: null, credential: null, seq: 0 })
  /** A panel to move focus to once it is on screen; `seq` grows with each request. */
  const focusRequest = ref<{ panelId: string; seq: number } | null>(null)

  watch(
    () => ({
      activeArea: activeArea.value,
      sideOpen: sideOpen.value,
      bottomOpen: bottomOpen.value,
      bottomTab: bottomTab.value,
      bottomTabs: bottomTabs.value,
    }),
    (layout) => {
      try {
        storage()?.setItem(LAYOUT_STORAGE_KEY, JSON.stringify(layout))
      } catch {
        // Full or disabled storage: the layout is not kept, nothing else is affected.
      }
    },
  )

  function chooseArea(id: string): void {
    activeArea.value = id
    sideOpen.value = true
  }

  /** Show a bottom tab, and remember it as the one of its area (or of the open one, for a shared tab). */
  function chooseBottomTab(areaId: string | null, panelId: string): void {
    bottomTab.value = panelId
    if (areaId !== null) rememberBottomTab(areaId, panelId)
  }

  /** The tab an area shows the next time it is opened. */
  function rememberBottomTab(areaId: string, panelId: string): void {
    if (bottomTabs.value[areaId] !== panelId) bottomTabs.value = { ...bottomTabs.value, [areaId]: panelId }
  }

  function openSettings(section?: SettingsSection, credential?: CredentialName): void {
    settingsRequest.value = {
      section: section ?? null,
      credential: credential ?? null,
      seq: settingsRequest.value.seq + 1,
    }
    settingsOpen.value = true
  }

  function focusPanel(panelId: string): void {
    focusRequest.value = { panelId, seq: (focusRequest.value?.seq ?? 0) + 1 }
  }

  return {
    activeArea,
    sideOpen,
    bottomOpen,
    bottomTab,
    bottomTabs,
    settingsOpen,
    settingsRequest,
    focusRequest,
    chooseArea,
    chooseBottomTab,
    rememberBottomTab,
    openSettings,
    focusPanel,
  }
})
