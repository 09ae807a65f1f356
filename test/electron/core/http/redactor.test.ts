import { describe, expect, it } from 'vitest'
import { Redactor } from '../../../../electron/core/http/redactor'

describe('Redactor', () => {
  const r = new Redactor()
  it('hides the licence-key path segment of every matrix resource, known secret or not', () => {
    for (const resource of [
      'distance_matrix',
      'distance_matrix_eta',
      'distance_matrix_traffic',
      'distance_matrix_predictive',
    ]) {
      expect(
        r.redact(`GET https://m.example/advancedmaps/v1/k3y-Value/${resource}/driving/1,2;3,4?x=1`),
      ).toBe(`GET https://m.example/advancedmaps/v1/[REDACTED]/${resource}/driving/1,2;3,4?x=1`)
    }
    expect(r.redact('/advancedmaps/abc/distance_matrix')).toBe('/advancedmaps/[REDACTED]/distance_matrix')
  })
  it('leaves ordinary paths alone', () => {
    expect(r.redact('http://h/mgis/query_apply/join?queryType=basic')).toBe(
      'http://h/mgis/query_apply/join?queryType=basic',
    )
    expect(r.redact('/x/distance_matrixes/y')).toBe('/x/distance_matrixes/y')
  })
  it('still hides remembered secrets, Authorization values and token query values', () => {
    const known = new Redactor()
    known.remember('s3cr3t-value')
    expect(known.redact('a s3cr3t-value b Authorization: Bearer other ?token=t1&x=2')).toBe(
      'a [REDACTED] b Authorization: Bearer [REDACTED] ?token=[REDACTED]&x=2',
    )
  })
})
