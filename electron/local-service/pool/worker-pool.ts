import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker, type ResourceLimits } from 'node:worker_threads'
import type { JobKind, JobOf, ResultOf } from '../jobs'
import { currentPrincipal } from '../team/principal'
import { JobCancelled, JobFailed, PoolFull, UserLimit, retryAfterSeconds } from './errors'
import { FairGate } from './fair-gate'
import { FairQueue } from './fair-queue'
import { CHUNK_BYTES } from '../engine/json-chunks'
import type { JobMessage, JobProgress, WorkerMemory, WorkerMessage } from './job'

export { JobCancelled, JobFailed, PoolFull, UserLimit } from './errors'

export interface PoolOptions {
  /** Worker threads at most (default 2). */
  workers?: number
  /**
   * Workers kept free of large jobs, so a small job never queues behind big ones (default 1 when there are
   * at least two workers, else 0 — then a small job gets an extra worker of its own while a large one runs).
   */
  reservedForSmall?: number
  /** Jobs waiting at most; past it `run` throws PoolFull (default 64). */
  maxQueue?: number
  /**
   * Jobs one user may have waiting; past it `run` throws UserLimit (default 16). The single-token service
   * sets none (its one user meets PoolFull at `maxQueue`, as before); a team server's users get the default.
   */
  perUserQueue?: number
  /**
   * Workers one user's jobs may hold while another user has a job that could start (default half the
   * workers, at least 1). Alone, a user may use every worker.
   */
  perUserRunning?: number
  /**
   * PostGIS joins (with their saves) running at once, each holding one of the workspace's database
   * connections (4): the rest is kept for the dataset list and other short statements (default 3). The
   * joins wait their turn in `database`, fairly between users, with the same per-user limits.
   */
  databaseJoins?: number
  /** A job of at most this weight is small (default 50,000 — e.g. features a join reads). */
  smallWeight?: number
  /** Large PostGIS joins one user may run at once on this instance (default: no limit but the places). */
  perUserLargeJoins?: number
  /** A worker whose heap and engine memory exceed this after a job is retired (default 1.5 GiB). */
  maxWorkerBytes?: number
  /** The worker script (tests serve their own job kinds); defaults to the built `pool-worker.js` or the .ts source. */
  workerUrl?: URL
  /** Heap limits of each worker (e.g. the import pool's memory budget); past them V8 stops that worker. */
  resourceLimits?: ResourceLimits
  /**
   * Called once a worker thread has stopped, however it stopped (retired, terminated because its caller
   * went away, crashed, or the pool closed), with its thread id: to clean up what a job left half-written.
   * `close` waits for it; what it throws is ignored.
   */
  onWorkerExit?: (threadId: number) => Promise<unknown> | void
}

export interface RunOptions {
  signal?: AbortSignal
  /** The job's expected cost in the area's units; at most `smallWeight` is small (default: small). */
  weight?: number
  /**
   * A part of a streamed answer. `written()`, called once its bytes went out (the socket's write callback),
   * hands a full chunk's buffer back to its worker for its next chunks (`reuseChunkBuffer`); `bytes` is
   * then no longer readable here.
   */
  onPart?: (part: { status: number; bytes: Uint8Array; last: boolean; written(): void }) => void
  onProgress?: (progress: JobProgress) => void
  /** Called when the job leaves the queue for a worker (what it throws is ignored). */
  onStart?: () => void
}

interface Pending {
  id: number
  /** Whose job it is: the request's principal, `local` outside a request. */
  user: string
  kind: string
  job: unknown
  small: boolean
  options: RunOptions
  resolve: (value: unknown) => void
  reject: (error: Error) => void
  started?: number
}

/**
 * Hands a full chunk's buffer back to the worker that made it, once its bytes were written (decision 035: a
 * buffer moved here and dropped counted as this thread's external memory, and made V8 collect its whole
 * heap every few seconds while large answers streamed). Other sizes stay here for the collector.
 */
function handBack(worker: Worker, bytes: Uint8Array): () => void {
  return () => {
    const buffer = bytes.buffer
    if (!(buffer instanceof ArrayBuffer) || bytes.byteOffset !== 0 || buffer.byteLength !== CHUNK_BYTES)
      return
    try {
      worker.postMessage({ reuse: buffer } satisfies JobMessage, [buffer])
    } catch {
      // The worker has stopped: the buffer stays here.
    }
  }
}

