import { describe, expect, it } from 'vitest'
import { RowTable } from '../../../../../shared/rows/row-table'
import { pointColumn } from '../../../../../src/features/gis/results/result-points'
import {
  pointsReadOnArrival,
  readRows,
  rowsPartReader,
} from '../../../../../src/features/gis/results/rows-on-arrival'

const bytes = (text: string) => new TextEncoder().encode(text)

/** The rows as the bridge receives them: fed in pieces of `piece` bytes, then finished. */
function arrive(whole: Uint8Array, piece: number, holder: Record<string, unknown> = {}): void {
  const reader = rowsPartReader(holder)
  for (let n = piece; n < whole.length; n += piece) reader.feed(whole.subarray(0, n))
  try {
    reader.finish(whole)
  } catch {
    // As FramesReceiver does: a reader's failure only loses its head start.
  }
}

const rowsOf = (n: number, value: (i: number) => string | undefined) =>
  bytes(
    `[${Array.from({ length: n }, (_, i) => {
      const v = value(i)
      return v === undefined ? `{"id":"${i}"}` : `{"id":"${i}","geom":${JSON.stringify(v)}}`
    }).join(',')}]`,
  )

describe('rows read on arrival', () => {
  it('hands on the table read while the rows arrived: the same rows, not read again', () => {
    const whole = bytes(
      `[${Array.from({ length: 5000 }, (_, i) => `{"id":"${i}","name":"P${i}"}`).join(',')}]`,
    )
    arrive(whole, 4096, { rowCount: 5000 })
    const table = readRows(whole)
    expect(readRows(whole)).toBe(table)
    const fresh = RowTable.read(whole)
    expect(table.length).toBe(5000)
    expect(table.rows()).toEqual(fresh.rows())
    expect(table.keys).toEqual(['id', 'name'])
  })

  it('reads bytes that did not arrive in pieces now, and wrong rows fail as RowTable.read fails', () => {
    const never = bytes('[{"a":"1"}]')
    expect(readRows(never).column('a')).toEqual(['1'])
    expect(readRows(never)).not.toBe(readRows(never))
    const wrong = bytes('[{"a":"1"},{"a":"2"},[3]]')
    arrive(wrong, 3)
    expect(() => readRows(wrong)).toThrow(/result rows must be objects at byte 21/)
  })

  it('reads a column of plain points as they arrive, the same positions pointColumn reads', () => {
    const cases: Array<[string, Uint8Array, number]> = [
      [
        'every row a point',
        rowsOf(3000, (i) => `POINT (${(70 + i / 1000).toFixed(3)} ${(-8.5 - i / 7).toFixed(5)})`),
        3000,
      ],
      ['some rows without one', rowsOf(3000, (i) => (i % 7 === 3 ? undefined : `POINT (1.25 ${i})`)), 3000],
      ['a declared count too small', rowsOf(3000, (i) => `POINT (${i} 2)`), 10],
      ['no declared count', rowsOf(3000, (i) => `POINT (${i} 2)`), 0],
    ]
    for (const [what, whole, rowCount] of cases) {
      arrive(whole, 1000, { rowCount })
      const table = readRows(whole)
      const early = pointsReadOnArrival(table, 'geom')
      expect(early, what).toBeInstanceOf(Float64Array)
      expect([...early!], what).toEqual([...pointColumn(table, 'geom')!])
      expect(pointsReadOnArrival(table, 'id'), what).toBeUndefined()
    }
  })

  it('leaves a column with any value that is not a plain point to pointColumn', () => {
    const cases = [
      rowsOf(2000, (i) => (i === 1500 ? 'POINT Z (1 2 3)' : `POINT (${i} 2)`)),
      rowsOf(2000, (i) => (i === 1500 ? 'LINESTRING (0 0, 1 1)' : `POINT (${i} 2)`)),
      rowsOf(2000, (i) => (i === 1999 ? '' : `POINT (${i} 2)`)),
      rowsOf(2000, (i) => (i === 0 ? '{"type":"Point","coordinates":[1,2]}' : `POINT (${i} 2)`)),
    ]
    for (const whole of cases) {
      arrive(whole, 1000, { rowCount: 2000 })
      expect(pointsReadOnArrival(readRows(whole), 'geom')).toBeUndefined()
    }
  })
})
