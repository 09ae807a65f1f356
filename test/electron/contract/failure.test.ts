import { describe, expect, it } from 'vitest'
import { RETRY_BY_CLASS, classifyStatus } from '../../../electron/contract'

describe('failure classes of spec §7', () => {
  it.each([
    [400, 'validation'],
    [405, 'validation'],
    [411, 'validation'],
    [413, 'validation'],
    [415, 'validation'],
    [422, 'validation'],
    [401, 'authentication'],
    [403, 'authorization-entitlement'],
    [404, 'not-found'],
    [410, 'not-found'],
    [409, 'conflict'],
    [412, 'conflict'],
    [428, 'conflict'],
    [429, 'rate-limited'],
    [408, 'timeout-network'],
    [504, 'timeout-network'],
    [500, 'provider-unavailable'],
    [502, 'provider-unavailable'],
    [503, 'provider-unavailable'],
    [507, 'provider-unavailable'],
    [202, 'unknown-outcome'],
    [418, 'unclassified'],
    [599, 'unclassified'],
  ])('status %i is %s', (status, failureClass) => {
    expect(classifyStatus(status)).toBe(failureClass)
  })

  it('leaves per-endpoint successes to the caller', () => {
    for (const status of [200, 201, 203, 204, 206]) expect(classifyStatus(status)).toBeNull()
  })

  it('gives each class the default retry of the table', () => {
    expect(RETRY_BY_CLASS).toMatchObject({
      authentication: 'fix-then-retry',
      'authorization-entitlement': 'do-not-retry',
      'not-found': 'do-not-retry',
      conflict: 'reconcile-first',
      'rate-limited': 'retry-after',
      'timeout-network': 'bounded-retry',
      'provider-unavailable': 'bounded-retry',
      'unknown-outcome': 'reconcile-first',
      unclassified: 'reconcile-first',
    })
  })
})
