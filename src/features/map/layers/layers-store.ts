import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import { layerStyleSchema, type LayerStyle, type ProjectLayer } from '@contract/index'
import type { LayerDefinition, LayerEntry } from './layer-model'
import { layerBinding } from './layer-runtime'
import { readSavedLayers, saveLayers } from './saved-layers'
import { legendOf, symbolKindsFor } from './symbology'

export { LAYERS_STORAGE_KEY, readSavedLayers } from './saved-layers'

/** What the user chose for a layer: kept while it is off the map, saved in projects. */
export type LayerState = Omit<ProjectLayer, 'id'>

/**
 * Every layer on the map, in one ordered list (top first; the basemap last): what each is, and what the
 * user chose — title, visibility, opacity, style. Layer components register themselves (`useMapLayer`);
 * OpenLayers reads order, opacity, visibility and style from here. Layers the list wants but that are not
 * on the map yet (after a restart, or from a project) are `pending`: their areas are asked to open them.
 */
export const useLayersStore = defineStore('layers', () => {
  const saved = readSavedLayers()
  /** Whether a list was kept from the last run (else the last project may be reopened). */
  const restored = saved.length > 0
  /** Ids top first: layers on the map and pending ones, in the order the user wants. */
  const order = ref<string[]>(saved.map((l) => l.id))
  const states = ref<Record<string, LayerState>>(Object.fromEntries(saved.map(({ id, ...s }) => [id, s])))
  const pending = ref<string[]>(saved.map((l) => l.id))
  const definitions = shallowRef<Record<string, LayerDefinition>>({})
  /** Grows with each layer asked to be shown in full ("Zoom to layer" is the map's business). */
  const attributeTable = ref<string | null>(null)

  const entries = computed<LayerEntry[]>(() => {
    const defs = definitions.value
    const list = order.value.filter((id) => defs[id]).map((id) => entryOf(defs[id]!, states.value[id]))
    return [...list.filter((e) => e.pinned !== 'bottom'), ...list.filter((e) => e.pinned === 'bottom')]
  })
  const pendingLayers = computed<ProjectLayer[]>(() =>
    pending.value.flatMap((id) => {
      const state = states.value[id]
      return state && !definitions.value[id] ? [{ id, ...state }] : []
    }),
  )

  function entryOf(def: LayerDefinition, state: LayerState | undefined): LayerEntry {
    const style = def.defaultStyle === null ? null : (state?.style ?? def.defaultStyle)
    const title = state?.title ?? def.title
    return {
      id: def.id,
      title,
      kind: def.kind,
      area: def.area,
      ...(def.ref === undefined ? {} : { ref: def.ref }),
      ...(def.pinned ? { pinned: def.pinned } : {}),
      geometry: def.geometry,
      fields: def.fields ?? [],
      featureCount: def.featureCount ?? null,
      extent: def.extent ?? null,
      symbolKinds: style ? (def.symbolKinds ?? symbolKindsFor(def.geometry)) : [],
      removable: def.removable ?? false,
      hasTable: def.hasTable ?? false,
      visible: state?.visible ?? true,
      opacity: state?.opacity ?? 1,
      style,
      legend: style ? legendOf(style, def.geometry, title) : (def.legend ?? []),
    }
  }

  function stateOf(id: string): LayerState | undefined {
    return states.value[id]
  }

  function setState(id: string, patch: Partial<LayerState>): void {
    const def = definitions.value[id]
    const current = states.value[id]
    if (!def && !current) return
    const base: LayerState = current ?? {
      title: def!.title,
      kind: def!.kind,
      area: def!.area,
      ...(def!.ref === undefined ? {} : { ref: def!.ref }),
      visible: true,
      opacity: 1,
      style: def!.defaultStyle,
    }
    states.value = { ...states.value, [id]: { ...base, ...patch } }
  }

  /** A layer component puts its layer in the list: at its remembered place, else on top. */
  function register(def: LayerDefinition): void {
    definitions.value = { ...definitions.value, [def.id]: def }
    if (!order.value.includes(def.id))
      order.value = def.pinned === 'bottom' ? [...order.value, def.id] : [def.id, ...order.value]
    if (pending.value.includes(def.id)) pending.value = pending.value.filter((id) => id !== def.id)
    const state = states.value[def.id]
    const style = state?.style ?? def.defaultStyle
    setState(def.id, {
      kind: def.kind,
      area: def.area,
      ...(def.ref === undefined ? {} : { ref: def.ref }),
      style:
        def.defaultStyle === null
          ? null
          : style && layerStyleSchema.safeParse(style).success
            ? style
            : def.defaultStyle,
    })
  }

  /** What changes with the layer's data (fields, extent, count, geometry): the user's choices stay. */
  function describe(def: LayerDefinition): void {
    if (!definitions.value[def.id]) return
    definitions.value = { ...definitions.value, [def.id]: def }
  }

  /** The layer's component went away: it leaves the list; its style is remembered if it comes back. */
  function unregister(id: string): void {
    if (!definitions.value[id]) return
    const { [id]: _gone, ...rest } = definitions.value
    definitions.value = rest
    order.value = order.value.filter((o) => o !== id)
  }

  function setVisible(id: string, visible: boolean): void {
    setState(id, { visible })
  }
  function setOpacity(id: string, opacity: number): void {
    setState(id, { opacity: Math.min(1, Math.max(0, Math.round(opacity * 100) / 100)) })
  }
  function rename(id: string, title: string): void {
    const trimmed = title.trim().slice(0, 200)
    if (trimmed) setState(id, { title: trimmed })
  }
  function setStyle(id: string, style: LayerStyle): void {
    const checked = layerStyleSchema.safeParse(style)
    if (!checked.success) throw new Error(`not a layer style: ${checked.error.issues[0]?.message}`)
    setState(id, { style: checked.data })
  }

  /** Move a layer to a position in the shown list (0 = top); the basemap stays last. */
  function moveTo(id: string, index: number): void {
    const movable = entries.value.filter((e) => e.pinned !== 'bottom').map((e) => e.id)
    const from = movable.indexOf(id)
    if (from < 0) return
    const to = Math.max(0, Math.min(movable.length - 1, index))
    if (to === from) return
    movable.splice(from, 1)
    movable.splice(to, 0, id)
    // Layers not on the map keep their places among the others.
    let next = 0
    const shown = new Set(movable)
    order.value = order.value.map((o) => (shown.has(o) ? movable[next++]! : o))
  }

  function moveBy(id: string, delta: number): void {
    const index = entries.value.findIndex((e) => e.id === id)
    if (index >= 0) moveTo(id, index + delta)
  }

  /** "Remove from map": the area takes it off (its component unregisters it). */
  function remove(id: string): void {
    layerBinding(id)?.remove?.()
  }

  function showTable(id: string | null): void {
    attributeTable.value = id
  }

  /** The list as a project keeps it: layers on the map, top first, then the basemap. */
  function snapshot(): ProjectLayer[] {
    return entries.value.map((e) => ({ id: e.id, ...states.value[e.id]!, title: e.title, style: e.style }))
  }

  /**
   * Take a project's list: its states and order; layers on the map that it does not list are removed
   * (when they can be), and the ones it lists that are not on the map become pending for their areas.
   */
  function applyLayers(layers: readonly ProjectLayer[]): ProjectLayer[] {
    const wanted = new Set(layers.map((l) => l.id))
    for (const entry of entries.value) if (!wanted.has(entry.id) && entry.removable) remove(entry.id)
    // Layers it does not list stay below its own until their areas take them off (or for good, if they cannot).
    const kept = entries.value.filter((e) => !wanted.has(e.id)).map((e) => e.id)
    states.value = { ...states.value, ...Object.fromEntries(layers.map(({ id, ...s }) => [id, s])) }
    order.value = [...layers.map((l) => l.id), ...kept]
    pending.value = layers.filter((l) => !definitions.value[l.id]).map((l) => l.id)
    return pendingLayers.value
  }

  /** A pending layer its area could not bring back leaves the list. */
  function dropPending(id: string): void {
    pending.value = pending.value.filter((p) => p !== id)
    if (!definitions.value[id]) order.value = order.value.filter((o) => o !== id)
  }

  watch([order, states], () => saveLayers(order.value, states.value))

  return {
    restored,
    order,
    states,
    pending,
    definitions,
    entries,
    pendingLayers,
    attributeTable,
    stateOf,
    register,
    describe,
    unregister,
    setVisible,
    setOpacity,
    rename,
    setStyle,
    moveTo,
    moveBy,
    remove,
    showTable,
    snapshot,
    applyLayers,
    dropPending,
  }
})
