/**
 * Filter and sort of the results table, as pure functions over columns of strings: run in a Web Worker for
 * large results (`table-query-worker.ts`), inline for small ones. Filter: rows where any column contains the
 * text, letter case aside. Sort: numbers by value when both cells are numbers, text otherwise.
 */
import { RowTable } from '../../../../shared/rows/row-table'

export interface TableQuery {
  text: string
  sortKey: string | null
  order: 1 | -1 | 0
}

export class ColumnStore {
  readonly values: string[][]
  private lower: Array<string[] | undefined> = []
  private numbers: Array<Float64Array | undefined> = []
  length = 0

  constructor(readonly keys: readonly string[]) {
    this.values = keys.map(() => [])
  }

  /** Append rows given column by column (`columns[k][i]`). */
  append(columns: readonly (readonly string[])[]): void {
    columns.forEach((col, k) => {
      const target = this.values[k]!
      for (const v of col) target.push(v)
    })
    this.length = this.values[0]?.length ?? 0
    this.lower = []
    this.numbers = []
  }

  private lowerOf(k: number): string[] {
    return (this.lower[k] ??= this.values[k]!.map((v) => v.toLowerCase()))
  }

  private numbersOf(k: number): Float64Array {
    let out = this.numbers[k]
    if (!out) {
      const col = this.values[k]!
      out = new Float64Array(col.length)
      for (let i = 0; i < col.length; i++) {
        const v = col[i]!
        out[i] = v.trim() === '' ? NaN : Number(v)
      }
      this.numbers[k] = out
    }
    return out
  }

  /** The positions of the rows to show, in the order to show them. */
  run(query: TableQuery): Uint32Array {
    const text = query.text.trim().toLowerCase()
    let order: Uint32Array
    if (text) {
      const cols = this.keys.map((_, k) => this.lowerOf(k))
      const hits: number[] = []
      for (let i = 0; i < this.length; i++) {
        for (const col of cols) {
          if (col[i]!.includes(text)) {
            hits.push(i)
            break
          }
        }
      }
      order = Uint32Array.from(hits)
    } else {
      order = new Uint32Array(this.length)
      for (let i = 0; i < this.length; i++) order[i] = i
    }
    const k = query.sortKey === null ? -1 : this.keys.indexOf(query.sortKey)
    if (k >= 0 && query.order !== 0) {
      const sign = query.order
      const nums = this.numbersOf(k)
      const texts = this.values[k]!
      const collator = new Intl.Collator()
      order.sort((a, b) => {
        const na = nums[a]!
        const nb = nums[b]!
        const c =
          Number.isFinite(na) && Number.isFinite(nb) ? na - nb : collator.compare(texts[a]!, texts[b]!)
        return sign * c || a - b
      })
    }
    return order
  }
}

/** The columns of a result's rows (the answer's bytes, read in place), as the filter and sort read them. */
export function columnStoreOf(rowsJson: Uint8Array, keys: readonly string[]): ColumnStore {
  const table = RowTable.read(rowsJson)
  const store = new ColumnStore(keys)
  store.append(keys.map((k) => table.column(k)))
  return store
}

/** The worker's side of the load: the answer's bytes arrive in parts, then its columns are read. */
export class PartsReceiver {
  private readonly bytes: Uint8Array
  private filled = 0

  constructor(
    size: number,
    private readonly keys: readonly string[],
  ) {
    this.bytes = new Uint8Array(size)
  }

  add(part: Uint8Array): void {
    if (this.filled + part.byteLength > this.bytes.byteLength) throw new Error('more bytes than announced')
    this.bytes.set(part, this.filled)
    this.filled += part.byteLength
  }

  finish(): ColumnStore {
    if (this.filled !== this.bytes.byteLength) throw new Error('fewer bytes than announced')
    return columnStoreOf(this.bytes, this.keys)
  }
}

export type WorkerRequest =
  | { kind: 'begin'; size: number; keys: string[] }
  | { kind: 'part'; bytes: Uint8Array }
  | { kind: 'end' }
  | { kind: 'query'; id: number; query: TableQuery }

export interface WorkerAnswer {
  id: number
  order: Uint32Array
}
