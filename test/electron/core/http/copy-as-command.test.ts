import { describe, expect, it } from 'vitest'
import { shellQuote, toCli, toCurl } from '../../../../electron/core/http/copy-as-command'
import { Redactor } from '../../../../electron/core/http/redactor'

describe('copy as command', () => {
  it('toCurl hides the Authorization value and the licence-key segment even when the secret is not known', () => {
    const curl = toCurl(
      {
        method: 'POST',
        url: 'https://maps.example/advancedmaps/v1/unknownKey42/distance_matrix/driving/1,2;3,4?rtype=0',
        headers: { Authorization: 'Bearer not-remembered-token', 'Content-Type': 'application/json' },
        body: `{"a":"it's"}`,
      },
      new Redactor(),
    )
    expect(curl).toBe(
      `curl -sS -X POST -H 'Authorization: Bearer [REDACTED]' -H 'Content-Type: application/json' --data-binary '{"a":"it'\\''s"}' 'https://maps.example/advancedmaps/v1/[REDACTED]/distance_matrix/driving/1,2;3,4?rtype=0'`,
    )
  })

  it('toCli uses spec names and shell quoting', () => {
    expect(
      toCli('places.autosuggest', { query: 'MG Road', bridge: true, hyperLocal: false }, new Redactor()),
    ).toBe("geo-analyst call places.autosuggest 'query=MG Road' bridge=true")
    expect(shellQuote('a;b')).toBe("'a;b'")
  })
})
