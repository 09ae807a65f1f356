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
}

interface Waiting {
  user: string
  small: false
  start: () => void
  reject: (error: Error) => void
}

/**
 * A fair limit on work that runs on the serving thread but holds something scarce while it runs — a
 * PostGIS join holds one of the workspace's few database connections for its whole statement. At most
 * `places` run at once, the others wait, taken in turn across users (each user's in arrival order) as the
 * worker pool takes its jobs, with the same per-user limits and errors. What it keeps free (the database
 * connections beyond `places`) serves the cheap work, the dataset list, without waiting behind it.
 */
export class FairGate {
  private readonly queue = new FairQueue<Waiting>()
  private readonly running = new Map<string, number>()
  private active = 0
  private closed = false
  /** Recent durations (ms), for the Retry-After estimate. */
  private readonly durations: number[] = []

  constructor(private readonly options: GateOptions) {}

  /** Run `work` once a place is free; a caller's abort while it waits takes it out of the queue. */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.closed) throw new Error('the service is stopping')
    if (signal?.aborted) throw new JobCancelled()
    const user = currentPrincipal()?.user ?? 'local'
    const o = this.options
    if (this.queue.length >= o.maxQueue)
      throw new PoolFull(retryAfterSeconds(this.durations, this.queue.length, o.places))
    const waiting = this.queue.waitingOf(user)
    if (waiting >= o.perUserQueue)
      throw new UserLimit(user, o.perUserQueue, retryAfterSeconds(this.durations, waiting, o.perUserRunning))
    await new Promise<void>((resolve, reject) => {
      const item: Waiting = { user, small: false, start: resolve, reject }
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
      return await work()
    } finally {
      if (started !== undefined) this.durations.push(Date.now() - started)
      if (this.durations.length > 100) this.durations.splice(0, 50)
      this.active--
      const left = (this.running.get(user) ?? 1) - 1
      if (left > 0) this.running.set(user, left)
      else this.running.delete(user)
      this.pump()
    }
  }

  /** Works running and waiting. */
  get load(): { running: number; queued: number } {
    return { running: this.active, queued: this.queue.length }
  }

  private pump(): void {
    const all = () => true
    const atShare = (user: string) => (this.running.get(user) ?? 0) >= this.options.perUserRunning
    while (this.active < this.options.places && !this.closed) {
      const next = this.queue.take(all, atShare) ?? this.queue.take(all)
      if (!next) return
      this.active++
      this.running.set(next.user, (this.running.get(next.user) ?? 0) + 1)
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
