import type { FeatureCollection } from 'geojson'
import { ref, type ShallowRef } from 'vue'
import type { GeoError } from '@contract/index'
import { geo } from '../../../bridge'
import { fromStored, type DrawnShape } from './shapes'

export const AUTOSAVE_DELAY_MS = 400

/**
 * The drawings' autosave and their one load: `scheduleSave` after every change (debounced), `flush` now
 * (pagehide); a failed save keeps everything in memory and tries again on the next change. `load` reads the
 * saved drawings once; shapes drawn before its answer are kept after them.
 */
export function useDrawingsSync(shapes: ShallowRef<DrawnShape[]>) {
  const loaded = ref(false)
  const loadError = ref<GeoError | null>(null)
  const saveError = ref<GeoError | null>(null)
  const savedAt = ref<string | null>(null)

  let saveTimer: ReturnType<typeof setTimeout> | null = null
  let dirty = false
  let saving: Promise<void> = Promise.resolve()

  function scheduleSave(): void {
    dirty = true
    if (saveTimer) clearTimeout(saveTimer)
    saveTimer = setTimeout(() => void flush(), AUTOSAVE_DELAY_MS)
  }

  /** Save now if anything changed since the last good save (pagehide, or the debounce firing). */
  function flush(): Promise<void> {
    if (saveTimer) clearTimeout(saveTimer)
    saveTimer = null
    if (!dirty) return saving
    dirty = false
    const snapshot: FeatureCollection = { type: 'FeatureCollection', features: shapes.value }
    saving = saving.then(async () => {
      const result = await geo['drawings.save']({ collection: snapshot as never })
      if (result.ok) {
        saveError.value = null
        savedAt.value = result.value.savedAt
      } else {
        saveError.value = result.error
        // Keep everything in memory; the next change (or pagehide) tries again.
        dirty = true
      }
    })
    return saving
  }

  /** Load the saved drawings once (later calls wait for the same load). */
  let loading: Promise<void> | null = null
  function load(): Promise<void> {
    loading ??= loadOnce()
    return loading
  }

  async function loadOnce(): Promise<void> {
    const result = await geo['drawings.load']({})
    loaded.value = true
    if (!result.ok) {
      loadError.value = result.error
      return
    }
    loadError.value = null
    const fromDisk = fromStored(result.value.collection.features, new Set(shapes.value.map((s) => s.id)))
    const local = shapes.value
    shapes.value = [...fromDisk, ...local]
    if (local.length > 0) scheduleSave()
  }

  return { loaded, loadError, saveError, savedAt, scheduleSave, flush, load }
}
