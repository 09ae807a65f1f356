import {
  ColumnStore,
  columnStoreOf,
  type TableQuery,
  type WorkerAnswer,
  type WorkerRequest,
} from './table-query'

/**
 * The rows go to the worker this long after the result arrives (or at its first query, if sooner): their
 * copying would otherwise share the page's thread with the table's and the map's first paint.
 */
const LOAD_AFTER_MS = 1_500
/** Bytes handed to the worker per task. */
const PART_BYTES = 4 * 1024 * 1024

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/**
 * The filter and sort of one large result, run in a Web Worker: the answer's bytes go to the worker once
 * (one copy, in parts, no row objects), once the result is on screen, and the worker reads the columns;
 * each query answers the positions to show. Without Worker (tests), the same code runs inline.
 */
export class TableQueryClient {
  private worker: Worker | null = null
  private inline: ColumnStore | null = null
  private loaded: Promise<void>
  private seq = 0
  private pending = new Map<number, (order: Uint32Array) => void>()
  private disposed = false
  private begin: () => void = () => {}
  private readonly begun = new Promise<void>((resolve) => (this.begin = resolve))
  private readonly timer: ReturnType<typeof setTimeout>

  constructor(rowsJson: Uint8Array, keys: readonly string[]) {
    if (typeof Worker !== 'undefined') {
      this.worker = new Worker(new URL('./table-query-worker.ts', import.meta.url), { type: 'module' })
      this.worker.onmessage = (event: MessageEvent<WorkerAnswer>) => {
        this.pending.get(event.data.id)?.(event.data.order)
        this.pending.delete(event.data.id)
      }
    } else this.inline = new ColumnStore(keys)
    this.timer = setTimeout(this.begin, LOAD_AFTER_MS)
    this.loaded = this.load(rowsJson, keys)
  }

  private post(message: WorkerRequest): void {
    this.worker?.postMessage(message)
  }

  private async load(rowsJson: Uint8Array, keys: readonly string[]) {
    await this.begun
    if (this.disposed) return
    if (this.inline) {
      this.inline = columnStoreOf(rowsJson, keys)
      return
    }
    // The bytes go over in parts, each copied and handed over (not cloned) in a task of its own: one copy
    // of 72 MB held the page's thread for 0.4–0.5 s here (fresh memory is slow to touch on a virtual
    // machine), a part of 4 MB a few milliseconds.
    this.post({ kind: 'begin', size: rowsJson.byteLength, keys: [...keys] })
    for (let start = 0; start < rowsJson.byteLength && !this.disposed; start += PART_BYTES) {
      const part = rowsJson.slice(start, start + PART_BYTES)
      this.worker?.postMessage({ kind: 'part', bytes: part } satisfies WorkerRequest, [part.buffer])
      await nextTask()
    }
    this.post({ kind: 'end' })
  }

  /** The positions of the rows to show, in order. */
  async query(query: TableQuery): Promise<Uint32Array> {
    this.begin()
    await this.loaded
    if (this.inline) return this.inline.run(query)
    const id = ++this.seq
    return new Promise((resolve) => {
      this.pending.set(id, resolve)
      this.post({ kind: 'query', id, query })
    })
  }

  dispose(): void {
    this.disposed = true
    clearTimeout(this.timer)
    this.begin()
    this.worker?.terminate()
    this.worker = null
    this.pending.clear()
  }
}
