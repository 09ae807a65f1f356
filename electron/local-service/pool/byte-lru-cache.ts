/**
 * A least-recently-used cache bounded by bytes: each entry declares its size, and entries are evicted (oldest
 * use first) until the total fits. `onEvict` releases what an entry holds outside the JS heap (e.g. GEOS
 * geometries in the WebAssembly heap). An entry larger than the whole budget is not kept at all.
 */
export class ByteLruCache<K, V> {
  private readonly entries = new Map<K, { value: V; bytes: number }>()
  private total = 0

  constructor(
    readonly maxBytes: number,
    private readonly onEvict: (value: V, key: K) => void = () => undefined,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    // Re-insert: a Map iterates in insertion order, so the first key is the least recently used.
    this.entries.delete(key)
    this.entries.set(key, entry)
    return entry.value
  }

  /** Keep a value; returns false when it is larger than the whole budget (then it is not kept). */
  set(key: K, value: V, bytes: number): boolean {
    this.delete(key)
    if (bytes > this.maxBytes) return false
    this.entries.set(key, { value, bytes })
    this.total += bytes
    while (this.total > this.maxBytes) {
      const oldest = this.entries.keys().next().value as K
      this.delete(oldest)
    }
    return true
  }

  delete(key: K): void {
    const entry = this.entries.get(key)
    if (!entry) return
    this.entries.delete(key)
    this.total -= entry.bytes
    this.onEvict(entry.value, key)
  }

  clear(): void {
    for (const key of [...this.entries.keys()]) this.delete(key)
  }

  get size(): number {
    return this.entries.size
  }

  get bytes(): number {
    return this.total
  }
}
