import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { GeoError, RunSummary } from '@contract/index'
import { geo } from '../../../bridge'
import type { DrawnCollection } from '../composer/drawn-shapes'
import { useJoinFormStore } from '../composer/join-form-store'
import { useJoinRunStore, type JoinRequestInput } from '../composer/join-run-store'
import { useResultsStore } from '../results/results-store'

/** Run history (runs.list, newest first): reopen a kept result, re-run, copy into the composer. */
export const useHistoryStore = defineStore('history', () => {
  const runs = ref<RunSummary[]>([])
  const error = ref<GeoError | null>(null)
  const notice = ref('')
  /** The list has been asked for once (until then the panel says it is loading, not that there are none). */
  const loaded = ref(false)

  async function load(): Promise<void> {
    const result = await geo['runs.list']({})
    loaded.value = true
    if (result.ok) {
      runs.value = result.value.runs
      error.value = null
    } else error.value = result.error
  }

  function requestOf(run: RunSummary): JoinRequestInput {
    return {
      params: { ...run.params },
      ...(run.body ? { body: run.body as DrawnCollection } : {}),
    }
  }

  async function reopen(id: string): Promise<boolean> {
    const result = await geo['runs.get']({ id })
    if (!result.ok) {
      error.value = result.error
      return false
    }
    if (!result.value.result) {
      notice.value = 'This run kept no result to reopen; re-run it instead.'
      return false
    }
    notice.value = ''
    useResultsStore().show(result.value.result, requestOf(result.value.run), 'history')
    return true
  }

  async function rerun(run: RunSummary): Promise<void> {
    notice.value = ''
    await useJoinRunStore().run(requestOf(run))
  }

  function copyToComposer(run: RunSummary): void {
    useJoinFormStore().loadParams(run.params, run.body as DrawnCollection | undefined)
    notice.value = 'Copied into the composer.'
  }

  return { runs, error, notice, loaded, load, reopen, rerun, copyToComposer }
})
