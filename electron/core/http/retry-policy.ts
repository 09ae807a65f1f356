import type { FailureClass } from '../../contract'

/**
 * When and how long to wait before another attempt. Defaults (documented in the README):
 * 4 attempts, 45 s overall, 15 s per attempt, backoff base 300 ms doubling to at most 5 s with full
 * jitter, Retry-After honoured up to 30 s (a longer wait is reported to the caller instead).
 */
export interface RetryPolicyOptions {
  maxAttempts: number
  totalBudgetMs: number
  attemptTimeoutMs: number
  baseDelayMs: number
  maxDelayMs: number
  retryAfterCapMs: number
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicyOptions> = {
  maxAttempts: 4,
  totalBudgetMs: 45_000,
  attemptTimeoutMs: 15_000,
  baseDelayMs: 300,
  maxDelayMs: 5_000,
  retryAfterCapMs: 30_000,
}

/** Classes a read may retry by itself (§7 bounded-retry and retry-after). Never 401, 403, 404, 409. */
const RETRYABLE: ReadonlySet<FailureClass> = new Set([
  'timeout-network',
  'provider-unavailable',
  'rate-limited',
])

export interface RetryDecisionInput {
  failureClass: FailureClass
  /** 1-based number of the attempt that just failed. */
  attempt: number
  /** Milliseconds spent since the first attempt began. */
  elapsedMs: number
  /** Whether the request may be sent again (reads, or a write that certainly never left). */
  replayable: boolean
  /** The provider's Retry-After, in ms, when it gave one. */
  retryAfterMs?: number
}

export type RetryDecision =
  | { retry: true; delayMs: number }
  | { retry: false; reason: 'class' | 'not-replayable' | 'attempts' | 'budget' | 'retry-after-too-long' }

export class RetryPolicy {
  readonly options: RetryPolicyOptions

  constructor(
    options: Partial<RetryPolicyOptions> = {},
    private readonly random: () => number = Math.random,
  ) {
    this.options = { ...DEFAULT_RETRY_POLICY, ...options }
  }

  /** Full jitter: a uniform wait in [0, min(max, base·2^(attempt-1))). */
  backoffMs(attempt: number): number {
    const ceiling = Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** (attempt - 1))
    return Math.floor(this.random() * ceiling)
  }

  decide(input: RetryDecisionInput): RetryDecision {
    if (!RETRYABLE.has(input.failureClass)) return { retry: false, reason: 'class' }
    if (!input.replayable) return { retry: false, reason: 'not-replayable' }
    if (input.attempt >= this.options.maxAttempts) return { retry: false, reason: 'attempts' }
    let delayMs: number
    if (input.retryAfterMs !== undefined) {
      if (input.retryAfterMs > this.options.retryAfterCapMs)
        return { retry: false, reason: 'retry-after-too-long' }
      delayMs = input.retryAfterMs
    } else {
      delayMs = this.backoffMs(input.attempt)
    }
    // Leave room for at least a short attempt after the wait.
    if (input.elapsedMs + delayMs + 50 >= this.options.totalBudgetMs)
      return { retry: false, reason: 'budget' }
    return { retry: true, delayMs }
  }
}
