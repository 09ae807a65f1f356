/** A small seeded generator (mulberry32): the same seed gives the same points, in tests and simulations. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The last index i of a non-decreasing array with values[i] <= x (0 when none): the CSR row or edge holding x. */
export function lastAtMost(values: ArrayLike<number>, x: number, count = values.length): number {
  let lo = 0
  let hi = count - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (values[mid]! <= x) lo = mid
    else hi = mid - 1
  }
  return lo
}