interface Slot {
  worker: Worker
  job?: Pending
  /** Spawned beyond `workers` for one small job; retired when it finishes. */
  extra: boolean
}

/**
 * Start a worker: the built `pool-worker.js` beside this bundle, else the .ts source through tsx's module hooks
 * (registered inside the worker, since loader flags are not passed on to worker threads).
 */
function spawnWorker(url?: URL, resourceLimits?: ResourceLimits): Worker {
  const built = new URL('./pool-worker.js', import.meta.url)
  const script = url ?? (existsSync(fileURLToPath(built)) ? built : new URL('./worker.ts', import.meta.url))
  if (!script.pathname.endsWith('.ts')) return new Worker(script, { resourceLimits })
  const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(script.href)}) })`
  return new Worker(boot, { eval: true, resourceLimits })
}

/**
 * One pool of worker threads for every CPU-heavy job of the local service (joins, routing matrices, image
 * inference, imports), one job per worker at a time. Small jobs go first and have a worker kept for them; the
 * queue is bounded, and fair between users: each job belongs to the request's principal, users take turns
 * when a worker frees (each user's jobs in order), and one user may have only `perUserQueue` jobs waiting
 * (UserLimit → 429) and hold only `perUserRunning` workers while others wait; a caller's abort stops its job
 * (the worker is terminated and replaced on demand); a worker that grew past its memory budget is retired
 * after its job. PostGIS joins, which run in the database, take their turn the same way in `database`.
 */
export class WorkerPool {
  private readonly slots: Slot[] = []
  private readonly queue = new FairQueue<Pending>()
  private nextId = 1
  private closed = false
  private readonly size: number
  private readonly reserved: number
  private readonly maxQueue: number
  private readonly perUserQueue: number
  private readonly perUserRunning: number
  /** A job of at most this weight is small (takes the lane kept for small jobs). */
  readonly smallWeight: number
  private readonly maxWorkerBytes: number
  /** Every worker not yet exited, retired ones included (`close` waits for them all). */
  private readonly running = new Set<Worker>()
  /** The `onWorkerExit` calls not yet settled (`close` waits for them). */
  private readonly exiting = new Set<Promise<void>>()
  /** Recent job durations (ms), for the Retry-After estimate. */
  private readonly durations: number[] = []
  /** The fair limit on database joins (they run on the serving thread, not in a worker). */
  readonly database: FairGate
  /** The worker threads of PostGIS joins (`databaseWorkers`), started at the first. */
  private databaseThreads: WorkerPool | undefined
  /** What the pool did, for benchmarks and tests. */
  readonly stats = { spawned: 0, retired: 0, lastMemory: undefined as WorkerMemory | undefined }

  constructor(private readonly options: PoolOptions = {}) {
    this.size = Math.max(1, options.workers ?? 2)
    this.reserved = Math.min(options.reservedForSmall ?? (this.size > 1 ? 1 : 0), this.size - 1)
    this.maxQueue = options.maxQueue ?? 64
    this.perUserQueue = Math.max(1, Math.min(options.perUserQueue ?? 16, this.maxQueue))
    this.perUserRunning = Math.max(1, options.perUserRunning ?? Math.floor(this.size / 2))
    this.smallWeight = options.smallWeight ?? 50_000
    const joins = Math.max(1, options.databaseJoins ?? 3)
    this.database = new FairGate({
      places: joins,
      maxQueue: this.maxQueue,
      perUserQueue: this.perUserQueue,
      perUserRunning: Math.max(1, Math.floor(joins / 2)),
      // One place kept for small joins (a few seconds' worth of rows at most) when there are several.
      reservedForSmall: joins > 1 ? 1 : 0,
      smallWeight: this.smallWeight,
      ...(options.perUserLargeJoins !== undefined ? { perUserLarge: options.perUserLargeJoins } : {}),
    })
    this.maxWorkerBytes = options.maxWorkerBytes ?? 1.5 * 1024 ** 3
  }

  /**
   * The worker threads that run PostGIS joins (their rows parsed and written off the serving thread): one
   * per join `database` lets run, plus one kept for small joins, with this pool's per-user limits. A pool
   * of its own, so a database join — which mostly waits for the database — never holds a worker the
   * service's CPU-heavy jobs need.
   */
  get databaseWorkers(): WorkerPool {
    if (this.closed) throw new Error('the worker pool is closed')
    const joins = Math.max(1, this.options.databaseJoins ?? 3)
    this.databaseThreads ??= new WorkerPool({
      workers: joins + 1,
      reservedForSmall: 1,
      maxQueue: this.maxQueue,
      perUserQueue: this.perUserQueue,
      ...(this.options.workerUrl ? { workerUrl: this.options.workerUrl } : {}),
      ...(this.options.smallWeight !== undefined ? { smallWeight: this.options.smallWeight } : {}),
    })
    return this.databaseThreads
  }

  /**
   * Start every worker now, and resolve once each has loaded its job kinds (it answered a first message):
   * a service that will need them (the database threads) does not make its first jobs wait for that.
   */
  warm(): Promise<void> {
    const ready: Promise<void>[] = []
    while (!this.closed && this.slots.filter((s) => !s.extra).length < this.size) {
      const worker = this.spawn(false).worker
      ready.push(
        new Promise<void>((resolve) => {
          const done = () => {
            worker.off('message', onMessage)
            worker.off('exit', done)
            resolve()
          }
          // Job ids start at 1: id 0 is this first message's answer (an error: no job kind "").
          const onMessage = (message: WorkerMessage) => {
            if (message.id === 0) done()
          }
          worker.on('message', onMessage)
          worker.once('exit', done)
        }),
      )
      const ping: JobMessage = { id: 0, kind: '', job: null }
      worker.postMessage(ping)
    }
    return Promise.all(ready).then(() => undefined)
  }

  /** Whether a job of this weight is small (takes the lane kept for small jobs). */
  isSmall(weight: number): boolean {
    return weight <= this.smallWeight
  }

  /** Run a job of an area's kind; resolves with the job's result, after every part it streamed. */
  run<K extends JobKind>(kind: K, job: JobOf<K>, options: RunOptions = {}): Promise<ResultOf<K>> {
    if (this.closed) return Promise.reject(new Error('the worker pool is closed'))
    if (options.signal?.aborted) return Promise.reject(new JobCancelled())
    // The whole queue full is the service's limit (503); short of it, a user's own (429).
    if (this.queue.length >= this.maxQueue) return Promise.reject(new PoolFull(this.retryAfter()))
    const user = currentPrincipal()?.user ?? 'local'
    const waiting = this.queue.waitingOf(user)
    if (waiting >= this.perUserQueue)
      return Promise.reject(
        new UserLimit(user, this.perUserQueue, this.retryAfter(waiting, this.perUserRunning)),
      )
    return new Promise((resolve, reject) => {
      const pending: Pending = {
        id: this.nextId++,
        user,
        kind,
        job,
        small: (options.weight ?? 0) <= this.smallWeight,
        options,
        resolve: resolve as (value: unknown) => void,
        reject,
      }
      options.signal?.addEventListener('abort', () => this.cancel(pending), { once: true })
      // Small jobs wait ahead of large ones; each user's in arrival order, users in turn.
      this.queue.push(pending)
      this.pump()
    })
  }

  /** Jobs running and waiting. */
  get load(): { running: number; queued: number; workers: number } {
    return {
      running: this.slots.filter((s) => s.job).length,
      queued: this.queue.length,
      workers: this.slots.length,
    }
  }

  private cancel(pending: Pending): void {
    if (this.queue.remove(pending)) {
      pending.reject(new JobCancelled())
      return
    }
    const slot = this.slots.find((s) => s.job === pending)
    if (!slot) return
    this.retire(slot)
    pending.reject(new JobCancelled())
    this.pump()
  }

  private retryAfter(ahead = this.queue.length, workers = this.size): number {
    return retryAfterSeconds(this.durations, ahead, workers)
  }

  private retire(slot: Slot): void {
    const i = this.slots.indexOf(slot)
    if (i >= 0) this.slots.splice(i, 1)
    this.stats.retired++
    slot.job = undefined
    void slot.worker.terminate()
  }

  private spawn(extra: boolean): Slot {
    const worker = spawnWorker(this.options.workerUrl, this.options.resourceLimits)
    this.stats.spawned++
    const slot: Slot = { worker, extra }
    this.running.add(worker)
    // The id is read now: a worker that has exited reports -1.
    const threadId = worker.threadId
    const onWorkerExit = this.options.onWorkerExit
    worker.once('exit', () => {
      this.running.delete(worker)
      if (onWorkerExit) {
        const done: Promise<void> = Promise.resolve()
          .then(() => onWorkerExit(threadId))
          .then(
            () => undefined,
            () => undefined,
          )
          .finally(() => this.exiting.delete(done))
        this.exiting.add(done)
      }
    })
    worker.on('message', (message: WorkerMessage) => this.onMessage(slot, message))
    worker.on('error', (error) => this.onExit(slot, error))
    worker.on('exit', () => this.onExit(slot, new Error('the worker stopped')))
    this.slots.push(slot)
    return slot
  }

  private onMessage(slot: Slot, message: WorkerMessage): void {
    const pending = slot.job
    if (!pending || pending.id !== message.id) return
    switch (message.type) {
      case 'part':
        try {
          pending.options.onPart?.({
            status: message.status,
            bytes: message.bytes,
            last: message.last,
            written: handBack(slot.worker, message.bytes),
          })
        } catch (error) {
          this.finish(slot, () => pending.reject(error as Error), true)
        }
        return
      case 'progress':
        pending.options.onProgress?.(message.progress)
        return
      case 'done':
        this.stats.lastMemory = message.memory
        if (message.part) {
          try {
            pending.options.onPart?.({
              ...message.part,
              last: true,
              written: handBack(slot.worker, message.part.bytes),
            })
          } catch (error) {
            this.finish(slot, () => pending.reject(error as Error), this.overBudget(message.memory))
            return
          }
        }
        this.finish(slot, () => pending.resolve(message.result), this.overBudget(message.memory))
        return
      case 'error':
        this.stats.lastMemory = message.memory
        this.finish(
          slot,
          () => pending.reject(new JobFailed(message.message || 'the job failed', message.name)),
          this.overBudget(message.memory),
        )
    }
  }

  private overBudget(memory: WorkerMemory): boolean {
    return memory.heapBytes + memory.externalBytes > this.maxWorkerBytes
  }

  private finish(slot: Slot, settle: () => void, retire: boolean): void {
    const pending = slot.job
    if (pending?.started !== undefined) {
      this.durations.push(Date.now() - pending.started)
      if (this.durations.length > 100) this.durations.splice(0, 50)
    }
    slot.job = undefined
    if (retire || slot.extra) this.retire(slot)
    settle()
    this.pump()
  }

  private onExit(slot: Slot, error: Error): void {
    const i = this.slots.indexOf(slot)
    if (i < 0) return
    this.slots.splice(i, 1)
    const pending = slot.job
    slot.job = undefined
    pending?.reject(error)
    this.pump()
  }

  /**
   * Start what may start: a large job only on a worker not kept for small ones; users in turn, one past
   * `perUserRunning` workers only when no other user's job could start instead.
   */
  private pump(): void {
    while (this.queue.length > 0 && !this.closed) {
      const running = this.slots.filter((s) => s.job)
      const largeRunning = running.filter((s) => !s.job!.small).length
      const regular = this.slots.filter((s) => !s.extra)
      const regularFree = regular.some((s) => !s.job) || regular.length < this.size
      // One worker only, busy with a large job: a small job gets a worker of its own.
      const extraFree =
        this.reserved === 0 && running.every((s) => !s.job!.small) && !this.slots.some((s) => s.extra)
      const fits = (p: Pending) =>
        p.small ? regularFree || extraFree : regularFree && largeRunning < this.size - this.reserved
      const atShare = (user: string) =>
        running.filter((s) => s.job!.user === user).length >= this.perUserRunning
      const next = this.queue.take(fits, atShare) ?? this.queue.take(fits)
      if (!next) return
      const slot =
        regular.find((s) => !s.job) ?? this.spawn(regular.length >= this.size && next.small && extraFree)
      slot.job = next
      next.started = Date.now()
      const message: JobMessage = { id: next.id, kind: next.kind, job: next.job }
      slot.worker.postMessage(message)
      try {
        next.options.onStart?.()
      } catch {
        // The caller's observer: what it throws is not the pool's to handle, nor another job's.
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true
    this.database.close()
    const databaseThreads = this.databaseThreads?.close()
    const stopping = new Error('the service is stopping')
    for (const p of this.queue.drain()) p.reject(stopping)
    const slots = this.slots.splice(0)
    for (const s of slots) s.job?.reject(stopping)
    // Retired workers still stopping too: terminate settles once the worker has exited, after the
    // 'exit' listener above queued its exit work.
    await Promise.all([...this.running].map((worker) => worker.terminate()))
    await Promise.all([...this.exiting])
    await databaseThreads
  }
}
