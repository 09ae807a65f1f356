import { describe, expect, it } from 'vitest'
import { CsvError, csvLine, csvText, neutraliseCell, parseCsv } from '../../shared/csv'

describe('CSV', () => {
  it('quotes fields holding commas, quotes or line breaks, and reads them back', () => {
    const values = ['POLYGON ((1 2, 3 4, 1 2))', 'say "hi"', 'two\nlines', 'plain']
    const line = csvLine(values)
    expect(line).toBe('"POLYGON ((1 2, 3 4, 1 2))","say ""hi""","two\nlines",plain\r\n')
    expect(parseCsv(line + csvLine(['a', '']))).toEqual([values, ['a', '']])
  })

  it('writes formula-like text with a leading apostrophe, and plain numbers as they are', () => {
    const row = ['=HYPERLINK("x")', '+1+1', '-cmd', '@SUM(A1)', '\tx', '-12.5', '+3', '1e-7', 7, null]
    expect(csvText([row])).toBe(`"'=HYPERLINK(""x"")",'+1+1,'-cmd,'@SUM(A1),'\tx,-12.5,+3,1e-7,7,\r\n`)
    expect(neutraliseCell('plain')).toBe('plain')
  })

  it('reads CRLF or LF, a byte-order mark and blank lines, and names a quoted field that never ends', () => {
    expect(parseCsv('\uFEFFa,b\n\n1,2\r\n')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ])
    expect(() => parseCsv('a,"b\n1,2')).toThrow(CsvError)
    expect(() => parseCsv('a,"b\n1,2')).toThrow(/ends inside a quoted field/)
  })
})
