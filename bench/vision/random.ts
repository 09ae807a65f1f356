/** A small seeded generator (mulberry32), so the labelled set is the same on every machine. */
export class Rng {
  private state: number
  constructor(seed: number) {
    this.state = seed >>> 0
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0)
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  range(min: number, max: number): number {
    return min + (max - min) * this.next()
  }
  int(min: number, max: number): number {
    return Math.floor(this.range(min, max + 1))
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T
  }
  chance(p: number): boolean {
    return this.next() < p
  }
  normal(): number {
    const u = Math.max(1e-9, this.next())
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next())
  }
  /** A fast source of standard normal values: a table of 65536 drawn once, indexed by a cheap generator. */
  gaussianTable(): () => number {
    const table = new Float32Array(65536)
    for (let i = 0; i < table.length; i++) table[i] = this.normal()
    let x = (this.next() * 4294967296) >>> 0 || 1
    return () => {
      x ^= x << 13
      x ^= x >>> 17
      x ^= x << 5
      return table[(x >>> 0) & 65535] as number
    }
  }
}
