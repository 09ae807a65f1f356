import type { Geometry } from 'geojson'
import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { JoinRun } from '@contract/index'
import { detectGeometry, findGeometryKey } from '../../../geo/geometry-value'
import { pointColumn, summarizePoints, type RowSet } from './result-points'
import { pointsReadOnArrival, readRows } from './rows-on-arrival'
import { summarizeGeometries } from '../../../geo/results-summary'
import type { JoinRequestInput } from '../composer/join-run-store'
import { numericColumnKeys, resultColumns, type ResultColumn } from './results-columns'
import { compareValues, ResultRowList, type ResultRow, type SortOrder } from './result-row-list'
import { TableQueryClient } from './table-query-client'

/** From this many rows on, the table's filter and sort run in a Web Worker and rows are never copied. */
export const LARGE_RESULT_ROWS = 20_000
/** The filter of a large result applies this long after the last keystroke. */
export const FILTER_DEBOUNCE_MS = 250

export { ResultRowList, type ResultRow, type SortOrder } from './result-row-list'

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
    if (total.value < LARGE_RESULT_ROWS) appliedFilter.value = text
    else debounce = setTimeout(() => (appliedFilter.value = text), FILTER_DEBOUNCE_MS)
  })
  const sortField = ref<string | null>(null)
  const sortOrder = ref<SortOrder>(0)
  const selectedIndex = ref<number | null>(null)

  /** The rows as the core handed them on (the provider's JSON), read in place: one pass, no row objects. */
  const table = computed(() => {
    const r = run.value
    return r ? readRows(r.rowsJson, r.rowCount) : null
  })
  const total = computed(() => table.value?.length ?? 0)
  const large = computed(() => total.value >= LARGE_RESULT_ROWS)
  /** Small results: every row made once (the filter reads them all as the person types). */
  const made = computed<ResultRow[] | null>(() => {
    const t = table.value
    if (!t || large.value) return null
    const list = t.rows() as ResultRow[]
    for (let i = 0; i < list.length; i++) list[i]!.__i = String(i)
    return list
  })
  /** Row `index` of the result as the table shows it, knowing its index (`__i`). */
  function rowAt(index: number): ResultRow {
    const ready = made.value?.[index]
    if (ready) return ready
    const row = (table.value?.row(index) ?? {}) as ResultRow
    row.__i = String(index)
    return row
  }

  const columns = computed<ResultColumn[]>(() =>
    run.value && table.value ? resultColumns(table.value.keys, run.value.columns) : [],
  )
  /** The result's rows, in its order. */
  const rows = computed(() => new ResultRowList(rowAt, total.value, null))
  const geometryKey = computed(() => {
    const t = table.value
    if (!t) return null
    return findGeometryKey(
      (key) => ({
        *[Symbol.iterator]() {
          for (let i = 0; i < t.length; i++) if (t.has(i, key)) yield t.cell(i, key)
        },
      }),
      columns.value.map((c) => c.key),
    )
  })
  const geometryColumn = computed(() => columns.value.find((c) => c.key === geometryKey.value) ?? null)
  /**
   * The rows' positions when the geometry column is all 2-D points (lon, lat per row; NaN where a row has
   * none), read from the bytes; null otherwise (then `geometries` holds them).
   */
  const points = computed(() => {
    const t = table.value
    const key = geometryKey.value
    return t && key ? (pointsReadOnArrival(t, key) ?? pointColumn(t, key)) : null
  })
  /**
   * The geometry of each result row (by index), null where the row holds none. Made when first read: the
   * map of a point result draws from `points` and never reads this.
   */
  const geometries = computed<Array<Geometry | null>>(() => {
    const key = geometryKey.value
    const t = table.value
    if (!t || !key) return []
    const out = new Array<Geometry | null>(t.length)
    for (let i = 0; i < t.length; i++) {
      const v = t.has(i, key) ? t.cell(i, key) : ''
      out[i] = v ? (detectGeometry(v)?.geometry ?? null) : null
    }
    return out
  })
  /** The geometry of row `index`, from the points when the result is points. */
  function geometryAt(index: number): Geometry | null {
    const lonLat = points.value
    if (lonLat) {
      const lon = lonLat[2 * index]
      return lon === undefined || Number.isNaN(lon)
        ? null
        : { type: 'Point', coordinates: [lon, lonLat[2 * index + 1]!] }
    }
    return geometries.value[index] ?? null
  }

  /** Columns whose values read as numbers (a sample of up to 5,000 non-empty values), once per result. */
  const numericKeys = computed(() =>
    table.value ? numericColumnKeys(table.value, columns.value) : new Set<string>(),
  )

  // Large results: the filter and sort run in a worker, which answers the positions to show.
  let query: TableQueryClient | null = null
  const order = shallowRef<Uint32Array | null>(null)
  const querying = ref(false)
  watch(table, (next) => {
    query?.dispose()
    query = null
    order.value = null
    if (next && next.length >= LARGE_RESULT_ROWS)
      query = new TableQueryClient(
        next.bytes,
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
  const visibleRows = computed<ResultRowList>(() => {
    if (large.value) return order.value ? new ResultRowList(rowAt, total.value, order.value) : rows.value
    const all = made.value ?? []
    const text = appliedFilter.value.trim().toLowerCase()
    const keys = columns.value.map((c) => c.key)
    let out = text ? all.filter((r) => keys.some((k) => (r[k] ?? '').toLowerCase().includes(text))) : all
    const field = sortField.value
    if (field && sortOrder.value !== 0) {
      const sign = sortOrder.value
      out = [...out].sort((a, b) => sign * compareValues(a[field] ?? '', b[field] ?? ''))
    }
    if (out === all) return rows.value
    return new ResultRowList(
      rowAt,
      total.value,
      Uint32Array.from(out, (r) => Number(r.__i)),
    )
  })
  /** The shown rows by index, as a mask (a Set of a million numbers costs more than the rows). */
  const visibleIndices = computed<RowSet>(() => {
    const count = total.value
    const shown = visibleRows.value.order
    if (!shown) return { has: (i: number) => i >= 0 && i < count, size: count }
    const mask = new Uint8Array(count)
    for (const i of shown) mask[i] = 1
    return { has: (i: number) => mask[i] === 1, size: shown.length }
  })

  const summary = computed(() => {
    const shown = visibleIndices.value
    const lonLat = points.value
    if (lonLat) return summarizePoints(lonLat, shown)
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
    total,
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
    rowAt,
    geometryKey,
    geometryColumn,
    points,
    geometries,
    geometryAt,
    visibleRows,
    visibleIndices,
    summary,
    show,
    select,
    clear,
  }
})
