import { inject, markRaw, type Component, type InjectionKey } from 'vue'
import type { CredentialName, ProjectLayer } from '@contract/index'
import type { LonLat } from '../../geo/coordinates'
import type { LonLatBox } from '../../geo/extent'

/**
 * The app shell's registry: areas (gis today; places, routing, fleet and vision later) contribute side
 * panels, bottom panels, map layers and controls, toolbar commands and action handlers. The shell
 * renders what it holds; `App.vue` names no area and no panel. Registration: `src/areas.ts`.
 */

/** The Settings dialog's sections. */
export type SettingsSection = 'profiles' | 'credentials' | 'basemap'

/**
 * Cross-area actions and their payloads. An area that offers a new action adds it here by declaration
 * merging (`declare module '…/shell/shell' { interface ShellActions { 'routing.usePositions': … } }`)
 * and registers its handler in its `actions`.
 */
export interface ShellActions {
  /** Open Settings, optionally at a section, with a credential's field focused. */
  'settings.open': { section?: SettingsSection; credential?: CredentialName }
  /** Show a panel (side or bottom) by id, opening its region and area, and move focus to it. */
  'panel.show': { id: string; focus?: boolean }
  /** Fit the map's view to a lon/lat box. */
  'map.zoomTo': { extent: LonLatBox }
  /** Centre the map on a point, optionally at a zoom level. */
  'map.flyTo': { point: LonLat; zoom?: number }
}

export type ActionName = keyof ShellActions
export type ActionHandler<K extends ActionName> = (payload: ShellActions[K]) => void | Promise<void>
export type ActionHandlers = { [K in ActionName]?: ActionHandler<K> }

export interface PanelContribution {
  /** Unique over the app, `<area>.<panel>`, e.g. `gis.datasets`. */
  id: string
  /** The tab's or section's name, as a person reads it. */
  title: string
  /** The panel; `defineAsyncComponent(() => import(…))` keeps it out of the first chunk. */
  component: Component
  /** Position among the region's panels (lower first; registration order breaks ties). */
  order?: number
  /**
   * Bottom panels: reactive; while true the tab stays in the bottom panel whichever area is open (the
   * map's attribute table, once a layer's table is open). Otherwise a bottom panel shows with its area only.
   */
  everywhere?: () => boolean
}

/** A component mounted inside the map: a render-less layer, or a control drawn over the map. */
export interface MapContribution {
  id: string
  component: Component
  order?: number
}

export interface CommandContribution {
  id: string
  /** The button's accessible name and tooltip (with the description). */
  label: string
  /** An icon component (Lucide); the button then shows the icon alone, named by `label`. */
  icon?: Component
  /** A longer explanation (tooltip). */
  description?: string
  run: (shell: Shell) => void | Promise<void>
  /** Reactive: read stores here and the button follows. */
  enabled?: () => boolean
}

export interface AreaDefinition {
  /** `places`, `routing`, `telematics`, `gis`, `vision`. */
  id: string
  /** The activity bar entry's accessible name, e.g. "Spatial analytics". */
  title: string
  /** The activity bar glyph: one SVG path on a 24×24 box. */
  icon: string
  /** Position in the activity bar (lower first): places 10, routing 20, fleet 30, gis 40, vision 50. */
  order?: number
  sidePanels?: PanelContribution[]
  bottomPanels?: PanelContribution[]
  mapLayers?: MapContribution[]
  mapControls?: MapContribution[]
  commands?: CommandContribution[]
  actions?: ActionHandlers
  /**
   * Bring back layers of this area that the layer list wants but that are not on the map — after a restart,
   * or from an opened project — e.g. show datasets by name (`layer.ref`). Return the ids it could not
   * bring back (they leave the list). Layers that are always mounted need nothing here.
   */
  openLayers?: (layers: ProjectLayer[], shell: Shell) => Promise<string[]> | string[]
  /**
   * Where the area's data lives (lon/lat boxes, the one to show first first): asked the first time the area
   * is opened; when the map shows none of them, it goes to the first (the routing network, the fleet).
   * An empty list: the data is wherever the map is (or not known yet).
   */
  dataExtent?: (shell: Shell) => Promise<LonLatBox[]>
  /**
   * The area's own part of a project file beside its layers (the drawings of gis): `save` returns it
   * (checked by the area's schema in `electron/contract/map/project.ts` `PROJECT_PARTS`), `open` takes
   * it back (undefined when the project has none).
   */
  project?: {
    save(): unknown | Promise<unknown>
    open(part: unknown): void | Promise<void>
  }
  /**
   * Wiring that must hold whether or not the area's panels are mounted (e.g. a finished run shows its
   * result). Runs once when the app starts, with Pinia active; may return a stop function.
   */
  setup?: (shell: Shell) => void | (() => void)
}

