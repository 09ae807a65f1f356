import { createPinia, setActivePinia } from 'pinia'
import { describe, expect, it, vi } from 'vitest'
import {
  ColumnStore,
  columnStoreOf,
  PartsReceiver,
} from '../../../../../src/features/gis/results/table-query'
import {
  FILTER_DEBOUNCE_MS,
  LARGE_RESULT_ROWS,
  useResultsStore,
} from '../../../../../src/features/gis/results/results-store'
import { withRows } from '../../../../support/join-rows'

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
      expect(results.visibleRows.at(7)).toEqual({ ...rows[7], __i: '7' })
      expect(results.visibleIndices.size).toBe(rows.length)
      // A result of points: positions read from the bytes, the same as the geometry read from the text.
      expect(results.points?.slice(6, 8)).toEqual(new Float64Array([73, 20]))
      expect(results.geometryAt(3)).toEqual({ type: 'Point', coordinates: [73, 20] })
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

describe('the worker’s load in parts', () => {
  it('answers the same as the whole answer read at once, and refuses a load that does not add up', () => {
    const rows = Array.from({ length: 500 }, (_, i) => ({ id: String(i), name: `Zürich ${i % 7}` }))
    const { rowsJson } = withRows(rows)
    const receiver = new PartsReceiver(rowsJson.byteLength, ['id', 'name'])
    for (let start = 0; start < rowsJson.byteLength; start += 333)
      receiver.add(rowsJson.slice(start, start + 333))
    const query = { text: 'zürich 3', sortKey: 'id', order: -1 as const }
    expect([...receiver.finish().run(query)]).toEqual([...columnStoreOf(rowsJson, ['id', 'name']).run(query)])
    expect([...receiver.finish().run(query)].slice(0, 2)).toEqual([493, 486])
    const short = new PartsReceiver(rowsJson.byteLength, ['id'])
    short.add(rowsJson.slice(0, 10))
    expect(() => short.finish()).toThrow(/fewer bytes/)
    expect(() => new PartsReceiver(4, ['id']).add(rowsJson.slice(0, 5))).toThrow(/more bytes/)
  })
})
