import { describe, expect, it } from 'vitest'
import { csvLine, parseCsv } from '../../../src/geo/csv'

describe('CSV', () => {
  it('quotes fields holding commas, quotes or line breaks, and reads them back', () => {
    const values = ['POLYGON ((1 2, 3 4, 1 2))', 'say "hi"', 'two\nlines', 'plain']
    const line = csvLine(values)
    expect(line).toBe('"POLYGON ((1 2, 3 4, 1 2))","say ""hi""","two\nlines",plain\r\n')
    expect(parseCsv(line + csvLine(['a', '']))).toEqual([values, ['a', '']])
  })
})
