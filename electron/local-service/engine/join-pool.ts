import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { JoinJob } from './join-service'

/** One part of a join's answer as it leaves the worker: the status and a piece of the JSON body as UTF-8. */
export interface JoinWirePart {
  status: number
  bytes: Uint8Array
  /** The final part: the answer is complete. */
  last: boolean
}

interface Pending {
  id: number
  job: JoinJob
  onPart: (part: JoinWirePart) => void
  resolve: () => void
  reject: (error: Error) => void
  signal?: AbortSignal
}

export class JoinCancelled extends Error {
  constructor() {
    super('the join was cancelled: the client went away')
    this.name = 'JoinCancelled'
  }
}

/**
 * Start the worker: the built .js beside this file, else the .ts source, loaded through tsx's module hooks
 * (registered inside the worker, since loader flags are not passed on to worker threads).
 */
function spawnWorker(): Worker {
  const js = new URL('./join-worker.js', import.meta.url)
  if (existsSync(fileURLToPath(js))) return new Worker(js)
  const ts = new URL('./join-worker.ts', import.meta.url).href
  const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(ts)}) })`
  return new Worker(boot, { eval: true })
}

/**
 * Joins run in worker threads, one job per worker at a time, queued beyond `size`. Aborting a job's signal
 * (the client disconnected) terminates its worker, which stops the work at once; a fresh worker takes its
 * place for the next job.
 */
export class JoinPool {
  private readonly idle: Worker[] = []
  private readonly busy = new Map<Worker, Pending>()
  private readonly queue: Pending[] = []
  private nextId = 1
  private closed = false

  constructor(private readonly size = 1) {}

  /**
   * Run a job; its answer arrives part by part through `onPart` (the first part carries the status, the
   * last one has `last: true`), and the promise settles after the last part or on failure.
   */
  run(job: JoinJob, onPart: (part: JoinWirePart) => void, signal?: AbortSignal): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the join pool is closed'))
    if (signal?.aborted) return Promise.reject(new JoinCancelled())
    return new Promise((resolve, reject) => {
      const pending: Pending = { id: this.nextId++, job, onPart, resolve, reject, signal }
      signal?.addEventListener(
        'abort',
        () => {
          const queued = this.queue.indexOf(pending)
          if (queued >= 0) {
            this.queue.splice(queued, 1)
            reject(new JoinCancelled())
            return
          }
          for (const [worker, p] of this.busy) {
            if (p === pending) {
              this.busy.delete(worker)
              void worker.terminate()
              reject(new JoinCancelled())
              this.pump()
            }
          }
        },
        { once: true },
      )
      this.queue.push(pending)
      this.pump()
    })
  }

  /** Jobs running or waiting. */
  get load(): number {
    return this.busy.size + this.queue.length
  }

  private spawn(): Worker {
    const worker = spawnWorker()
    worker.on('message', (message: Partial<JoinWirePart> & { id: number; error?: string }) => {
      const pending = this.busy.get(worker)
      if (!pending || pending.id !== message.id) return
      if (message.bytes && message.status !== undefined) {
        try {
          pending.onPart({ status: message.status, bytes: message.bytes, last: message.last === true })
        } catch (error) {
          message = { id: message.id, error: (error as Error).message }
        }
        if (!message.last && message.error === undefined) return
      }
      this.busy.delete(worker)
      this.idle.push(worker)
      if (message.error === undefined) pending.resolve()
      else pending.reject(new Error(message.error || 'the join worker failed'))
      this.pump()
    })
    worker.on('error', (error) => {
      const pending = this.busy.get(worker)
      this.busy.delete(worker)
      pending?.reject(error)
      this.pump()
    })
    worker.on('exit', () => {
      const i = this.idle.indexOf(worker)
      if (i >= 0) this.idle.splice(i, 1)
      const pending = this.busy.get(worker)
      if (pending) {
        this.busy.delete(worker)
        pending.reject(new Error('the join worker stopped'))
      }
    })
    return worker
  }

  private pump(): void {
    while (this.queue.length > 0 && this.busy.size < this.size) {
      const pending = this.queue.shift()!
      const worker = this.idle.pop() ?? this.spawn()
      this.busy.set(worker, pending)
      worker.postMessage({ id: pending.id, job: pending.job })
    }
  }

  async close(): Promise<void> {
    this.closed = true
    for (const p of this.queue.splice(0)) p.reject(new Error('the service is stopping'))
    const all = [...this.idle, ...this.busy.keys()]
    for (const p of this.busy.values()) p.reject(new Error('the service is stopping'))
    this.busy.clear()
    this.idle.length = 0
    await Promise.all(all.map((w) => w.terminate()))
  }
}
