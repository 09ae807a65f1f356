/**
 * A map from OSM ids (integers below 2^53) to dense indexes 0..n-1, as open addressing over typed arrays:
 * about 12 bytes per id at a load factor of 1/2, where a `Map` needs several times that.
 */
export class IdIndex {
  private keys: Float64Array
  private values: Int32Array
  private mask: number
  private count = 0

  constructor(capacity = 1 << 16) {
    let size = 1
    while (size < capacity * 2) size <<= 1
    this.keys = new Float64Array(size).fill(-1)
    this.values = new Int32Array(size)
    this.mask = size - 1
  }

  get size(): number {
    return this.count
  }

  private slot(id: number): number {
    // Mix the high and low 32-bit halves; ids are dense in places, so spread them.
    const lo = id >>> 0
    const hi = Math.floor(id / 4294967296) >>> 0
    let h = Math.imul(lo ^ Math.imul(hi, 0x27d4eb2d), 0x9e3779b1)
    h ^= h >>> 15
    let i = h & this.mask
    const keys = this.keys
    while (keys[i] !== -1 && keys[i] !== id) i = (i + 1) & this.mask
    return i
  }

  /** The dense index of `id`, or -1. */
  get(id: number): number {
    const i = this.slot(id)
    return this.keys[i] === id ? this.values[i]! : -1
  }

  /** The dense index of `id`, assigning the next one when it is new. */
  getOrAdd(id: number): number {
    const i = this.slot(id)
    if (this.keys[i] === id) return this.values[i]!
    this.keys[i] = id
    this.values[i] = this.count
    this.count++
    if (this.count * 2 > this.keys.length) this.grow()
    return this.count - 1
  }

  private grow(): void {
    const oldKeys = this.keys
    const oldValues = this.values
    this.keys = new Float64Array(oldKeys.length * 2).fill(-1)
    this.values = new Int32Array(oldKeys.length * 2)
    this.mask = this.keys.length - 1
    for (let j = 0; j < oldKeys.length; j++) {
      const k = oldKeys[j]!
      if (k === -1) continue
      const i = this.slot(k)
      this.keys[i] = k
      this.values[i] = oldValues[j]!
    }
  }

  /** Drop the table (after the last lookup) so its memory can go. */
  release(): void {
    this.keys = new Float64Array(1).fill(-1)
    this.values = new Int32Array(1)
    this.mask = 0
  }
}

type TypedCtor<T> = { new (length: number): T; BYTES_PER_ELEMENT: number }

/** An append-only typed array that doubles its storage as it fills. */
export class Growable<T extends Int32Array | Uint32Array | Uint16Array | Uint8Array | Float64Array> {
  private data: T
  length = 0

  constructor(
    private readonly Ctor: TypedCtor<T>,
    capacity = 1024,
  ) {
    this.data = new Ctor(capacity)
  }

  push(value: number): void {
    if (this.length === this.data.length) this.reserve(this.length * 2)
    this.data[this.length++] = value
  }

  get(i: number): number {
    return this.data[i]!
  }

  set(i: number, value: number): void {
    this.data[i] = value
  }

  /** Make room for index `n - 1` (new slots are 0). */
  reserve(n: number): void {
    if (n <= this.data.length) return
    const next = new this.Ctor(Math.max(n, this.data.length * 2))
    ;(next as unknown as { set(a: T): void }).set(this.data)
    this.data = next
  }

  /** A trimmed copy of the contents. */
  toArray(): T {
    return (this.data as unknown as { slice(a: number, b: number): T }).slice(0, this.length)
  }
}
