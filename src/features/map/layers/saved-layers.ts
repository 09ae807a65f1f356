import { projectLayerSchema, type ProjectLayer } from '@contract/index'
import { withCurrentAreaIds } from '@contract/map/renamed-areas'

/** Where the layer list is kept between runs (styles, order, visibility; no data). */
export const LAYERS_STORAGE_KEY = 'geo-analyst.layers'
const STORAGE_VERSION = 1
/** Layers remembered (styles of layers no longer shown, positions of layers not back yet). */
const MAX_REMEMBERED = 200

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null
  }
}

/** The saved list (top first), or nothing where it is missing or not ours; each layer checked on its own. */
export function readSavedLayers(from: Storage | null = storage()): ProjectLayer[] {
  try {
    const saved = JSON.parse(from?.getItem(LAYERS_STORAGE_KEY) ?? 'null') as {
      version?: unknown
      layers?: unknown
    } | null
    if (!saved || saved.version !== STORAGE_VERSION || !Array.isArray(saved.layers)) return []
    // A list kept before an area took its name now (`fleet` layers) brings back the same layers.
    return withCurrentAreaIds(
      saved.layers.flatMap((l) => {
        const checked = projectLayerSchema.safeParse(l)
        return checked.success ? [checked.data] : []
      }),
    )
  } catch {
    return []
  }
}

/** Keep the list (top first) for the next run: the first MAX_REMEMBERED layers' choices, no data. */
export function saveLayers(
  order: readonly string[],
  states: Readonly<Record<string, Omit<ProjectLayer, 'id'>>>,
  to: Storage | null = storage(),
): void {
  const layers = order.slice(0, MAX_REMEMBERED).flatMap((id) => (states[id] ? [{ id, ...states[id] }] : []))
  try {
    to?.setItem(LAYERS_STORAGE_KEY, JSON.stringify({ version: STORAGE_VERSION, layers }))
  } catch {
    // Full or disabled storage: the list lives for this window only.
  }
}
