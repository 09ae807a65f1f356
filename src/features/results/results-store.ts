import type { Geometry } from 'geojson'
import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { JoinRun } from '@contract/index'
import { RowTable } from '@contract/gis/row-table'
import { detectGeometry, findGeometryKey } from '../../geo/geometry-value'
import { summarizeGeometries } from '../../geo/results-summary'
import type { JoinRequestInput } from '../join/join-run-store'
import { resultColumns, type ResultColumn } from './results-columns'
import { TableQueryClient } from './table-query-client'

/** From this many rows on, the table's filter and sort run in a Web Worker and rows are never copied. */
export const LARGE_RESULT_ROWS = 20_000
/** The filter of a large result applies this long after the last keystroke. */
export const FILTER_DEBOUNCE_MS = 250

/** Which rows of the result are shown, by index: `has(i)` and how many. */
export interface RowSet {
  has(index: number): boolean
  readonly size: number
}

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
  /** The filter as applied: `filter` after the debounce. */
  const appliedFilter = ref('')
  let debounce: ReturnType<typeof setTimeout> | null = null
  // Small results filter as the person types; large ones after a pause (each filter is a pass over every row).
  watch(filter, (text) => {
    if (debounce) clearTimeout(debounce)
    if (all.value.length < LARGE_RESULT_ROWS) appliedFilter.value = text
    else debounce = setTimeout(() => (appliedFilter.value = text), FILTER_DEBOUNCE_MS)
  })
  const sortField = ref<string | null>(null)
  const sortOrder = ref<SortOrder>(0)
  const selectedIndex = ref<number | null>(null)

  /** The rows as the core handed them on (the provider's JSON), read in place. */
  const table = computed(() => (run.value ? RowTable.read(run.value.rowsJson) : null))
  const all = computed(() => table.value?.rows() ?? [])
  const columns = computed<ResultColumn[]>(() =>
    run.value ? resultColumns(all.value, run.value.columns) : [],
  )
  /**
   * The result's rows as the table shows them, each knowing its index (`__i`, set on the row itself: a copy
   * of a million rows would cost more than the whole answer's parse).
   */
  const rows = computed<ResultRow[]>(() => {
    const list = all.value as Array<Record<string, string>>
    for (let i = 0; i < list.length; i++) list[i]!['__i'] = String(i)
    return list as ResultRow[]
  })
  const geometryKey = computed(() =>
    run.value
      ? findGeometryKey(
          all.value,
          columns.value.map((c) => c.key),
        )
      : null,
  )
  const geometryColumn = computed(() => columns.value.find((c) => c.key === geometryKey.value) ?? null)
  /** The geometry of each result row (by index), null where the row holds none. */
  const geometries = computed<Array<Geometry | null>>(() => {
    const key = geometryKey.value
    if (!run.value || !key) return []
    const list = all.value
    const out = new Array<Geometry | null>(list.length)
    for (let i = 0; i < list.length; i++) {
      const v = list[i]![key]
      out[i] = v ? (detectGeometry(v)?.geometry ?? null) : null
    }
    return out
  })

  /** Columns whose values read as numbers (a sample of up to 5,000 non-empty values), once per result. */
  const numericKeys = computed(() => {
    const list = all.value
    const keys = new Set<string>()
    for (const c of columns.value) {
      let seen = 0
      let numeric = true
      for (let i = 0; i < list.length && seen < 5000; i++) {
        const v = list[i]![c.key] ?? ''
        if (v === '') continue
        seen++
        if (!Number.isFinite(Number(v))) {
          numeric = false
          break
        }
      }
      if (numeric) keys.add(c.key)
    }
    return keys
  })

  // Large results: the filter and sort run in a worker, which answers the positions to show.
  let query: TableQueryClient | null = null
  const order = shallowRef<Uint32Array | null>(null)
  const querying = ref(false)
  const large = computed(() => all.value.length >= LARGE_RESULT_ROWS)
  watch(all, (next) => {
    query?.dispose()
    query = null
    order.value = null
    if (next.length >= LARGE_RESULT_ROWS)
      query = new TableQueryClient(
        next,
        columns.value.map((c) => c.key),
      )
  })
  let querySeq = 0
  watch([appliedFilter, sortField, sortOrder], async ([text, field, direction]) => {
    if (!query) return
    const seq = ++querySeq
    if (!text.trim() && (!field || direction === 0)) {
      order.value = null
      return
    }
    querying.value = true
    const answer = await query.query({ text, sortKey: field, order: direction })
    if (seq !== querySeq) return
    order.value = answer
    querying.value = false
  })

  /** The rows the table shows: filtered (any column contains the text, case aside), then sorted. */
  const visibleRows = computed<ResultRow[]>(() => {
    if (large.value) {
      const positions = order.value
      const all = rows.value
      return positions ? Array.from(positions, (i) => all[i]!) : all
    }
    const text = appliedFilter.value.trim().toLowerCase()
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
  /** The shown rows by index, as a mask (a Set of a million numbers costs more than the rows). */
  const visibleIndices = computed<RowSet>(() => {
    const total = all.value.length
    const shown = visibleRows.value
    if (shown === rows.value) return { has: (i: number) => i >= 0 && i < total, size: total }
    const mask = new Uint8Array(total)
    for (const r of shown) mask[Number(r.__i)] = 1
    return { has: (i: number) => mask[i] === 1, size: shown.length }
  })

  const summary = computed(() => {
    const shown = visibleIndices.value
    const all = geometries.value
    return summarizeGeometries(shown.size === all.length ? all : all.filter((_, i) => shown.has(i)))
  })

  function show(next: JoinRun, sent: JoinRequestInput | null, from: 'run' | 'history' = 'run'): void {
    run.value = next
    request.value = sent
    origin.value = from
    filter.value = ''
    appliedFilter.value = ''
    sortField.value = null
    sortOrder.value = 0
    selectedIndex.value = null
  }

  function select(index: number | null): void {
    selectedIndex.value = index
  }

  function clear(): void {
    query?.dispose()
    query = null
    run.value = null
    request.value = null
    selectedIndex.value = null
  }

  return {
    run,
    table,
    request,
    origin,
    filter,
    appliedFilter,
    querying,
    numericKeys,
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
