import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { GeoError, JoinRun } from '@contract/index'
import { geo, geoEvents } from '../../../bridge'
import type { DrawnCollection } from './drawn-shapes'
import type { JoinParamsInput } from './join-form-store'

const NO_ROWS = new TextEncoder().encode('[]')

/** `unknown`: a saving run was cancelled (or its answer lost) after it was sent, and the dataset list did not say. */
export type RunPhase =
  'queued' | 'sending' | 'waiting' | 'receiving' | 'done' | 'cancelled' | 'unknown' | 'failed'

/** What was sent, so a result can be saved (re-run with saveAsNewDataset) or a failure retried. */
export interface JoinRequestInput {
  params: JoinParamsInput
  body?: DrawnCollection
}

export interface FinishedRun {
  request: JoinRequestInput
  result: JoinRun
}

/** A deep copy without reactive proxies (structuredClone refuses them). */
export function plainCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}

let counter = 0
function newRunId(): string {
  const random =
    typeof crypto !== 'undefined' && 'randomUUID' in crypto
      ? crypto.randomUUID().replace(/-/g, '').slice(0, 12)
      : Math.random().toString(36).slice(2, 14)
  return `run-${Date.now().toString(36)}-${(counter++).toString(36)}-${random}`
}

/** One join at a time: its progress, elapsed time, cancel, and the failure of the last attempt. */
export const useJoinRunStore = defineStore('join-run', () => {
  const runId = ref<string | null>(null)
  const phase = ref<RunPhase | null>(null)
  const startedAt = ref(0)
  const elapsedMs = ref(0)
  const bytes = ref<number | null>(null)
  const error = ref<GeoError | null>(null)
  const lastRequest = ref<JoinRequestInput | null>(null)
  const cancelled = ref(false)
  /** The last run's answer, when it succeeded. */
  const lastResult = ref<JoinRun | null>(null)
  const running = computed(() => runId.value !== null)
  let timer: ReturnType<typeof setInterval> | null = null
  let stopProgress: (() => void) | null = null
  const finishedListeners = new Set<(run: FinishedRun) => void>()
  const settledListeners = new Set<() => void>()

  function onFinished(listener: (run: FinishedRun) => void): () => void {
    finishedListeners.add(listener)
    return () => finishedListeners.delete(listener)
  }
  /** After every attempt, whatever its outcome (history refreshes here). */
  function onSettled(listener: () => void): () => void {
    settledListeners.add(listener)
    return () => settledListeners.delete(listener)
  }

  function stopTimers(): void {
    if (timer) clearInterval(timer)
    timer = null
    stopProgress?.()
    stopProgress = null
  }

  async function run(request: JoinRequestInput): Promise<JoinRun | null> {
    if (running.value) return null
    const id = newRunId()
    runId.value = id
    phase.value = 'queued'
    error.value = null
    cancelled.value = false
    lastResult.value = null
    bytes.value = null
    lastRequest.value = plainCopy(request)
    startedAt.value = Date.now()
    elapsedMs.value = 0
    timer = setInterval(() => {
      elapsedMs.value = Math.max(elapsedMs.value, Date.now() - startedAt.value)
    }, 100)
    stopProgress = geoEvents.on('job.progress', (event) => {
      if (event.runId !== id) return
      phase.value = event.phase
      elapsedMs.value = Math.max(elapsedMs.value, event.elapsedMs)
      if (event.bytes !== undefined) bytes.value = event.bytes
    })
    try {
      const sent = plainCopy(request)
      const result = await geo['gis.join']({
        runId: id,
        params: sent.params,
        ...(sent.body ? { body: sent.body } : {}),
      })
      if (result.ok) {
        phase.value = 'done'
        // What the run came to, without its rows (the results store holds those).
        lastResult.value = { ...result.value, rowsJson: NO_ROWS }
        finishedListeners.forEach((l) => l({ request, result: result.value }))
        return result.value
      }
      // A run that saves nothing and was cancelled has a known outcome: nothing happened. A saving run's
      // outcome after a cancel is what the core's check of the dataset list said: shown, never hidden.
      const saves = request.params['saveAsNewDataset'] === true
      if (cancelled.value && !saves) {
        phase.value = 'cancelled'
        return null
      }
      phase.value = result.error.failureClass === 'unknown-outcome' ? 'unknown' : 'failed'
      error.value = result.error
      return null
    } finally {
      elapsedMs.value = Math.max(elapsedMs.value, Date.now() - startedAt.value)
      stopTimers()
      runId.value = null
      settledListeners.forEach((l) => l())
    }
  }

  async function cancel(): Promise<void> {
    const id = runId.value
    if (!id) return
    cancelled.value = true
    const result = await geo['gis.cancelJoin']({ runId: id })
    if (!result.ok) {
      cancelled.value = false
      error.value = result.error
    }
  }

  function retry(): Promise<JoinRun | null> {
    return lastRequest.value ? run(lastRequest.value) : Promise.resolve(null)
  }

  return {
    runId,
    phase,
    elapsedMs,
    bytes,
    error,
    lastRequest,
    cancelled,
    lastResult,
    running,
    run,
    cancel,
    retry,
    onFinished,
    onSettled,
  }
})
