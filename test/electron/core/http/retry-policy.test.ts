import { describe, expect, it } from 'vitest'
import { DEFAULT_RETRY_POLICY, RetryPolicy } from '../../../../electron/core/http/retry-policy'

describe('RetryPolicy', () => {
  it('never retries authentication, entitlement, not-found, conflict or validation', () => {
    const p = new RetryPolicy()
    for (const failureClass of [
      'authentication',
      'authorization-entitlement',
      'not-found',
      'conflict',
      'validation',
      'unknown-outcome',
    ] as const) {
      expect(p.decide({ failureClass, attempt: 1, elapsedMs: 0, replayable: true })).toEqual({
        retry: false,
        reason: 'class',
      })
    }
  })
  it('never replays what is not replayable', () => {
    expect(
      new RetryPolicy().decide({
        failureClass: 'timeout-network',
        attempt: 1,
        elapsedMs: 0,
        replayable: false,
      }),
    ).toEqual({
      retry: false,
      reason: 'not-replayable',
    })
  })
  it('stops at the attempt budget and documents its defaults', () => {
    const p = new RetryPolicy({}, () => 0)
    expect(
      p.decide({
        failureClass: 'provider-unavailable',
        attempt: DEFAULT_RETRY_POLICY.maxAttempts,
        elapsedMs: 0,
        replayable: true,
      }),
    ).toMatchObject({
      retry: false,
      reason: 'attempts',
    })
    expect(DEFAULT_RETRY_POLICY).toEqual({
      maxAttempts: 4,
      totalBudgetMs: 45_000,
      attemptTimeoutMs: 15_000,
      baseDelayMs: 300,
      maxDelayMs: 5_000,
      retryAfterCapMs: 30_000,
    })
  })
  it('jitters uniformly under the exponential ceiling', () => {
    const low = new RetryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 }, () => 0)
    const high = new RetryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 }, () => 0.9999)
    expect([1, 2, 3, 4, 5].map((n) => low.backoffMs(n))).toEqual([0, 0, 0, 0, 0])
    expect([1, 2, 3, 4, 5].map((n) => high.backoffMs(n))).toEqual([99, 199, 399, 799, 999])
  })
})
