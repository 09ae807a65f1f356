import type { Geometry } from 'geojson'
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { JoinRun } from '@contract/index'
import { detectGeometry, findGeometryKey } from '../../geo/geometry-value'
import { summarizeGeometries } from '../../geo/results-summary'
import type { JoinRequestInput } from '../join/join-run-store'
import { resultColumns, type ResultColumn } from './results-columns'

/** A row of the table: the result's strings plus its index in the result (`__i`). */
export type ResultRow = Record<string, string> & { __i: string }

export type SortOrder = 1 | -1 | 0

function compareValues(a: string, b: string): number {
  const na = Number(a)
  const nb = Number(b)
  if (a.trim() !== '' && b.trim() !== '' && Number.isFinite(na) && Number.isFinite(nb)) return na - nb
  return a.localeCompare(b)
}

/** The result on show: rows, columns, geometries found in the values, filter, sort and selection. */
export const useResultsStore = defineStore('results', () => {
  const run = shallowRef<JoinRun | null>(null)
  const request = shallowRef<JoinRequestInput | null>(null)
  /** Where the result came from: a run just now, or a run reopened from history. */
  const origin = ref<'run' | 'history'>('run')
  const filter = ref('')
  const sortField = ref<string | null>(null)
  const sortOrder = ref<SortOrder>(0)
  const selectedIndex = ref<number | null>(null)

  const columns = computed<ResultColumn[]>(() => (run.value ? resultColumns(run.value) : []))
  const rows = computed<ResultRow[]>(
    () => run.value?.rows.map((r, i) => ({ ...r, __i: String(i) }) as ResultRow) ?? [],
  )
  const geometryKey = computed(() =>
    run.value
      ? findGeometryKey(
          run.value.rows,
          columns.value.map((c) => c.key),
        )
      : null,
  )
  const geometryColumn = computed(() => columns.value.find((c) => c.key === geometryKey.value) ?? null)
  /** The geometry of each result row (by index), null where the row holds none. */
  const geometries = computed<Array<Geometry | null>>(() => {
    const key = geometryKey.value
    if (!run.value || !key) return []
    return run.value.rows.map((r) => {
      const v = r[key]
      return v ? (detectGeometry(v)?.geometry ?? null) : null
    })
  })

  /** The rows the table shows: filtered (any column contains the text, case aside), then sorted. */
  const visibleRows = computed<ResultRow[]>(() => {
    const text = filter.value.trim().toLowerCase()
    const keys = columns.value.map((c) => c.key)
    let out = text
      ? rows.value.filter((r) => keys.some((k) => (r[k] ?? '').toLowerCase().includes(text)))
      : rows.value
    const field = sortField.value
    if (field && sortOrder.value !== 0) {
      const order = sortOrder.value
      out = [...out].sort((a, b) => order * compareValues(a[field] ?? '', b[field] ?? ''))
    }
    return out
  })
  const visibleIndices = computed(() => new Set(visibleRows.value.map((r) => Number(r.__i))))

  const summary = computed(() => {
    const shown = visibleIndices.value
    return summarizeGeometries(geometries.value.filter((_, i) => shown.has(i)))
  })

  function show(next: JoinRun, sent: JoinRequestInput | null, from: 'run' | 'history' = 'run'): void {
    run.value = next
    request.value = sent
    origin.value = from
    filter.value = ''
    sortField.value = null
    sortOrder.value = 0
    selectedIndex.value = null
  }

  function select(index: number | null): void {
    selectedIndex.value = index
  }

  function clear(): void {
    run.value = null
    request.value = null
    selectedIndex.value = null
  }

  return {
    run,
    request,
    origin,
    filter,
    sortField,
    sortOrder,
    selectedIndex,
    columns,
    rows,
    geometryKey,
    geometryColumn,
    geometries,
    visibleRows,
    visibleIndices,
    summary,
    show,
    select,
    clear,
  }
})
