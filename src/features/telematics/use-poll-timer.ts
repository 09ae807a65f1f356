import { computed, ref } from 'vue'
import { MAX_POLL_SECONDS, MIN_POLL_SECONDS, POLL_INTERVAL_KEY, storedInterval } from './fleet-rows'

const isHidden = () => typeof document !== 'undefined' && document.visibilityState === 'hidden'

/**
 * When the fleet is polled: every `intervalSeconds` (kept across restarts) while live and the window is
 * shown; hiding the window pauses, showing it polls at once and resumes.
 */
export function usePollTimer(poll: () => Promise<void>) {
  const live = ref(false)
  const hidden = ref(isHidden())
  const intervalSeconds = ref(storedInterval())
  const paused = computed(() => live.value && hidden.value)
  let timer: ReturnType<typeof setTimeout> | null = null

  function schedule(): void {
    if (timer) clearTimeout(timer)
    timer = null
    if (!live.value || hidden.value) return
    timer = setTimeout(() => void tick(), intervalSeconds.value * 1000)
  }

  async function tick(): Promise<void> {
    timer = null
    if (!live.value || hidden.value) return
    await poll()
    schedule()
  }

  /** Poll now and then every `intervalSeconds`; false when it was live already. */
  function start(): boolean {
    if (live.value) return false
    live.value = true
    void tick()
    return true
  }

  function stop(): void {
    live.value = false
    if (timer) clearTimeout(timer)
    timer = null
  }

  function setInterval(seconds: number): void {
    if (!Number.isFinite(seconds)) return
    intervalSeconds.value = Math.min(MAX_POLL_SECONDS, Math.max(MIN_POLL_SECONDS, Math.round(seconds)))
    try {
      globalThis.localStorage?.setItem(POLL_INTERVAL_KEY, String(intervalSeconds.value))
    } catch {
      // Not kept across restarts; it still applies now.
    }
    schedule()
  }

  /** Follow the window's visibility: hidden stops polling, shown polls at once and resumes. */
  function watchVisibility(): () => void {
    if (typeof document === 'undefined') return () => {}
    const onChange = () => {
      hidden.value = isHidden()
      if (hidden.value) schedule()
      else if (live.value) void tick()
    }
    document.addEventListener('visibilitychange', onChange)
    return () => document.removeEventListener('visibilitychange', onChange)
  }

  return { live, hidden, paused, intervalSeconds, start, stop, setInterval, watchVisibility }
}
