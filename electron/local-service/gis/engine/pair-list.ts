import type { IdSorter } from './id-sort'

/**
 * The rows of a join as pairs (source index, reference index or -1), held in two growing typed arrays: no
 * object per row, and cheap to hand to the serializer.
 */
export class PairList {
  private src: Int32Array
  private ref: Int32Array
  private n = 0

  constructor(capacity = 1024) {
    this.src = new Int32Array(Math.max(16, capacity))
    this.ref = new Int32Array(Math.max(16, capacity))
  }

  static from(pairs: ReadonlyArray<readonly [number, number]>): PairList {
    const list = new PairList(pairs.length)
    for (const [s, r] of pairs) list.push(s, r)
    return list
  }

  get length(): number {
    return this.n
  }

  /** Appends a pair; returns the new length. */
  push(s: number, r: number): number {
    if (this.n === this.src.length) {
      const src = new Int32Array(this.n * 2)
      src.set(this.src)
      this.src = src
      const ref = new Int32Array(this.n * 2)
      ref.set(this.ref)
      this.ref = ref
    }
    this.src[this.n] = s
    this.ref[this.n] = r
    return ++this.n
  }

  source(i: number): number {
    return this.src[i]!
  }

  reference(i: number): number {
    return this.ref[i]!
  }

  /**
   * Sorts the pairs by reference index (0 ≤ r < `references`, -1 first), keeping the order of pairs with the
   * same reference (a stable counting sort: linear in pairs and references).
   */
  sortByReference(references: number): void {
    const n = this.n
    const counts = new Int32Array(references + 2)
    for (let i = 0; i < n; i++) counts[this.ref[i]! + 2]!++
    for (let r = 1; r < counts.length; r++) counts[r]! += counts[r - 1]!
    const src = new Int32Array(Math.max(16, this.src.length))
    const ref = new Int32Array(Math.max(16, this.ref.length))
    for (let i = 0; i < n; i++) {
      const r = this.ref[i]!
      const at = counts[r + 1]!++
      src[at] = this.src[i]!
      ref[at] = r
    }
    this.src = src
    this.ref = ref
  }

  /**
   * Sorts the pairs from `from` to the end — pairs of one reference — by source index (0 ≤ s < `sources`),
   * with `sorter`.
   */
  sortSources(from: number, sorter: IdSorter, sources: number): void {
    sorter.sort(this.src, from, this.n, sources)
  }

  /** Keeps the first `n` pairs. */
  truncate(n: number): void {
    if (n < this.n) this.n = n
  }

  toArray(): Array<[number, number]> {
    const out: Array<[number, number]> = new Array(this.n)
    for (let i = 0; i < this.n; i++) out[i] = [this.src[i]!, this.ref[i]!]
    return out
  }
}
