import { onUnmounted, ref, watch, type Ref, type WatchSource } from 'vue'
import type { GeoError, RequestPreview, Result } from '@contract/index'

/** How long the form must be still before its request is previewed again. */
export const PREVIEW_DEBOUNCE_MS = 300

/**
 * The request a composer would send, shown as the person edits it: `ask` again each time `source` changes
 * (deeply), once the form has been still for `PREVIEW_DEBOUNCE_MS`; an answer older than the latest ask is
 * dropped, and nothing is asked after the component is gone.
 */
export function useRequestPreview(
  source: WatchSource,
  ask: () => Promise<Result<RequestPreview>>,
): { preview: Ref<RequestPreview | null>; previewError: Ref<GeoError | null> } {
  const preview = ref<RequestPreview | null>(null)
  const previewError = ref<GeoError | null>(null)
  let timer: ReturnType<typeof setTimeout> | null = null
  let seq = 0

  async function refresh(): Promise<void> {
    const mine = ++seq
    const result = await ask()
    if (mine !== seq) return
    preview.value = result.ok ? result.value : null
    previewError.value = result.ok ? null : result.error
  }

  watch(
    source,
    () => {
      if (timer) clearTimeout(timer)
      timer = setTimeout(() => void refresh(), PREVIEW_DEBOUNCE_MS)
    },
    { immediate: true, deep: true },
  )
  onUnmounted(() => {
    if (timer) clearTimeout(timer)
    seq++
  })
  return { preview, previewError }
}
