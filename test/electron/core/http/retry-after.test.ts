import { describe, expect, it } from 'vitest'
import { parseRetryAfter } from '../../../../electron/core/http/retry-after'

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-03-01T12:00:00Z')
  it('reads delay-seconds and HTTP dates, never negative', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000)
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:00:30 GMT', now)).toBe(30_000)
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:00:00 GMT', now)).toBe(0)
  })
  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined()
    expect(parseRetryAfter('-5', now)).toBeUndefined()
    expect(parseRetryAfter('soon', now)).toBeUndefined()
    expect(parseRetryAfter('1.5', now)).toBeUndefined()
  })
})
