import type { Gazetteer } from '../data/gazetteer'
import { distanceKm, typoCandidates } from './autosuggest-index'
import { editDistance, hasDevanagari, normalize, phoneticKey, romanize, typoBudget } from './normalize'

/**
 * Autosuggest's matching (autosuggest.ts): the parameters read (location, filter), what each query word
 * matches in the index (exact, prefix, phonetic, typo), the index words it draws candidates from, and the
 * names and context words a candidate place is scored against.
 */

export function parseLatLng(value: string | undefined): [number, number] | undefined {
  if (!value) return undefined
  const [a, b] = value.replace(/\s+/g, '').split(',').map(Number)
  return Number.isFinite(a) && Number.isFinite(b) ? [a!, b!] : undefined
}

export type Filter =
  | { kind: 'pin'; pin: number }
  | { kind: 'bounds'; minLat: number; maxLat: number; minLng: number; maxLng: number }
  | { kind: 'cop'; eloc: string }

export function parseFilter(value: string | undefined): Filter | undefined {
  if (!value) return undefined
  const pin = /^pin:(\d{6})$/.exec(value)
  if (pin) return { kind: 'pin', pin: Number(pin[1]) }
  const cop = /^cop:([A-Za-z0-9]{6}(?:[A-Za-z0-9]{2})?)$/.exec(value)
  if (cop) return { kind: 'cop', eloc: cop[1]!.toUpperCase() }
  const bounds = /^bounds:([^;]+);([^;]+)$/.exec(value)
  const a = parseLatLng(bounds?.[1])
  const b = parseLatLng(bounds?.[2])
  if (a && b)
    return {
      kind: 'bounds',
      minLat: Math.min(a[0], b[0]),
      maxLat: Math.max(a[0], b[0]),
      minLng: Math.min(a[1], b[1]),
      maxLng: Math.max(a[1], b[1]),
    }
  return undefined
}

// -------------------------------------------------------------------------------------------------
// Matching

/** Index words a query word matches, with a weight (1 exact … 0.55 two typos) and how. */
type WordMatches = Map<string, { weight: number; how: string }>

export function setMatch(out: WordMatches, word: string, weight: number, how: string) {
  const had = out.get(word)
  if (!had || had.weight < weight) out.set(word, { weight, how })
}

export interface QueryWord {
  text: string
  /** Still being typed: any index word starting with it matches. */
  prefix: boolean
  digits: boolean
  /** Exact, phonetic and typo matches (prefix matches are tested directly). */
  matches: WordMatches
}

const PREFIX_WEIGHT = 0.92
/** Index words scanned at most for the candidates of one prefix. */
const PREFIX_TOKENS = 400

export function queryWord(g: Gazetteer, text: string, prefix: boolean, fuzzy = true): QueryWord {
  const out: WordMatches = new Map()
  const digits = /^\d+$/.test(text)
  const q = { text, prefix, digits, matches: out }
  if (g.tokenId(text) >= 0) setMatch(out, text, 1, 'exact')
  if (hasDevanagari(text) || digits || !fuzzy) return q
  // Spelling variants: the same phonetic key (dilli ~ delhi), or a key starting with it while typing.
  const key = phoneticKey(text)
  if (key.length >= 3) {
    for (const t of g.phoneticTokensOf(key)) setMatch(out, g.tokens[t]!, 0.85, 'phonetic')
    if (prefix && key.length >= 4) {
      const [from, to] = g.phoneticRange(key)
      for (let p = from; p < to && p < from + 100; p++)
        for (let k = g.phoneticStart[p]!; k < g.phoneticStart[p + 1]!; k++)
          setMatch(out, g.tokens[g.phoneticTokens[k]!]!, 0.8, 'phonetic')
    }
  }
  // Typing errors, when little else matched: words close in letters, found through shared trigrams and
  // checked by edit distance (compared as far as typed; a word still being typed needs five letters).
  const budget = typoBudget(text.length)
  const [pFrom, pTo] = prefix ? g.tokenRange(text) : [0, 0]
  if (budget > 0 && (!prefix || text.length >= 5) && out.size + (pTo - pFrom) < 5) {
    for (const t of typoCandidates(g, text, budget)) {
      const token = g.tokens[t]!
      const length = prefix && token.length > text.length ? text.length : token.length
      if (Math.abs(length - text.length) > budget) continue
      const d = editDistance(text, token, budget, length)
      if (d > 0 && d <= budget) setMatch(out, token, d === 1 ? 0.78 : 0.55, 'typo')
    }
  }
  return q
}

