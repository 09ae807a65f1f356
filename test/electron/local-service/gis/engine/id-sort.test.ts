import { describe, expect, it } from 'vitest'
import { mulberry32 } from '../../../../../bench/join-data'
import { IdSorter } from '../../../../../electron/local-service/gis/engine/id-sort'

const rnd = mulberry32(5)

describe('IdSorter', () => {
  it('sorts a run of indices in place as a numeric sort would, leaving the rest of the array as it was', () => {
    const sorter = new IdSorter()
    // Lengths across the insertion sort's and the counting passes' ranges; bounds of one, two and three passes.
    for (const bound of [2, 300, 4_096, 200_000, 5_000_000, 2 ** 31 - 1])
      for (const length of [0, 1, 2, 5, 24, 25, 100, 1_000, 5_000]) {
        const before = Array.from({ length: 7 }, () => Math.floor(rnd() * bound))
        const run = Array.from({ length }, () => Math.floor(rnd() * bound))
        const after = Array.from({ length: 3 }, () => Math.floor(rnd() * bound))
        const ids = Int32Array.from([...before, ...run, ...after])
        sorter.sort(ids, before.length, before.length + length, bound)
        const expected = [...before, ...[...run].sort((a, b) => a - b), ...after]
        expect([...ids], `bound ${bound}, length ${length}`).toEqual(expected)
      }
  })

  it('keeps repeated indices, and leaves a sorted run as it is', () => {
    const sorter = new IdSorter()
    const ids = Int32Array.from({ length: 500 }, (_, i) => (i * 7919) % 37)
    sorter.sort(ids, 0, ids.length, 37)
    expect([...ids]).toEqual([...ids].sort((a, b) => a - b))
    const sorted = Int32Array.from({ length: 500 }, (_, i) => i * 3)
    sorter.sort(sorted, 0, sorted.length, 1500)
    expect([...sorted]).toEqual(Array.from({ length: 500 }, (_, i) => i * 3))
  })
})
