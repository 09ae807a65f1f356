import type BaseLayer from 'ol/layer/Base'
import type BaseVectorLayer from 'ol/layer/BaseVector'
import HeatmapLayer from 'ol/layer/Heatmap'
import VectorLayer from 'ol/layer/Vector'
import type VectorSource from 'ol/source/Vector'
import type { StyleFunction } from 'ol/style/Style'
import { computed, onMounted, onUnmounted, ref, watch, type ComputedRef } from 'vue'
import type { LayerStyle } from '@contract/index'
import { useOlMap } from '../view/map-context'
import { contentChanged, sourcesHaveFeaturesIn, vectorSourcesOf } from './in-view'
import type { LayerDefinition, LayerEntry } from './layer-model'
import { bindLayer, layerBinding, type LayerBinding } from './layer-runtime'
import { useLayersStore } from './layers-store'
import { heatmapGradient, heatmapWeight, olLabelFunction, olStyleFunction } from './ol-style'

/** The list's top layer sits at this z-index and each one below it a step lower (above unlisted layers). */
export const LAYER_Z_BASE = 100
const Z_STEP = 4

export interface MapLayerOptions {
  /** What the layer is; reactive. Null keeps it out of the list (e.g. no results yet). */
  definition: () => LayerDefinition | null
  /** The OpenLayers layers it draws with (put on the map here, in the list's order). */
  layers: readonly BaseLayer[]
  /**
   * The vector layer to draw with the entry's style, and its source (heatmap and labels read it too).
   * `decorate` wraps the style function, e.g. to draw the selected feature in a highlight. A layer without
   * a vector source (vector tiles) is styled the same, without heatmap or separate labels.
   */
  styled?: {
    layer: BaseVectorLayer<never, never, never>
    source?: VectorSource
    decorate?: (base: StyleFunction) => StyleFunction
  }
  /** What the layer can do beyond data: values for classifying, remove, its table. */
  binding?: LayerBinding
  /**
   * Which of `layers` draw now (reactive), when they take turns — e.g. a canvas layer for a few features
   * and a WebGL one for many; the others stay hidden. All of them by default.
   */
  active?: () => readonly BaseLayer[]
}

/**
 * Put a render-less component's OpenLayers layers on the map as one entry of the layer list, and keep
 * them following it: z-order from the list's order, visibility, opacity and — for `styled` layers — the
 * style (single, categorized, graduated, heatmap) and decluttered labels. Call it in `setup`.
 */
export function useMapLayer(options: MapLayerOptions): { entry: ComputedRef<LayerEntry | undefined> } {
  const map = useOlMap()
  const store = useLayersStore()
  const current = ref<string | null>(null)
  let unbind: (() => void) | null = null
  let heatmap: HeatmapLayer | null = null
  let labels: VectorLayer | null = null
  let mounted = false
  // What the legend asks: whether the layer's features reach into the view (its vector sources).
  const sources = vectorSourcesOf(options.layers)
  if (options.styled?.source && !sources.includes(options.styled.source)) sources.push(options.styled.source)
  const binding: LayerBinding = {
    ...(sources.length > 0 ? { hasFeaturesIn: (box) => sourcesHaveFeaturesIn(sources, box) } : {}),
    ...options.binding,
  }

  const entry = computed(() => {
    const id = current.value
    return id ? store.entries.find((e) => e.id === id) : undefined
  })

  function syncDefinition(def: LayerDefinition | null): void {
    if (def && current.value && def.id !== current.value) leave()
    if (!def) {
      leave()
      return
    }
    if (current.value === def.id) store.describe(def)
    else {
      current.value = def.id
      store.register(def)
      unbind = bindLayer(def.id, binding)
    }
  }

  function leave(): void {
    const id = current.value
    if (!id) return
    unbind?.()
    unbind = null
    store.unregister(id)
    current.value = null
  }

  function all(): BaseLayer[] {
    return [...options.layers, ...(heatmap ? [heatmap] : []), ...(labels ? [labels] : [])]
  }

  function applyStyle(style: LayerStyle | null, geometry: LayerEntry['geometry']): void {
    const styled = options.styled
    if (!styled || !style) return
    const base = olStyleFunction(style, geometry)
    styled.layer.setStyle(styled.decorate ? styled.decorate(base) : base)
    const s = style.symbol
    if (s.kind === 'heatmap' && styled.source) {
      const values = s.weightField ? (layerBinding(current.value ?? '')?.values?.(s.weightField) ?? []) : []
      if (!heatmap) {
        heatmap = new HeatmapLayer({
          source: styled.source as never,
          properties: { name: `${current.value}:heatmap` },
        })
        if (mounted) map.addLayer(heatmap)
      }
      heatmap.setGradient(heatmapGradient(style))
      heatmap.setRadius(s.radius)
      heatmap.setBlur(s.blur)
      heatmap.setWeight(heatmapWeight(s.weightField, values) as never)
    } else if (heatmap) {
      map.removeLayer(heatmap)
      heatmap.dispose()
      heatmap = null
    }
    if (style.labels && styled.source) {
      if (!labels) {
        labels = new VectorLayer({
          source: styled.source,
          declutter: true,
          properties: { name: `${current.value}:labels` },
        })
        if (mounted) map.addLayer(labels)
      }
      labels.setStyle(olLabelFunction(style.labels, geometry))
    } else if (labels) {
      map.removeLayer(labels)
      labels = null
    }
  }

  function applyPresentation(e: LayerEntry | undefined): void {
    if (!e) return
    const index = store.entries.indexOf(e)
    const z = LAYER_Z_BASE + (store.entries.length - index) * Z_STEP
    // A heatmap replaces the layer's own drawing (a layer without a vector source has none: it stays).
    const heat = e.style?.symbol.kind === 'heatmap' && heatmap !== null
    const active = options.active?.() ?? options.layers
    for (const layer of options.layers) {
      if (!e.pinned) layer.setZIndex(z)
      layer.setOpacity(e.opacity)
      layer.setVisible(e.visible && !(heat && layer === options.styled?.layer) && active.includes(layer))
    }
    if (heatmap) {
      heatmap.setZIndex(z)
      heatmap.setOpacity(e.opacity)
      heatmap.setVisible(e.visible)
    }
    if (labels) {
      labels.setZIndex(z + 2)
      labels.setOpacity(e.opacity)
      labels.setVisible(e.visible)
    }
  }

  watch(options.definition, syncDefinition, { immediate: true })
  watch(
    () => [entry.value?.style, entry.value?.geometry] as const,
    ([style, geometry]) => {
      if (geometry) applyStyle(style ?? null, geometry)
      applyPresentation(entry.value)
    },
    { immediate: true },
  )
  watch(
    () => [entry.value, store.entries.length, options.active?.()] as const,
    () => applyPresentation(entry.value),
  )

  onMounted(() => {
    mounted = true
    for (const source of sources) source.on('change', contentChanged)
    for (const layer of all()) map.addLayer(layer)
    applyPresentation(entry.value)
  })
  onUnmounted(() => {
    mounted = false
    for (const source of sources) source.un('change', contentChanged)
    for (const layer of all()) map.removeLayer(layer)
    heatmap?.dispose()
    leave()
  })
  return { entry }
}
