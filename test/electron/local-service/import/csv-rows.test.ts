import { describe, expect, it } from 'vitest'
import { typed } from '../../../../electron/local-service/import/csv-rows'

describe('a CSV cell typed', () => {
  it('is a number only when written as a plain one, never with a leading zero; else the text; empty is null', () => {
    const numbers: Array<[string, number]> = [
      ['0', 0],
      ['-0', -0],
      ['7', 7],
      ['-12.5', -12.5],
      ['0.5', 0.5],
      ['.5', 0.5],
      ['-.5', -0.5],
      ['5.', 5],
      ['0.', 0],
      ['1e3', 1000],
      ['1.5E-2', 0.015],
      ['-0e0', -0],
      ['10', 10],
    ]
    for (const [cell, value] of numbers) expect(typed(cell), cell).toBe(value)
    for (const cell of [
      '007',
      '-01',
      '00',
      '0x10',
      '+1',
      ' 1',
      '1 ',
      '1e',
      '.',
      '-',
      '1.2.3',
      'e5',
      'Infinity',
      'NaN',
      '1,5',
      'place 1',
    ])
      expect(typed(cell), cell).toBe(cell)
    expect(typed('')).toBeNull()
  })
})
