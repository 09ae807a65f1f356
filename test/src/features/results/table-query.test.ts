import { createPinia, setActivePinia } from 'pinia'
import { describe, expect, it, vi } from 'vitest'
import { ColumnStore } from '../../../../src/features/results/table-query'
import {
  FILTER_DEBOUNCE_MS,
  LARGE_RESULT_ROWS,
  useResultsStore,
} from '../../../../src/features/results/results-store'
import { withRows } from '../../../support/join-rows'

describe('the results table query (run in a worker for large results)', () => {
  it('filters on any column, letter case aside, and sorts numbers by value and text by collation', () => {
    const store = new ColumnStore(['name', 'n'])
    store.append([
      ['Agra', 'pune', 'Delhi', 'Ahmedabad'],
      ['10', '9', '', '100'],
    ])
    expect([...store.run({ text: 'A', sortKey: null, order: 0 })]).toEqual([0, 3])
    expect([...store.run({ text: '', sortKey: 'n', order: 1 })]).toEqual([2, 1, 0, 3])
    expect([...store.run({ text: '', sortKey: 'name', order: -1 })]).toEqual([1, 2, 3, 0])
    store.append([['agartala'], ['1']])
    expect([...store.run({ text: 'ag', sortKey: 'n', order: 1 })]).toEqual([4, 0])
  })
})

describe('a large result in the results store', () => {
  it('shows the rows without copying them, and applies the filter after a pause, off the page', async () => {
    vi.useFakeTimers()
    try {
      setActivePinia(createPinia())
      const results = useResultsStore()
      const rows = Array.from({ length: LARGE_RESULT_ROWS + 5 }, (_, i) => ({
        id: String(i),
        geom: `POINT (${70 + (i % 10)} 20)`,
      }))
      results.show({ runId: 'r', ...withRows(rows), partial: false, durationMs: 1 }, null)
      // Read in place: the table's rows are the result's, not a filtered copy.
      expect(results.visibleRows).toBe(results.rows)
      expect(results.visibleRows[7]).toMatchObject(rows[7]!)
      expect(results.visibleIndices.size).toBe(rows.length)
      expect(results.geometries[3]).toEqual({ type: 'Point', coordinates: [73, 20] })
      expect(results.columns.map((c) => c.key)).toEqual(['geom', 'id'])

      results.filter = '2000'
      await vi.advanceTimersByTimeAsync(FILTER_DEBOUNCE_MS - 50)
      expect(results.visibleRows).toHaveLength(rows.length)
      await vi.advanceTimersByTimeAsync(100)
      await vi.waitFor(() =>
        expect(results.visibleRows.map((r) => r.id)).toEqual([
          '2000',
          '12000',
          '20000',
          '20001',
          '20002',
          '20003',
          '20004',
        ]),
      )
      expect(results.visibleIndices.has(20_001)).toBe(true)
      expect(results.visibleIndices.has(1)).toBe(false)
      expect(results.summary.geometryCount).toBe(7)
    } finally {
      vi.useRealTimers()
    }
  })
})
