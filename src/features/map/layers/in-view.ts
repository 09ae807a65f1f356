import { intersects } from 'ol/extent'
import type BaseLayer from 'ol/layer/Base'
import { transformExtent } from 'ol/proj'
import VectorSource from 'ol/source/Vector'
import { ref } from 'vue'
import { boxesIntersect, type LonLatBox } from '../../../geo/extent'
import type { LayerEntry } from './layer-model'
import { layerBinding } from './layer-runtime'

/**
 * Whether a layer has something in the map's view: what the legend lists. OpenLayers sources are not
 * reactive, so `contentTick` grows (at most once per task) when a layer's features change, and readers
 * that depend on what is in view read it.
 */
export const contentTick = ref(0)
let tickQueued = false

/** Say that some layer's features changed (coalesced: one tick for a burst of changes). */
export function contentChanged(): void {
  if (tickQueued) return
  tickQueued = true
  queueMicrotask(() => {
    tickQueued = false
    contentTick.value++
  })
}

/** The vector sources of OpenLayers layers (a clustered source counts through the points it clusters). */
export function vectorSourcesOf(layers: readonly BaseLayer[]): VectorSource[] {
  const sources = new Set<VectorSource>()
  for (const layer of layers) {
    const source = (layer as BaseLayer & { getSource?: () => unknown }).getSource?.()
    if (source instanceof VectorSource) sources.add(source)
  }
  return [...sources]
}

/** The view's box and its copies one world east and west (EPSG:3857), for features drawn on either side. */
export function viewExtents(view: LonLatBox): number[][] {
  const width = view[2] - view[0]
  if (width >= 360) return [transformExtent([-180, view[1], 180, view[3]], 'EPSG:4326', 'EPSG:3857')]
  return [-360, 0, 360]
    .map((shift): LonLatBox => [view[0] + shift, view[1], view[2] + shift, view[3]])
    .filter((b) => b[2] >= -180 && b[0] <= 180)
    .map((b) =>
      transformExtent([Math.max(-180, b[0]), b[1], Math.min(180, b[2]), b[3]], 'EPSG:4326', 'EPSG:3857'),
    )
}

/** Whether any of these sources has a feature whose extent meets the view. */
export function sourcesHaveFeaturesIn(sources: readonly VectorSource[], view: LonLatBox): boolean {
  const extents = viewExtents(view)
  return sources.some((source) => {
    // A source kept as a plain collection (no spatial index): each feature's extent, first hit wins.
    const collection = source.getFeaturesCollection()
    if (collection)
      return collection.getArray().some((feature) => {
        const geometry = feature.getGeometry()
        return !!geometry && extents.some((extent) => intersects(geometry.getExtent(), extent))
      })
    return extents.some((extent) => source.forEachFeatureInExtent(extent, () => true) === true)
  })
}

/**
 * Whether a layer of the list has something in the view: its own answer (features of its sources), else
 * its extent meeting the view; a layer that says neither counts as shown.
 */
export function layerInView(entry: LayerEntry, view: LonLatBox): boolean {
  const probe = layerBinding(entry.id)?.hasFeaturesIn
  if (probe) return probe(view)
  return entry.extent ? boxesIntersect(view, entry.extent) : true
}
