import { describe, expect, it } from 'vitest'
import { parseJsonText } from '../../../../electron/contract/common/json-text'

describe('parseJsonText', () => {
  it('reads JSON with or without a leading byte order mark, and refuses one anywhere else', () => {
    expect(parseJsonText('{"a":1}')).toEqual({ a: 1 })
    expect(parseJsonText('\uFEFF{"a":1}')).toEqual({ a: 1 })
    expect(parseJsonText('\uFEFF"\uFEFF"')).toBe('\uFEFF')
    expect(() => parseJsonText('{"a":1}\uFEFF')).toThrow(SyntaxError)
    expect(() => parseJsonText('\uFEFF\uFEFF{}')).toThrow(SyntaxError)
  })
})
