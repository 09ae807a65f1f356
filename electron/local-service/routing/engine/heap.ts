/**
 * A binary min-heap of item ids 0..capacity-1 keyed by numbers, with decrease-key: the priority queue of
 * every search here. Typed arrays only; `clear` costs the number of items in the heap, not the capacity.
 */
export class IndexedHeap {
  private readonly items: Int32Array
  private readonly keys: Float64Array
  /** Position of an item in `items`, or -1. */
  private readonly pos: Int32Array
  size = 0

  constructor(capacity: number) {
    this.items = new Int32Array(Math.max(1, capacity))
    this.keys = new Float64Array(Math.max(1, capacity))
    this.pos = new Int32Array(Math.max(1, capacity)).fill(-1)
  }

  has(item: number): boolean {
    return this.pos[item]! >= 0
  }

  key(item: number): number {
    return this.keys[item]!
  }

  /** Insert, or lower the key of an item already in the heap (a higher key is ignored). */
  push(item: number, key: number): void {
    const p = this.pos[item]!
    if (p >= 0) {
      if (key < this.keys[item]!) {
        this.keys[item] = key
        this.up(p)
      }
      return
    }
    this.keys[item] = key
    this.items[this.size] = item
    this.pos[item] = this.size
    this.up(this.size++)
  }

  /** Set an item's key whatever it was (insert when absent). */
  update(item: number, key: number): void {
    const p = this.pos[item]!
    if (p < 0) {
      this.push(item, key)
      return
    }
    const old = this.keys[item]!
    this.keys[item] = key
    if (key < old) this.up(p)
    else this.down(p)
  }

  peekKey(): number {
    return this.keys[this.items[0]!]!
  }

  peek(): number {
    return this.items[0]!
  }

  pop(): number {
    const items = this.items
    const top = items[0]!
    this.pos[top] = -1
    const last = items[--this.size]!
    if (this.size > 0) {
      items[0] = last
      this.pos[last] = 0
      this.down(0)
    }
    return top
  }

  clear(): void {
    for (let i = 0; i < this.size; i++) this.pos[this.items[i]!] = -1
    this.size = 0
  }

  private up(i: number): void {
    const items = this.items
    const keys = this.keys
    const pos = this.pos
    const item = items[i]!
    const key = keys[item]!
    while (i > 0) {
      const parent = (i - 1) >> 1
      const pItem = items[parent]!
      if (keys[pItem]! <= key) break
      items[i] = pItem
      pos[pItem] = i
      i = parent
    }
    items[i] = item
    pos[item] = i
  }

  private down(i: number): void {
    const items = this.items
    const keys = this.keys
    const pos = this.pos
    const n = this.size
    const item = items[i]!
    const key = keys[item]!
    for (;;) {
      let child = 2 * i + 1
      if (child >= n) break
      const right = child + 1
      if (right < n && keys[items[right]!]! < keys[items[child]!]!) child = right
      const cItem = items[child]!
      if (keys[cItem]! >= key) break
      items[i] = cItem
      pos[cItem] = i
      i = child
    }
    items[i] = item
    pos[item] = i
  }
}
