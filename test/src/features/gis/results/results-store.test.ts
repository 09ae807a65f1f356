import { createPinia, setActivePinia } from 'pinia'
import { describe, expect, it } from 'vitest'
import { nextTick } from 'vue'
import {
  ResultRowList,
  useResultsStore,
  type ResultRow,
} from '../../../../../src/features/gis/results/results-store'
import { withRows } from '../../../../support/join-rows'

const made: number[] = []
const rowAt = (index: number): ResultRow => {
  made.push(index)
  return { id: `row ${index}`, __i: String(index) }
}

describe('ResultRowList', () => {
  it('reads like an array of the rows in its order, making only the rows that are read', () => {
    made.length = 0
    const list = new ResultRowList(rowAt, 1_000_000, null)
    expect(list.length).toBe(1_000_000)
    expect(list.slice(10, 13).map((r) => r.id)).toEqual(['row 10', 'row 11', 'row 12'])
    expect(list.at(-1)?.id).toBe('row 999999')
    expect(list.at(1_000_000)).toBeUndefined()
    expect(made).toEqual([10, 11, 12, 999_999])
    expect(list.positionOfKey('4242')).toBe(4242)
    expect(list.positionOfKey('')).toBe(-1)
    expect(made).toHaveLength(4)
  })

  it('in a filtered, sorted order: positions map to the result rows they show', () => {
    const list = new ResultRowList(rowAt, 100, Uint32Array.from([42, 7, 99]))
    expect(list.length).toBe(3)
    expect(list.map((r) => r.id)).toEqual(['row 42', 'row 7', 'row 99'])
    expect(list.indexAt(1)).toBe(7)
    expect(list.positionOfKey('99')).toBe(2)
    expect(list.positionOfKey('8')).toBe(-1)
    expect(list.findIndex((r) => r.id === 'row 7')).toBe(1)
    expect(list.slice(1, 10).map((r) => r.__i)).toEqual(['7', '99'])
  })
})

describe('the results store', () => {
  it('shows a small result from its bytes: columns, rows with their index, filter, sort and summary', async () => {
    setActivePinia(createPinia())
    const results = useResultsStore()
    const rows = [
      { prop1: 'Mumbai', prop2: '12442373', prop3: 'POINT (72.88 19.07)' },
      { prop1: 'Pune', prop2: '3124458', prop3: 'POINT (73.86 18.52)' },
      { prop1: 'Nowhere', prop2: '', prop3: '' },
    ]
    results.show({ runId: 'r', ...withRows(rows), partial: false, durationMs: 1 }, null)
    expect(results.total).toBe(3)
    expect(results.columns.map((c) => c.key)).toEqual(['prop1', 'prop2', 'prop3'])
    expect(results.geometryKey).toBe('prop3')
    expect([...results.numericKeys]).toEqual(['prop2'])
    expect(results.visibleRows.at(1)).toEqual({ ...rows[1], __i: '1' })
    expect(results.summary).toMatchObject({ geometryCount: 2, extent: [72.88, 18.52, 73.86, 19.07] })
    results.filter = 'PUN'
    await nextTick()
    expect(results.visibleRows.map((r) => r.prop1)).toEqual(['Pune'])
    expect(results.visibleIndices.has(1)).toBe(true)
    expect(results.visibleIndices.has(0)).toBe(false)
    expect(results.summary.geometryCount).toBe(1)
    results.filter = ''
    await nextTick()
    results.sortField = 'prop2'
    results.sortOrder = -1
    expect(results.visibleRows.map((r) => r.prop1)).toEqual(['Mumbai', 'Pune', 'Nowhere'])
    expect(results.geometryAt(2)).toBeNull()
    expect(results.geometryAt(0)).toEqual({ type: 'Point', coordinates: [72.88, 19.07] })
  })
})
