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
