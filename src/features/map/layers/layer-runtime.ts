import type { LonLatBox } from '../../../geo/extent'

/**
 * What a layer can do that is not data: callbacks its component registers beside the store's entry
 * (the store stays serializable). Keyed by layer id; `useMapLayer` sets and clears them.
 */
export interface LayerBinding {
  /** The values of a field over the layer's features, for classifying and categorizing. */
  values?(field: string): unknown[]
  /** Take the layer off the map (the area hides it; its component unmounts and unregisters it). */
  remove?(): void
  /** Show the layer's attribute table: rows of the features' properties. */
  table?(): { columns: string[]; rows: Array<Record<string, unknown>> }
  /** Open the area's own table panel for it instead (e.g. "Results"). */
  openTable?(): void | Promise<void>
  /**
   * Whether any feature lies in a lon/lat box (the map's view): the legend lists only layers with
   * something in view. `useMapLayer` answers from the layer's vector sources unless the area does.
   */
  hasFeaturesIn?(box: LonLatBox): boolean
}

const bindings = new Map<string, LayerBinding>()

export function bindLayer(id: string, binding: LayerBinding): () => void {
  bindings.set(id, binding)
  return () => {
    if (bindings.get(id) === binding) bindings.delete(id)
  }
}

export function layerBinding(id: string): LayerBinding | undefined {
  return bindings.get(id)
}
