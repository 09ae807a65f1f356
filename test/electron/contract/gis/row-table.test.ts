import { describe, expect, it } from 'vitest'
import { cellText, readJoinBody, RowTable, RowsShapeError } from '../../../../electron/contract/gis/row-table'

const bytes = (text: string) => new TextEncoder().encode(text)

/** What the table showed before rows were read in place: JSON.parse, then every value as text. */
function parsedRows(text: string): Array<Record<string, string>> {
  const parsed = JSON.parse(text) as unknown
  const list = parsed === null ? [] : Array.isArray(parsed) ? parsed : [parsed]
  return (list as Array<Record<string, unknown>>).map((row) => {
    const out: Record<string, string> = {}
    for (const key of Object.keys(row))
      Object.defineProperty(out, key, {
        value: cellText(row[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      })
    return out
  })
}

describe('RowTable', () => {
  it('reads every row and value exactly as JSON.parse would, values as the table shows them', () => {
    const cases = [
      '[]',
      'null',
      ' { "prop1" : "one row" } ',
      '[{"a":"x","b":"y"},{"b":"z","a":"w"},{"c":"new later"},{}]',
      '[{"n":12,"f":-1.5e3,"t":true,"z":null,"o":{"k":[1,"2",{"d":null}]},"arr":[]}]',
      String.raw`[{"esc":"quote \" back \\ slash \/ tab \t nl \n u \u00e9 \ud83d\ude00"}]`,
      '[{"utf8":"Zürich – 東京 😀","plain":"ascii"}]',
      '[{"__proto__":"kept as a member","constructor":"too"}]',
      '[{"dup":"first","dup":"last wins"}]',
      '[\n  {\n    "spaced" : "out"\n  } ,\n  { "spaced":"again" }\n]',
    ]
    for (const text of cases) {
      const table = RowTable.read(bytes(text))
      expect(table.rows()).toEqual(parsedRows(text))
      expect(table.length).toBe(parsedRows(text).length)
    }
  })

  it('answers one cell, one column and whether a row has a member, without reading the rest', () => {
    const table = RowTable.read(
      bytes('[{"id":"1","geom":"POINT (1 2)"},{"id":"2"},{"id":"3","geom":"POINT (5 6)"}]'),
    )
    expect(table.keys).toEqual(['id', 'geom'])
    expect(table.cell(2, 'geom')).toBe('POINT (5 6)')
    expect(table.cell(1, 'geom')).toBe('')
    expect(table.has(1, 'geom')).toBe(false)
    expect(table.has(0, 'geom')).toBe(true)
    expect(table.cell(0, 'absent')).toBe('')
    expect(table.cell(9, 'id')).toBe('')
    expect(table.column('geom')).toEqual(['POINT (1 2)', '', 'POINT (5 6)'])
    expect(table.row(1)).toEqual({ id: '2' })
  })

  it('reads rows that are part of a larger buffer (a view), offsets relative to the view', () => {
    const body = bytes('{"code":"200","result":[{"a":"x"},{"a":"y"}],"tail":1}')
    const start = body.indexOf(91)
    const end = body.indexOf(93) + 1
    const table = RowTable.read(body, start, end)
    expect(new TextDecoder().decode(table.bytes)).toBe('[{"a":"x"},{"a":"y"}]')
    expect(table.column('a')).toEqual(['x', 'y'])
    expect(RowTable.read(table.bytes).rows()).toEqual(table.rows())
  })

  it('refuses what is not rows in valid JSON, naming the place', () => {
    const refused = (text: string) => {
      try {
        RowTable.read(bytes(text))
      } catch (error) {
        expect(error).toBeInstanceOf(RowsShapeError)
        return (error as RowsShapeError).message + ' @ ' + (error as RowsShapeError).at
      }
      throw new Error(`accepted ${text}`)
    }
    expect(refused('[{"a":"1"},"b"]')).toMatch(/result rows must be objects at byte \d+ @ result\.1$/)
    expect(refused('[{"a":"1"},[1]]')).toMatch(/result\.1/)
    expect(refused('"text"')).toMatch(/result rows must be objects/)
    expect(refused('[{"a":"1"')).toMatch(/expected|unterminated/)
    expect(refused('[{"a":"unterminated}]')).toMatch(/unterminated string/)
    expect(refused('[{"a":"bad \\x escape"}]')).toMatch(/bad escape/)
    expect(refused('[{"a":"bad \\u12G4"}]')).toMatch(/bad \\u escape/)
    expect(refused('[{"a":"raw \n newline"}]')).toMatch(/control character/)
    expect(refused('[{"a":tru}]')).toMatch(/not a JSON value/)
    expect(refused('[{"a":"1"}] trailing')).toMatch(/unexpected text/)
    expect(refused('[{"a" "1"}]')).toMatch(/":" expected/)
    expect(refused('[{a:"1"}]')).toMatch(/member name expected/)
    expect(refused('')).toMatch(/result rows must be objects/)
  })

  it('keeps reading when rows change their keys part way (a column first seen late has no earlier values)', () => {
    const rows = Array.from({ length: 3000 }, (_, i) => (i < 2500 ? { a: `${i}` } : { b: `${i}`, a: `${i}` }))
    const table = RowTable.of(rows)
    expect(table.length).toBe(3000)
    expect(table.keys).toEqual(['a', 'b'])
    expect(table.cell(2499, 'b')).toBe('')
    expect(table.cell(2999, 'b')).toBe('2999')
    expect(table.cell(2999, 'a')).toBe('2999')
  })
})

describe('readJoinBody', () => {
  it('parses the envelope and reads the rows of result in place, wherever result stands', () => {
    const body = readJoinBody(bytes('{"code":200,"result":[{"p":"1"},{"p":"2"}],"columns":[{"prop":"p"}]}'))
    expect(body.envelope).toEqual({ code: 200, columns: [{ prop: 'p' }] })
    expect(body.rows.column('p')).toEqual(['1', '2'])
    expect(readJoinBody(bytes('{"result":null,"code":"200"}')).rows.length).toBe(0)
    expect(readJoinBody(bytes('{"code":"200"}')).rows.length).toBe(0)
    expect(readJoinBody(bytes('{"result":{"p":"single"}}')).rows.rows()).toEqual([{ p: 'single' }])
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('{"result":[{"p":"é"}]}')])
    expect(readJoinBody(withBom).rows.rows()).toEqual([{ p: 'é' }])
  })

  it('refuses a body that is not one JSON object', () => {
    expect(() => readJoinBody(bytes('[1]'))).toThrow(/not a JSON object/)
    expect(() => readJoinBody(bytes('{"code":"200"'))).toThrow(RowsShapeError)
    expect(() => readJoinBody(bytes('{"code":"200"} {}'))).toThrow(/unexpected text/)
    expect(() => readJoinBody(bytes('{"result":[1]}'))).toThrow(/result rows must be objects/)
  })
})