export interface Shell {
  readonly areas: readonly AreaDefinition[]
  register(area: AreaDefinition): void
  /** Handle an action (one handler per action; the shell's own or an area's). */
  handle<K extends ActionName>(name: K, handler: ActionHandler<K>): () => void
  /** Run an action; throws when nothing handles it, so a missing wire shows at once. */
  run<K extends ActionName>(name: K, payload: ShellActions[K]): Promise<void>
  sidePanels(areaId: string): PanelContribution[]
  /**
   * Bottom panels: with an area, the ones shown while it is open — its own and those shown everywhere now
   * (reactive when read in a computed); without, every area's.
   */
  bottomPanels(areaId?: string): PanelContribution[]
  mapLayers(): MapContribution[]
  mapControls(): MapContribution[]
  commands(): CommandContribution[]
  /** Where a panel lives: its area and region, or null for an unknown id. */
  findPanel(id: string): { area: AreaDefinition; region: 'side' | 'bottom'; panel: PanelContribution } | null
  /** Run the areas' setup (once); returns what stops them. */
  start(): () => void
}

export function defineArea(area: AreaDefinition): AreaDefinition {
  return area
}

/** A shell with these areas registered (`src/areas.ts` in the app, a test's own list in tests). */
export function createShellWith(areas: Iterable<AreaDefinition>): Shell {
  const shell = createShell()
  for (const area of areas) shell.register(area)
  return shell
}

function ordered<T extends { order?: number }>(items: T[]): T[] {
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => (a.item.order ?? 0) - (b.item.order ?? 0) || a.index - b.index)
    .map(({ item }) => item)
}

export function createShell(): Shell {
  const areas: AreaDefinition[] = []
  const handlers = new Map<ActionName, ActionHandler<never>>()
  let started = false

  function handle<K extends ActionName>(name: K, handler: ActionHandler<K>): () => void {
    if (handlers.has(name)) throw new Error(`the shell action "${name}" already has a handler`)
    handlers.set(name, handler as ActionHandler<never>)
    return () => {
      if (handlers.get(name) === handler) handlers.delete(name)
    }
  }

  const panelIds = (area: AreaDefinition) => [
    ...(area.sidePanels ?? []).map((p) => p.id),
    ...(area.bottomPanels ?? []).map((p) => p.id),
  ]

  const shell: Shell = {
    areas,
    register(area) {
      if (areas.some((a) => a.id === area.id)) throw new Error(`the area "${area.id}" is registered twice`)
      const known = new Set(areas.flatMap(panelIds))
      const clash = panelIds(area).find((id) => known.has(id))
      if (clash) throw new Error(`the panel id "${clash}" is registered twice`)
      // Components are not state: keep Vue from making them reactive.
      for (const list of [area.sidePanels, area.bottomPanels, area.mapLayers, area.mapControls])
        for (const item of list ?? []) markRaw(item.component as object)
      const at = areas.findIndex((a) => (a.order ?? 0) > (area.order ?? 0))
      areas.splice(at < 0 ? areas.length : at, 0, area)
      for (const [name, handler] of Object.entries(area.actions ?? {}))
        handle(name as ActionName, handler as ActionHandler<ActionName>)
    },
    handle,
    async run(name, payload) {
      const handler = handlers.get(name) as ActionHandler<typeof name> | undefined
      if (!handler) throw new Error(`no handler for the shell action "${name}"`)
      await handler(payload)
    },
    sidePanels: (areaId) => ordered(areas.find((a) => a.id === areaId)?.sidePanels ?? []),
    bottomPanels: (areaId) =>
      ordered(
        areas.flatMap((a) =>
          (a.bottomPanels ?? []).filter(
            (p) => areaId === undefined || a.id === areaId || (p.everywhere?.() ?? false),
          ),
        ),
      ),
    mapLayers: () => ordered(areas.flatMap((a) => a.mapLayers ?? [])),
    mapControls: () => ordered(areas.flatMap((a) => a.mapControls ?? [])),
    commands: () => areas.flatMap((a) => a.commands ?? []),
    findPanel(id) {
      for (const area of areas) {
        const side = area.sidePanels?.find((p) => p.id === id)
        if (side) return { area, region: 'side', panel: side }
        const bottom = area.bottomPanels?.find((p) => p.id === id)
        if (bottom) return { area, region: 'bottom', panel: bottom }
      }
      return null
    },
    start() {
      if (started) return () => {}
      started = true
      const stops = areas.map((area) => area.setup?.(shell)).filter((s): s is () => void => !!s)
      return () => {
        stops.forEach((stop) => stop())
        started = false
      }
    },
  }
  return shell
}

/** The shell, provided by the app (main.ts) and by component tests. */
export const shellKey: InjectionKey<Shell> = Symbol('geo-analyst.shell')

export function useShell(): Shell {
  const shell = inject(shellKey)
  if (!shell) throw new Error('useShell() needs the shell provided (app.provide(shellKey, shell))')
  return shell
}
