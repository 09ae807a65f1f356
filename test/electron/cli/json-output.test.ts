import { describe, expect, it } from 'vitest'
import { jsonOutput } from '../../../electron/cli/json-output'
import { JoinBodyChecker } from '../../../shared/rows/join-body'
import { RowsShapeError } from '../../../shared/rows/json-scan'

const encode = (text: string) => new TextEncoder().encode(text)

/** A join answer's rows as the core hands them on: read by the same checker, from the provider's bytes. */
function checkedRows(resultJson: string) {
  return new JoinBodyChecker().finish(encode(`{"code":"200","result":${resultJson}}`)).rows
}

const text = (value: unknown, options?: { compact?: boolean }) => jsonOutput(value, options).toString('utf8')

describe('jsonOutput (what the CLI prints as JSON)', () => {
  it('prints plain data exactly as JSON.stringify with two spaces, and a newline', () => {
    const value = {
      name: 'Wells "north"\n',
      unicode: 'Rājahmundry ✓',
      n: [0, -1.5, 1e21, null, true],
      nested: { empty: {}, none: [], deep: [{ a: [[1], { b: 'c' }] }] },
      skipped: undefined,
    }
    expect(text(value)).toBe(JSON.stringify(value, null, 2) + '\n')
    expect(text([])).toBe('[]\n')
    expect(text('x')).toBe('"x"\n')
    expect(text(undefined)).toBe('null\n')
  })

  it('prints a join’s checked rows as the JSON array they are, indented like the rest, never their bytes', () => {
    const provider =
      ' [ {"prop1":"Delhi","prop2":"POINT (77.2 28.6)"}, {"prop1" : "Ä \\"q\\" \\u00e9",  "prop2":null},' +
      '{"prop1":"x","nested":{"k":[1,2,{"z":[]}],"e":{}}}, {"dir":"C:\\\\maps\\\\","q":"\\\\\\""}, {} ] '
    const rows = checkedRows(provider)
    const parsed = JSON.parse(provider) as unknown[]
    const out = text({ response: { code: '200', rows }, partial: false })
    expect(out).not.toMatch(/"bytes"|"0": \d+/)
    expect(JSON.parse(out)).toEqual({ response: { code: '200', rows: parsed }, partial: false })
    // Byte for byte what JSON.stringify would print for the parsed rows (strings keep their escapes).
    const expected = JSON.stringify({ response: { code: '200', rows: parsed }, partial: false }, null, 2)
    expect(out.replace('"Ä \\"q\\" \\u00e9"', '"Ä \\"q\\" é"')).toBe(expected + '\n')
  })

  it('keeps every digit the provider sent, and prints one object as one row and null as no rows', () => {
    const big = text({ rows: checkedRows('[{"id":12345678901234567890123,"f":1.50}]') })
    expect(big).toContain('"id": 12345678901234567890123')
    expect(big).toContain('"f": 1.50')
    expect(JSON.parse(text({ rows: checkedRows('{"prop1":"only"}') }))).toEqual({ rows: [{ prop1: 'only' }] })
    expect(text({ rows: checkedRows('{"prop1":"only"}') })).toBe(
      JSON.stringify({ rows: [{ prop1: 'only' }] }, null, 2) + '\n',
    )
    expect(JSON.parse(text({ rows: checkedRows('null') }))).toEqual({ rows: [] })
    expect(JSON.parse(text({ rows: checkedRows('[]') }))).toEqual({ rows: [] })
    // Rows at the top, or inside an array, sit at their own level.
    const top = checkedRows('[{"a":"1"}]')
    expect(text(top)).toBe(JSON.stringify([{ a: '1' }], null, 2) + '\n')
    expect(text([[top]])).toBe(JSON.stringify([[[{ a: '1' }]]], null, 2) + '\n')
  })

  it('prints one line in compact form (a stream of JSON lines), rows included', () => {
    const out = text(
      { serverTime: 5, rows: checkedRows('[ {"a" : "b c", "n": [1, {}]} ]') },
      { compact: true },
    )
    expect(out).toBe('{"serverTime":5,"rows":[{"a":"b c","n":[1,{}]}]}\n')
  })

  it('prints plain { bytes, length } rows checked first, and refuses bytes that are not rows', () => {
    const rows = { bytes: encode('[{"prop1":"a"}]'), length: 1 }
    expect(JSON.parse(text({ rows }))).toEqual({ rows: [{ prop1: 'a' }] })
    expect(() => jsonOutput({ rows: { bytes: encode('[{"prop1":'), length: 1 } })).toThrow(RowsShapeError)
  })

  it('prints typed arrays as numbers, bytes as base64, maps as objects, sets as arrays, bigints as text', () => {
    const out = JSON.parse(
      text({
        floats: new Float64Array([1.5, -2]),
        ids: new Uint32Array([7, 8]),
        big: new BigInt64Array([9n]),
        bytes: new Uint8Array([104, 105]),
        buffer: Buffer.from('hi'),
        raw: new Uint8Array([104, 105]).buffer,
        map: new Map<unknown, unknown>([
          ['a', 1],
          [2, new Set(['x'])],
        ]),
        count: 12345678901234567890n,
      }),
    ) as unknown
    expect(out).toEqual({
      floats: [1.5, -2],
      ids: [7, 8],
      big: ['9'],
      bytes: 'aGk=',
      buffer: 'aGk=',
      raw: 'aGk=',
      map: { a: 1, 2: ['x'] },
      count: '12345678901234567890',
    })
  })
})
