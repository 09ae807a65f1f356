import { describe, expect, it } from 'vitest'
import { JoinBodyChecker, JoinBodyReader, readJoinBody } from '../../../shared/rows/join-body'
import { cellText, RowsShapeError } from '../../../shared/rows/json-scan'
import { RowTable } from '../../../shared/rows/row-table'
import { RowsArrayReader } from '../../../shared/rows/rows-array-reader'

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

  it('reads rows shaped like the one before in one pass, and every row that departs from it as JSON.parse does', () => {
    const same = (i: number) => `{"id":"${i}","name":"P${i}","geom":"POINT (${i} ${-i})"}`
    const departures = [
      String.raw`{"id":"x","name":"quote \" inside","geom":"g"}`,
      '{"id":"x","name":"Zürich – 東京","geom":"g"}',
      '{"id":"x", "name":"space before","geom":"g"}',
      '{ "id":"x","name":"space inside","geom":"g"}',
      '{"id":7,"name":"a number","geom":"g"}',
      '{"id":"x","name":"no geom"}',
      '{"id":"x","name":"extra","geom":"g","more":"m"}',
      '{"name":"reordered","id":"x","geom":"g"}',
      '{"id":"x","id":"dup","geom":"g"}',
      '{"idx":"x","name":"longer name","geom":"g"}',
      '{"i":"x","name":"shorter name","geom":"g"}',
      '{}',
      '{"id":"","name":"","geom":""}',
    ]
    for (const departure of departures) {
      const text = `[${[same(1), same(2), departure, same(3), same(4)].join(',')}]`
      expect(RowTable.read(bytes(text)).rows(), departure).toEqual(parsedRows(text))
    }
    for (const wrong of ['{"id":"x","name":"raw \n newline","geom":"g"}', '{"id":"x","name":"cut']) {
      const text = `[${same(1)},${same(2)},${wrong}]`
      expect(() => RowTable.read(bytes(text)), wrong).toThrow(RowsShapeError)
    }
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

/** What reading a body gives: the envelope, rows and columns, or the error's message and place. */
/** What a `JoinBodyChecker` gives: the envelope, the rows' bytes and count, or the error and its place. */
function checked(read: () => ReturnType<JoinBodyChecker['finish']>): unknown {
  try {
    const { envelope, rows } = read()
    return { envelope, text: new TextDecoder().decode(rows.bytes), length: rows.length }
  } catch (error) {
    if (!(error instanceof RowsShapeError)) throw error
    return { error: error.message, at: error.at }
  }
}

function outcome(read: () => ReturnType<typeof readJoinBody>): unknown {
  try {
    const { envelope, rows } = read()
    return { envelope, rows: rows.rows(), keys: rows.keys, length: rows.length }
  } catch (error) {
    if (!(error instanceof RowsShapeError)) throw error
    return { error: error.message, at: error.at }
  }
}

describe('JoinBodyReader', () => {
  const BOM = [0xef, 0xbb, 0xbf]
  const bodies: Uint8Array[] = [
    '{"code":"200","rowCount":3,"result":[{"a":"1","b":"x"},{"a":"2"},{"b":"z","c":"new"}],"after":[1,{"k":null}]}',
    '{"result":[]}',
    '{ "result" : [ ] , "code" : 200 }',
    '{"result":null,"code":"200"}',
    '{"code":"200"}',
    '{}',
    '{"result":{"p":"single"}}',
    '{"result":[{"p":"1"}],"result":[{"q":"2"}]}',
    String.raw`{"m":"\u00e9","result":[{"esc":"a \" b \\ c \u00e9 \ud83d\ude00"},{"utf8":"Zürich – 東京"},{"n":-1.5e3,"o":{"x":[1,"]"]}}]}`,
    // Wrong in various places: the same error, at the same place, however the bytes came.
    '{"result":[{"a":"1"},{"a":"2"},[3]]}',
    '{"result":[{"a":"1"},{"a":"2"} {"a":"3"}]}',
    '{"result":[{"a":"1"},{"a":tru}]}',
    '{"result":[{"a":"1"},{"a":"2"}],"code":}',
    '{"result":[{"a":"1"},{"a":"cut',
    '{"result":[{"a":"1"}]} trailing',
    String.raw`{"result":[{"a":"bad \x escape"}]}`,
    '{"result":"text"}',
    '',
    '   ',
  ]
    .map(bytes)
    .concat([new Uint8Array([...BOM, ...bytes('{"result":[{"p":"bom"},{"p":"é"}]}')])])

  it('reads an answer fed in any pieces exactly as readJoinBody reads it whole, errors included', () => {
    for (const whole of bodies) {
      const text = new TextDecoder().decode(whole)
      const expected = outcome(() => readJoinBody(whole))
      // Fed every prefix in turn, then finished.
      const everyByte = new JoinBodyReader()
      for (let n = 1; n <= whole.length; n++) everyByte.feed(whole.subarray(0, n))
      expect(
        outcome(() => everyByte.finish(whole)),
        text,
      ).toEqual(expected)
      // Fed a few uneven pieces.
      for (const step of [2, 5, 11]) {
        const reader = new JoinBodyReader()
        for (let n = step; n < whole.length; n += step) reader.feed(whole.subarray(0, n))
        expect(
          outcome(() => reader.finish(whole)),
          `${text} in pieces of ${step}`,
        ).toEqual(expected)
      }
    }
  })

  it('checks and counts the rows as the reader reads them, the same bytes and errors, without their offsets', () => {
    for (const whole of bodies) {
      const text = new TextDecoder().decode(whole)
      const expected = checked(() => readJoinBody(whole))
      expect(
        checked(() => new JoinBodyChecker().finish(whole)),
        text,
      ).toEqual(expected)
      for (const step of [1, 7]) {
        const checker = new JoinBodyChecker()
        for (let n = step; n < whole.length; n += step) checker.feed(whole.subarray(0, n))
        expect(
          checked(() => checker.finish(whole)),
          `${text} in pieces of ${step}`,
        ).toEqual(expected)
      }
    }
    // Many rows of one shape (read in one pass) and a departure far in.
    const rows = Array.from({ length: 5000 }, (_, i) => `{"prop1":"${i}","prop2":"P${i}"}`)
    for (const body of [
      `{"code":"200","result":[${rows.join(',')}]}`,
      `{"code":"200","result":[${rows.slice(0, 4000).join(',')},{"prop1":"x","prop2":3},${rows.slice(4000).join(',')}]}`,
      `{"code":"200","result":[${rows.slice(0, 4000).join(',')},{"prop1":"x","prop2":"raw \u0001"},{"prop1":"bad \\q"}]}`,
    ]) {
      const whole = bytes(body)
      const checker = new JoinBodyChecker()
      for (let n = 4096; n < whole.length; n += 4096) checker.feed(whole.subarray(0, n))
      expect(checked(() => checker.finish(whole))).toEqual(checked(() => readJoinBody(whole)))
    }
  })

  it('reads the rows as they arrive, a row cut by the end of what came read again from its start', () => {
    const text = '{"code":"200","result":[{"a":"1"},{"a":"2"},{"a":"3"},{"a":"4"}]}'
    const whole = bytes(text)
    const reader = new JoinBodyReader()
    reader.feed(whole.subarray(0, text.indexOf('{"a":"3"}') + 6))
    expect(reader.rowsRead).toBe(2)
    reader.feed(whole.subarray(0, text.indexOf('{"a":"4"}')))
    expect(reader.rowsRead).toBe(3)
    reader.feed(whole.subarray(0, whole.length - 2))
    expect(reader.rowsRead).toBe(4)
    const { envelope, rows } = reader.finish(whole)
    expect(envelope).toEqual({ code: '200' })
    expect(rows.column('a')).toEqual(['1', '2', '3', '4'])
  })

  it('hands its tap whole rows only, as they are read: a prefix of the table’s bytes, in order', () => {
    const text = `{"code":"200","rowCount":300,"result":[${Array.from({ length: 300 }, (_, i) => `{"a":"${i}","b":"é${i}"}`).join(',')}],"after":1}`
    const whole = bytes(text)
    for (const step of [1, 7, 64, 1000]) {
      const begun: Array<[number | undefined, number | undefined]> = []
      const handed: Uint8Array[] = []
      const reader = new JoinBodyReader({
        begin: (rows, expected) => void begun.push([rows, expected]),
        more: (b) => void handed.push(b.slice()),
      })
      for (let n = step; n < whole.length; n += step) {
        reader.feed(whole.subarray(0, n))
        const sent = new TextDecoder().decode(Buffer.concat(handed))
        // Whole rows, from the "[": every row handed on is a row read.
        if (sent) expect(sent).toMatch(/^\[(\{"a":"\d+","b":"é\d+"\},?)*$/)
        if (sent) expect(sent.endsWith('}')).toBe(true)
      }
      const { rows } = reader.finish(whole)
      const sent = Buffer.concat(handed)
      expect(begun).toHaveLength(1)
      expect(begun[0]![0]).toBe(300)
      expect(sent.byteLength).toBeGreaterThan(0)
      expect(sent.equals(Buffer.from(rows.bytes.subarray(0, sent.byteLength))), `pieces of ${step}`).toBe(
        true,
      )
    }
    // No tap call before rows, nor for an answer without any.
    const none: unknown[] = []
    const quiet = new JoinBodyReader({ begin: () => void none.push(1), more: () => void none.push(2) })
    const empty = bytes('{"code":"404","message":"no data"}')
    quiet.feed(empty)
    quiet.finish(empty)
    expect(none).toEqual([])
  })
})

describe('RowsArrayReader', () => {
  const texts = [
    '[{"a":"1","b":"x"},{"a":"2"},{"b":"z","c":"new"}]',
    '[]',
    ' [ { "a" : "1" } , { "a" : "2" } ] ',
    'null',
    '{"p":"single"}',
    String.raw`[{"esc":"a \" b \\ c \u00e9"},{"utf8":"Zürich – 東京"},{"n":-1.5e3,"o":{"x":[1,"]"]}}]`,
    // Rows of one shape read in one pass, and rows that depart from it.
    '[{"a":"1","b":"x"},{"a":"2","b":"y"},{"a":"3","b":"z"},{"a":"4","b":"é"},{"b":"5","a":"w"},{"a":"6","b":"v"}]',
    String.raw`[{"a":"1","b":"x"},{"a":"2","b":"y"},{"a":"3","b":"\u0041"},{"a":"4","b":"t"}]`,
    // Wrong in various places: the same error, at the same place, however the bytes came.
    String.raw`[{"a":"1","b":"x"},{"a":"2","b":"y"},{"a":"3","b":"bad \x"},{"a":"4","b":"t"}]`,
    '[{"a":"1","b":"x"},{"a":"2","b":"y"},{"a":"3","b":"tab \t raw"},{"a":"4","b":"t"}]',
    '[{"a":"1"},{"a":"2"},[3]]',
    '[{"a":"1"},{"a":"2"} {"a":"3"}]',
    '[{"a":"1"},{"a":tru}]',
    '[{"a":"1"},{"a":"cut',
    '[{"a":"1"}] trailing',
    '"text"',
    '',
  ]
  const table = (read: () => RowTable): unknown => {
    try {
      const t = read()
      return { rows: t.rows(), keys: t.keys, length: t.length, text: new TextDecoder().decode(t.bytes) }
    } catch (error) {
      if (!(error instanceof RowsShapeError)) throw error
      return { error: error.message, at: error.at }
    }
  }

  it('reads rows fed in any pieces exactly as RowTable.read reads them whole, errors included', () => {
    for (const text of texts) {
      const whole = bytes(text)
      const expected = table(() => RowTable.read(whole))
      const everyByte = new RowsArrayReader()
      for (let n = 1; n <= whole.length; n++) everyByte.feed(whole.subarray(0, n))
      expect(
        table(() => everyByte.finish(whole)),
        text,
      ).toEqual(expected)
      for (const step of [3, 7]) {
        const reader = new RowsArrayReader(0, 2)
        for (let n = step; n < whole.length; n += step) reader.feed(whole.subarray(0, n))
        expect(
          table(() => reader.finish(whole)),
          `${text} in pieces of ${step}`,
        ).toEqual(expected)
      }
    }
  })

  it('counts a row once it has come whole, and reads rows that start past the beginning', () => {
    const text = '{"x":1,"rows":[{"a":"1"},{"a":"2"},{"a":"3"}]}'
    const whole = bytes(text)
    const from = text.indexOf('[')
    const reader = new RowsArrayReader(from, 3)
    reader.feed(whole.subarray(0, text.indexOf('{"a":"2"}') + 4))
    expect(reader.rowsRead).toBe(1)
    reader.feed(whole.subarray(0, text.indexOf('{"a":"3"}')))
    expect(reader.rowsRead).toBe(2)
    expect(reader.readTo).toBe(text.indexOf(',{"a":"3"}'))
    const s = whole.subarray(0, text.length - 1)
    const rows = reader.finish(s)
    expect(rows.column('a')).toEqual(['1', '2', '3'])
    expect(new TextDecoder().decode(rows.bytes)).toBe('[{"a":"1"},{"a":"2"},{"a":"3"}]')
    expect(rows.cell(2, 'a')).toBe('3')
  })
})
