/** A row of the table: the result's strings plus its index in the result (`__i`). */
export type ResultRow = Record<string, string> & { __i: string }

/**
 * The rows the table shows, by position: the result's rows in an order (all of them in their own order when
 * `order` is null). A row is made when it is read, so a million-row result costs nothing until it is shown;
 * it reads like an array where the table and the exports read it (`length`, `at`, `slice`).
 */
export class ResultRowList {
  constructor(
    private readonly rowAt: (index: number) => ResultRow,
    private readonly total: number,
    /** The result's row index at each position; null: every row, in the result's order. */
    readonly order: Uint32Array | null,
  ) {}

  get length(): number {
    return this.order ? this.order.length : this.total
  }

  /** The result's index of the row at `position`. */
  indexAt(position: number): number {
    return this.order ? this.order[position]! : position
  }

  /** The position of the result's row `index` in this list, or -1. */
  positionOf(index: number): number {
    if (!this.order) return index >= 0 && index < this.total ? index : -1
    return this.order.indexOf(index)
  }

  /** The position of the row whose `__i` is `key` (the table's row key). */
  positionOfKey(key: string): number {
    return /^\d+$/.test(key) ? this.positionOf(Number(key)) : -1
  }

  at(position: number): ResultRow | undefined {
    const p = position < 0 ? position + this.length : position
    return p >= 0 && p < this.length ? this.rowAt(this.indexAt(p)) : undefined
  }

  slice(start = 0, end = this.length): ResultRow[] {
    const from = Math.max(0, start)
    const to = Math.min(this.length, end)
    const out: ResultRow[] = []
    for (let p = from; p < to; p++) out.push(this.rowAt(this.indexAt(p)))
    return out
  }

  findIndex(predicate: (row: ResultRow, position: number) => boolean): number {
    for (let p = 0; p < this.length; p++) if (predicate(this.rowAt(this.indexAt(p)), p)) return p
    return -1
  }

  map<T>(f: (row: ResultRow, position: number) => T): T[] {
    return Array.from({ length: this.length }, (_, p) => f(this.rowAt(this.indexAt(p)), p))
  }
}

export type SortOrder = 1 | -1 | 0

/** Numbers by value, anything else as text. */
export function compareValues(a: string, b: string): number {
  const na = Number(a)
  const nb = Number(b)
  if (a.trim() !== '' && b.trim() !== '' && Number.isFinite(na) && Number.isFinite(nb)) return na - nb
  return a.localeCompare(b)
}
