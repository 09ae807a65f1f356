import type { Gazetteer } from '../data/gazetteer'

/**
 * Autosuggest's lookup tables (autosuggest.ts), built once per gazetteer: a spatial grid for the places near
 * the given location, and a trigram index of the index's words for typo-tolerant matching.
 */

const RAD = Math.PI / 180

export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const x = (lon2 - lon1) * RAD * Math.cos(((lat1 + lat2) / 2) * RAD)
  const y = (lat2 - lat1) * RAD
  return Math.sqrt(x * x + y * y) * 6371
}

// -------------------------------------------------------------------------------------------------
// Spatial grid (built once per gazetteer): rows by 0.25° cell, for places near the given location.

const CELL = 0.25
interface Grid {
  start: Map<number, [number, number]>
  rows: Uint32Array
}
const grids = new WeakMap<Gazetteer, Grid>()
const cellOf = (lat: number, lon: number) =>
  Math.floor((lat + 90) / CELL) * 2000 + Math.floor((lon + 180) / CELL)

function grid(g: Gazetteer): Grid {
  let out = grids.get(g)
  if (out) return out
  const cells = new Int32Array(g.size)
  for (let i = 0; i < g.size; i++) cells[i] = cellOf(g.lat[i]! / 1e5, g.lon[i]! / 1e5)
  const rows = new Uint32Array(g.size)
  for (let i = 0; i < g.size; i++) rows[i] = i
  rows.sort((a, b) => cells[a]! - cells[b]! || a - b)
  const start = new Map<number, [number, number]>()
  let i = 0
  while (i < rows.length) {
    const c = cells[rows[i]!]!
    let j = i
    while (j < rows.length && cells[rows[j]!] === c) j++
    start.set(c, [i, j])
    i = j
  }
  out = { start, rows }
  grids.set(g, out)
  return out
}

export function* rowsNear(g: Gazetteer, lat: number, lon: number, cellsAround: number): Generator<number> {
  const { start, rows } = grid(g)
  const r0 = Math.floor((lat + 90) / CELL)
  const c0 = Math.floor((lon + 180) / CELL)
  for (let dr = -cellsAround; dr <= cellsAround; dr++)
    for (let dc = -cellsAround; dc <= cellsAround; dc++) {
      const range = start.get((r0 + dr) * 2000 + (c0 + dc))
      if (!range) continue
      for (let k = range[0]; k < range[1]; k++) yield rows[k]!
    }
}

// -------------------------------------------------------------------------------------------------
// Trigram index of the index's single words (built once per gazetteer), for typo-tolerant matching.

interface Trigrams {
  lists: Map<string, Uint32Array>
  counts: Uint8Array
}
const trigramIndexes = new WeakMap<Gazetteer, Trigrams>()

function gramsOf(word: string): string[] {
  const padded = `^${word}`
  const out: string[] = []
  for (let i = 0; i + 3 <= padded.length; i++) out.push(padded.slice(i, i + 3))
  return out
}

function trigrams(g: Gazetteer): Trigrams {
  let out = trigramIndexes.get(g)
  if (out) return out
  const build = new Map<string, number[]>()
  g.tokens.forEach((token, t) => {
    if (token.length < 3 || token.includes(' ') || !/^[a-z]/.test(token)) return
    for (const gram of new Set(gramsOf(token))) {
      const list = build.get(gram)
      if (list) list.push(t)
      else build.set(gram, [t])
    }
  })
  const lists = new Map<string, Uint32Array>()
  for (const [gram, list] of build) lists.set(gram, Uint32Array.from(list))
  out = { lists, counts: new Uint8Array(g.tokens.length) }
  trigramIndexes.set(g, out)
  return out
}

/** Words sharing enough trigrams with `word` to be within `budget` edits of it (or of their start). */
export function typoCandidates(g: Gazetteer, word: string, budget: number): number[] {
  const { lists, counts } = trigrams(g)
  const grams = [...new Set(gramsOf(word))]
  const need = Math.max(1, grams.length - 3 * budget)
  const touched: number[] = []
  const out: number[] = []
  for (const gram of grams) {
    const list = lists.get(gram)
    if (!list) continue
    for (let k = 0; k < list.length; k++) {
      const t = list[k]!
      if (counts[t] === 0) touched.push(t)
      if (++counts[t]! === need) out.push(t)
    }
  }
  for (const t of touched) counts[t] = 0
  return out
}

/** Build the lookup tables now rather than on the first request. */
export function prepareAutosuggest(g: Gazetteer): void {
  grid(g)
  trigrams(g)
  g.byEloc('000000')
}