export function hit(q: QueryWord, word: string): { weight: number; how: string } | undefined {
  const m = q.matches.get(word)
  if (q.prefix && word.startsWith(q.text)) {
    const weight = word === q.text ? 1 : PREFIX_WEIGHT
    if (!m || m.weight < weight) return { weight, how: word === q.text ? 'exact' : 'prefix' }
  }
  return m
}

/** Index token ids a query word draws its candidates from, the most important places' words first. */
export function candidateTokens(g: Gazetteer, q: QueryWord): number[] {
  const ids = new Set<number>()
  for (const k of q.matches.keys()) {
    const id = g.tokenId(k)
    if (id >= 0) ids.add(id)
  }
  if (q.prefix) {
    const [from, to] = g.tokenRange(q.text)
    if (to - from <= PREFIX_TOKENS) for (let t = from; t < to; t++) ids.add(t)
    else {
      const best = (t: number) => g.importance[g.postings[g.tokenStart[t]!]!]!
      const range: number[] = []
      for (let t = from; t < to; t++) range.push(t)
      range.sort((a, b) => best(b) - best(a) || a - b)
      for (const t of range.slice(0, PREFIX_TOKENS)) ids.add(t)
    }
  }
  return [...ids]
}

export function postingsSize(g: Gazetteer, ids: number[]): number {
  let n = 0
  for (const id of ids) n += g.tokenStart[id + 1]! - g.tokenStart[id]!
  return n
}

export interface Scored {
  row: number
  text: number
  suggester: string
  score: number
}

const wordCaches = new WeakMap<Gazetteer, Map<number, { names: string[]; words: string[] }>>()

/** A row's own full names and their words (name, alternates, Hindi and its romanization), cached for rows that have more than a name. */
export function ownNames(g: Gazetteer, row: number): { names: string[]; words: string[] } {
  const key = g.key(row)
  const plain = g.altStart[row + 1] === g.altStart[row] && g.hiId[row] === 0
  if (plain) return { names: [key], words: key.split(' ') }
  let cache = wordCaches.get(g)
  if (!cache) wordCaches.set(g, (cache = new Map()))
  let out = cache.get(row)
  if (!out) {
    const names = [key]
    for (const text of [g.hindi(row), ...g.alts(row)]) {
      const n = normalize(text)
      if (!n) continue
      names.push(n)
      if (hasDevanagari(n)) names.push(normalize(romanize(n)))
    }
    out = { names, words: names.flatMap((n) => n.split(' ')) }
    cache.set(row, out)
  }
  return out
}

/** Words of the places a row lies in (city, district, state). */
export function contextWords(g: Gazetteer, row: number): string[] {
  const out: string[] = []
  for (const p of [g.city[row]!, g.district[row]!, g.state[row]!, g.subDistrict[row]!]) {
    if (p >= 0) out.push(...ownNames(g, p).words)
  }
  return out
}

export function inside(g: Gazetteer, row: number, target: number): boolean {
  if (row === target) return true
  switch (g.kindOf(target)) {
    case 'STATE':
      return g.state[row] === target
    case 'DIST':
      return g.district[row] === target
    case 'SDIST':
      return g.subDistrict[row] === target
    case 'CITY':
      return g.city[row] === target
    default:
      return (
        distanceKm(g.latitude(row), g.longitude(row), g.latitude(target), g.longitude(target)) <= 3 &&
        g.importance[row]! <= g.importance[target]!
      )
  }
}
