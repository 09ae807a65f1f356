import { computed, type ComputedRef } from 'vue'
import { useDrawingsStore } from '../draw/drawings-store'

/**
 * The drawn shapes as the join reads them, from the drawing store (`collection`, `selectedCollection()`
 * and per-shape `problems`, whose messages name the shape). Read defensively: a shape without a
 * problem entry is fine; anything the store does not give is an empty collection.
 */

export interface DrawnCollection {
  type: 'FeatureCollection'
  features: Array<{
    type: 'Feature'
    id?: string | number
    properties: Record<string, unknown> | null
    geometry: { type: string; [key: string]: unknown } | null
  }>
}

export interface DrawnShapes {
  all: ComputedRef<DrawnCollection>
  selected: ComputedRef<DrawnCollection>
  /** Problems (e.g. self-intersection) of the shapes in `collection`, each naming its shape. */
  problemsOf(collection: DrawnCollection): string[]
}

const EMPTY: DrawnCollection = { type: 'FeatureCollection', features: [] }

function asCollection(value: unknown): DrawnCollection {
  if (value && typeof value === 'object' && (value as { type?: unknown }).type === 'FeatureCollection') {
    if (Array.isArray((value as { features?: unknown }).features)) return value as DrawnCollection
  }
  return EMPTY
}

export function useDrawnShapes(): DrawnShapes {
  const store = useDrawingsStore()
  const all = computed(() => asCollection(store.collection))
  const selected = computed(() => {
    // Depend on the selection explicitly: selectedCollection() is a plain function.
    void store.selectedIds.length
    return asCollection(store.selectedCollection())
  })
  function problemsOf(collection: DrawnCollection): string[] {
    const byId: Record<string, string[] | undefined> = store.problems ?? {}
    return collection.features.flatMap((f) => (f.id === undefined ? [] : (byId[String(f.id)] ?? [])))
  }
  return { all, selected, problemsOf }
}
