export interface BackoffOptions {
  /** Failures from one address, within the window, before its attempts are slowed (default 5). */
  freeFailures?: number
  /** Failures older than this (since the address's last failure) are forgotten (default 15 minutes). */
  windowMs?: number
  /** The delay after the first failure past the free ones; it doubles with each further one (default 100 ms). */
  baseDelayMs?: number
  /** The longest an attempt is held (default 5 s): a valid secret always gets through after at most this. */
  maxDelayMs?: number
  /** Addresses remembered at most; the least recently seen is forgotten first (default 10,000). */
  maxAddresses?: number
  now?: () => number
  sleep?: (ms: number) => Promise<void>
}

interface Entry {
  failures: number
  lastFailure: number
}

/**
 * Slows down an address that keeps presenting wrong secrets: after `freeFailures` failures in the window,
 * each further attempt from it waits `baseDelayMs · 2^(n − freeFailures)` (capped at `maxDelayMs`) before it
 * is checked. A success resets the address; nothing is ever refused for its address alone, so a valid user
 * is slowed at most `maxDelayMs`, never locked out. The table is an LRU bounded by `maxAddresses`.
 */
export class FailureBackoff {
  private readonly entries = new Map<string, Entry>()
  private readonly free: number
  private readonly window: number
  private readonly base: number
  private readonly max: number
  private readonly maxAddresses: number
  private readonly now: () => number
  private readonly sleep: (ms: number) => Promise<void>

  constructor(options: BackoffOptions = {}) {
    this.free = options.freeFailures ?? 5
    this.window = options.windowMs ?? 15 * 60_000
    this.base = options.baseDelayMs ?? 100
    this.max = options.maxDelayMs ?? 5_000
    this.maxAddresses = options.maxAddresses ?? 10_000
    this.now = options.now ?? Date.now
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
  }

  /** Addresses remembered now. */
  get size(): number {
    return this.entries.size
  }

  /** How long an attempt from `address` waits before it is checked (0 when it is not slowed). */
  delayFor(address: string): number {
    const entry = this.entries.get(address)
    if (!entry) return 0
    if (this.now() - entry.lastFailure > this.window) {
      this.entries.delete(address)
      return 0
    }
    const over = entry.failures - this.free
    if (over < 0) return 0
    return Math.min(this.max, this.base * 2 ** Math.min(over, 30))
  }

  /** Wait as long as `address` has earned. */
  async wait(address: string): Promise<void> {
    const delay = this.delayFor(address)
    if (delay > 0) await this.sleep(delay)
  }

  failed(address: string): void {
    const entry = this.entries.get(address)
    const now = this.now()
    const failures = entry && now - entry.lastFailure <= this.window ? entry.failures + 1 : 1
    // Re-insert so the map's order is least recently failed first.
    this.entries.delete(address)
    this.entries.set(address, { failures, lastFailure: now })
    while (this.entries.size > this.maxAddresses) {
      const oldest = this.entries.keys().next().value
      if (oldest === undefined) break
      this.entries.delete(oldest)
    }
  }

  succeeded(address: string): void {
    this.entries.delete(address)
  }
}
