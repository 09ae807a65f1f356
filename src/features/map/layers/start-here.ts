import { defineStore } from 'pinia'
import { computed, ref } from 'vue'

/** Where the first run's progress is kept between runs (UI state only, like the layout). */
export const START_HERE_KEY = 'geo-analyst.start-here'

export const START_STEPS = ['dataset', 'join', 'address'] as const
export type StartStep = (typeof START_STEPS)[number]

export interface StartHereState {
  done: StartStep[]
  dismissed: boolean
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null
  }
}

/** The saved progress, or a fresh one where nothing (or something not ours) was saved. */
export function readStartHere(from: Storage | null = storage()): StartHereState {
  let saved: unknown
  try {
    saved = JSON.parse(from?.getItem(START_HERE_KEY) ?? 'null')
  } catch {
    saved = null
  }
  const s = (saved && typeof saved === 'object' ? saved : {}) as Record<string, unknown>
  const done = Array.isArray(s['done'])
    ? START_STEPS.filter((step) => (s['done'] as unknown[]).includes(step))
    : []
  return { done, dismissed: s['dismissed'] === true }
}

/**
 * The first run's "Start here": which of its steps are done, and whether it was dismissed. It is open on a
 * fresh profile until every step is done or the person dismisses it; then it stays gone.
 */
export const useStartHereStore = defineStore('start-here', () => {
  const initial = readStartHere()
  const done = ref<StartStep[]>(initial.done)
  const dismissed = ref(initial.dismissed)
  const open = computed(() => !dismissed.value && START_STEPS.some((s) => !done.value.includes(s)))

  function save(): void {
    try {
      storage()?.setItem(START_HERE_KEY, JSON.stringify({ done: done.value, dismissed: dismissed.value }))
    } catch {
      // Storage refused: the progress holds for this window only.
    }
  }

  function markDone(step: StartStep): void {
    if (!done.value.includes(step))
      done.value = START_STEPS.filter((s) => s === step || done.value.includes(s))
    save()
  }

  function dismiss(): void {
    dismissed.value = true
    save()
  }

  return { done, dismissed, open, markDone, dismiss }
})
