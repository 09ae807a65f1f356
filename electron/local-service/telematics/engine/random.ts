/** A 32-bit hash of a few integers: each simulated choice depends on its own inputs only (seed, vehicle, leg). */
export function hash32(...values: number[]): number {
  let h = 0x811c9dc5
  for (const v of values) {
    h ^= v | 0
    h = Math.imul(h, 0x01000193)
    h ^= h >>> 13
    h = Math.imul(h, 0x5bd1e995)
    h ^= h >>> 15
  }
  return h >>> 0
}

/**
 * A seeded generator whose whole state is one number (mulberry32), so 5,000 vehicles each carry their own
 * without allocation: `next()` advances and returns a value in [0, 1).
 */
export class Rng {
  private state: number

  constructor(seed: number) {
    this.state = seed >>> 0 || 1
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** A number in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next()
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor((max - min + 1) * this.next())
  }

  /** Seconds until an event that happens on average once per `meanSeconds` (exponential waiting time). */
  wait(meanSeconds: number): number {
    return Math.max(1, Math.round(-Math.log(1 - this.next()) * meanSeconds))
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!
  }
}
