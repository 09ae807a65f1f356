import { ColumnStore, type TableQuery, type WorkerAnswer, type WorkerRequest } from './table-query'

/** Rows handed to the worker per message: each message is a structured clone, kept short for the page. */
const CHUNK_ROWS = 25_000

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))
/**
 * The rows go to the worker this long after the result arrives (or at its first query, if sooner): their
 * copying would otherwise share the page's thread with the table's and the map's first paint.
 */
const LOAD_AFTER_MS = 1_500

/**
 * The filter and sort of one large result, run in a Web Worker: the rows' values go to the worker once, in
 * chunks between which the page stays responsive, once the result is on screen; each query answers the
 * positions to show. Without
 * Worker (tests), the same code runs inline.
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

  constructor(rows: ReadonlyArray<Readonly<Record<string, string>>>, keys: readonly string[]) {
    if (typeof Worker !== 'undefined') {
      this.worker = new Worker(new URL('./table-query-worker.ts', import.meta.url), { type: 'module' })
      this.worker.onmessage = (event: MessageEvent<WorkerAnswer>) => {
        this.pending.get(event.data.id)?.(event.data.order)
        this.pending.delete(event.data.id)
      }
    } else this.inline = new ColumnStore(keys)
    this.timer = setTimeout(this.begin, LOAD_AFTER_MS)
    this.loaded = this.load(rows, keys)
  }

  private post(message: WorkerRequest): void {
    this.worker?.postMessage(message)
  }

  private async load(rows: ReadonlyArray<Readonly<Record<string, string>>>, keys: readonly string[]) {
    await this.begun
    this.post({ kind: 'reset', keys: [...keys] })
    for (let start = 0; start < rows.length && !this.disposed; start += CHUNK_ROWS) {
      const end = Math.min(rows.length, start + CHUNK_ROWS)
      const columns = keys.map((k) => {
        const col = new Array<string>(end - start)
        for (let i = start; i < end; i++) col[i - start] = rows[i]![k] ?? ''
        return col
      })
      if (this.inline) this.inline.append(columns)
      else this.post({ kind: 'append', columns })
      await nextTask()
    }
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
