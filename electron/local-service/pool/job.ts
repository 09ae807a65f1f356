/**
 * What a job of the worker pool sees: a serializable job in, and a way to stream parts of its answer and
 * report progress. Each area contributes its job kinds as a `WorkerPart` (listed in `electron/local-service/job-list.ts`);
 * the pool knows none.
 */
export interface JobIo {
  /** A part of a streamed answer; its buffer is transferred (moved, not copied) to the serving thread. */
  part(status: number, bytes: Uint8Array, last: boolean): void
  /** Progress of long work, forwarded to the caller's `onProgress`. */
  progress(progress: JobProgress): void
}

export interface JobProgress {
  phase: string
  done?: number
  total?: number
}

export type JobHandler<J = never, R = unknown> = (job: J, io: JobIo) => Promise<R>

/**
 * An area's part of a pool worker: its job kinds (`area.verb` → handler taking a serializable job and the
 * pool's `JobIo`, resolving with a serializable result), and what its engines hold in the worker.
 */
export interface WorkerPart {
  jobs: Readonly<Record<string, (job: never, io: JobIo) => Promise<unknown>>>
  /** Memory the area's engines hold outside the V8 heap (WebAssembly heaps, typed arrays, models). */
  externalBytes?: () => number
  /** The area's caches (estimated bytes, entries), by name, for diagnostics. */
  caches?: () => Record<string, number>
}

/** Memory a worker reports after each job: the pool retires a worker past its budget. */
export interface WorkerMemory {
  /** V8 heap in use. */
  heapBytes: number
  /** Memory outside the V8 heap that the worker's engines hold (WebAssembly heaps). */
  externalBytes: number
  /** What the areas' caches hold (estimates, part of the heap), by name: for diagnostics. */
  caches?: Record<string, number>
}

/** Messages from the serving thread to a worker: a job, or a part's buffer handed back once written. */
export type JobMessage = { id: number; kind: string; job: unknown } | { reuse: ArrayBuffer }

/** Messages from a worker to the serving thread. */
export type WorkerMessage =
  | { id: number; type: 'part'; status: number; bytes: Uint8Array; last: boolean }
  | { id: number; type: 'progress'; progress: JobProgress }
  | {
      id: number
      type: 'done'
      result: unknown
      memory: WorkerMemory
      /** The answer's last part, when the job streamed one: delivered before the job settles. */
      part?: { status: number; bytes: Uint8Array }
    }
  | { id: number; type: 'error'; name: string; message: string; memory: WorkerMemory }
