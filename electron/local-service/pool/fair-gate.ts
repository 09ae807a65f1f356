import { currentPrincipal } from '../team/principal'
import { JobCancelled, PoolFull, UserLimit, retryAfterSeconds } from './errors'
import { FairQueue } from './fair-queue'

export interface GateOptions {
  /** Works run at most at once. */
  places: number
  /** Works waiting at most; past it `run` throws PoolFull (503). */
  maxQueue: number
  /** Works one user may have waiting; past it `run` throws UserLimit (429). */
  perUserQueue: number
  /** Places one user may hold while another user's work waits. */
  perUserRunning: number
  /** Places only small works may take (default 0): large ones hold at most `places - reservedForSmall`. */
  reservedForSmall?: number
  /** A work of at most this weight is small. */
  smallWeight?: number
  /**
   * Large works one user may run at once, whoever waits (default: no limit but `places`). When set, every
   * work is weighed: what a user runs large is limited beyond this gate too (decision 034).
   */
  perUserLarge?: number
}

interface Waiting {
  user: string
  small: boolean
  start: () => void
  reject: (error: Error) => void
}

/**
 * A fair limit on work that runs on the serving thread but holds something scarce while it runs — a
 * PostGIS join holds one of the workspace's few database connections for its whole statement. At most
 * `places` run at once, the others wait, taken in turn across users (each user's in arrival order) as the
 * worker pool takes its jobs, with the same per-user limits and errors. What it keeps free (the database
 * connections beyond `places`) serves the cheap work, the dataset list, without waiting behind it.
 * `reservedForSmall` of the places take small works only, so a short join never waits behind long ones;
 * a work's weight is asked only when that choice is to be made.
 */
export class FairGate {
  private readonly queue = new FairQueue<Waiting>()
  private readonly running = new Map<string, number>()
  private readonly runningLarge = new Map<string, number>()
  /** Large works running (at most `places - reservedForSmall`). */
  private activeLarge = 0
  private active = 0
  private closed = false
  /** Recent durations (ms), for the Retry-After estimate. */
  private readonly durations: number[] = []

  constructor(private readonly options: GateOptions) {}

  /**
   * Run `work` once a place is free, told whether it went in as small; a caller's abort while it waits
   * takes it out of the queue. `weigh` tells the work's weight, asked only when it matters: when the places
   * large works may take are full as it arrives, or users' large works are limited (else the work goes in
   * at once, weighed or not). Without it, a work counts as large.
   */
  async run<T>(
    work: (small: boolean) => Promise<T>,
    signal?: AbortSignal,
    weigh?: () => Promise<number>,
  ): Promise<T> {
    if (this.closed) throw new Error('the service is stopping')
    if (signal?.aborted) throw new JobCancelled()
    const user = currentPrincipal()?.user ?? 'local'
    const o = this.options
    if (this.queue.length >= o.maxQueue)
      throw new PoolFull(retryAfterSeconds(this.durations, this.queue.length, o.places))
    const waiting = this.queue.waitingOf(user)
    if (waiting >= o.perUserQueue)
      throw new UserLimit(user, o.perUserQueue, retryAfterSeconds(this.durations, waiting, o.perUserRunning))
    // Weighed only where small and large are treated apart: the places left are kept for small works, or
    // users' large works are limited.
    const small =
      weigh !== undefined &&
      (o.perUserLarge !== undefined || this.activeLarge >= o.places - this.reserved) &&
      (await weigh().catch(() => Infinity)) <= (o.smallWeight ?? 0)
    if (signal?.aborted) throw new JobCancelled()
    if (this.closed) throw new Error('the service is stopping')
    await new Promise<void>((resolve, reject) => {
      const item: Waiting = { user, small, start: resolve, reject }
      const onAbort = () => {
        if (this.queue.remove(item)) reject(new JobCancelled())
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      item.start = () => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }
      this.queue.push(item)
      this.pump()
    })
    let started: number | undefined
    try {
      // The caller left as its turn came: its place goes to the next at once.
      if (signal?.aborted) throw new JobCancelled()
      started = Date.now()
      return await work(small)
    } finally {
      if (started !== undefined) this.durations.push(Date.now() - started)
      if (this.durations.length > 100) this.durations.splice(0, 50)
      this.active--
      count(this.running, user, -1)
      if (!small) {
        this.activeLarge--
        count(this.runningLarge, user, -1)
      }
      this.pump()
    }
  }

  /** Whether each user's large works are limited (a team server): every work is then weighed. */
  get limitsUsers(): boolean {
    return this.options.perUserLarge !== undefined
  }

  /** Works running and waiting. */
  get load(): { running: number; queued: number } {
    return { running: this.active, queued: this.queue.length }
  }

  private get perUserLarge(): number {
    return this.options.perUserLarge ?? Infinity
  }

  private get reserved(): number {
    return Math.min(this.options.reservedForSmall ?? 0, this.options.places - 1)
  }

  private pump(): void {
    // Large works hold at most the places not kept for small ones, and each user at most `perUserLarge`.
    const fits = (item: Waiting) =>
      item.small ||
      (this.activeLarge < this.options.places - this.reserved &&
        (this.runningLarge.get(item.user) ?? 0) < this.perUserLarge)
    const atShare = (user: string) => (this.running.get(user) ?? 0) >= this.options.perUserRunning
    while (this.active < this.options.places && !this.closed) {
      const next = this.queue.take(fits, atShare) ?? this.queue.take(fits)
      if (!next) return
      this.active++
      count(this.running, next.user, 1)
      if (!next.small) {
        this.activeLarge++
        count(this.runningLarge, next.user, 1)
      }
      next.start()
    }
  }

  /** Refuse what waits (the service is stopping); what runs finishes or is stopped by its own caller. */
  close(): void {
    this.closed = true
    const stopping = new Error('the service is stopping')
    for (const w of this.queue.drain()) w.reject(stopping)
  }
}

/** Add `by` to a user's count, forgetting the user at 0. */
function count(counts: Map<string, number>, user: string, by: number): void {
  const n = (counts.get(user) ?? 0) + by
  if (n > 0) counts.set(user, n)
  else counts.delete(user)
}
