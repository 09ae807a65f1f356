/** Deterministic autosuggest queries for the places benchmark, made from the gazetteer's places. */
import type { Gazetteer } from '../electron/local-service/places/data/gazetteer'
import type { SuggestParams } from '../electron/local-service/places/engine/autosuggest'
import { normalize } from '../electron/local-service/places/engine/normalize'
import { mulberry32 } from './join-data'

export type Category = 'prefix' | 'typo' | 'hindi' | 'words' | 'near'
interface Query {
  params: SuggestParams
  category: Category
  /** eLoc of the place the query was made from (for recall@5 of complete names and typos). */
  target?: string
  complete: boolean
}

/** Deterministic queries made from the gazetteer's places (important places more often). */
export function makeQueries(g: Gazetteer, count: number, seed = 20260713): Query[] {
  const random = mulberry32(seed)
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!
  const important: number[] = []
  const any: number[] = []
  const hindi: number[] = []
  for (let i = 0; i < g.size; i++) {
    if (g.importance[i]! >= 0.45) important.push(i)
    if (g.hiId[i]) hindi.push(i)
    if (/^[A-Za-z ]+$/.test(g.name(i))) any.push(i)
  }
  const place = () => (random() < 0.6 ? pick(important) : pick(any))
  const typo = (word: string) => {
    if (word.length < 5) return word
    const i = 1 + Math.floor(random() * (word.length - 2))
    const op = Math.floor(random() * 3)
    if (op === 0) return word.slice(0, i) + word.slice(i + 1)
    if (op === 1) return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2)
    return word.slice(0, i) + 'aeiou'[Math.floor(random() * 5)] + word.slice(i + 1)
  }
  const out: Query[] = []
  while (out.length < count) {
    const r = random()
    const row = place()
    const name = normalize(g.name(row))
    if (r < 0.45) {
      const len = 1 + Math.floor(random() * 12)
      const q = name.slice(0, len)
      out.push({ params: { query: q }, category: 'prefix', target: g.eloc(row), complete: q === name })
    } else if (r < 0.6) {
      const q = typo(name)
      out.push({ params: { query: q }, category: 'typo', target: g.eloc(row), complete: true })
    } else if (r < 0.72 && hindi.length) {
      const h = pick(hindi)
      const name = g.hindi(h)
      const full = random() < 0.5
      const q = full ? name : [...name].slice(0, 2 + Math.floor(random() * 4)).join('')
      out.push({ params: { query: q }, category: 'hindi', target: g.eloc(h), complete: full })
    } else if (r < 0.86) {
      const parent =
        g.city[row]! >= 0 ? g.city[row]! : g.district[row]! >= 0 ? g.district[row]! : g.state[row]!
      const context = parent >= 0 ? normalize(g.name(parent)) : ''
      const cut = 2 + Math.floor(random() * 5)
      const q = context ? `${name} ${context.slice(0, cut)}` : name
      out.push({ params: { query: q }, category: 'words', target: g.eloc(row), complete: true })
    } else {
      const lat = g.latitude(row) + (random() - 0.5) * 0.2
      const lng = g.longitude(row) + (random() - 0.5) * 0.2
      const q = name.slice(0, 3 + Math.floor(random() * 6))
      out.push({
        params: { query: q, location: `${lat.toFixed(5)},${lng.toFixed(5)}`, hyperLocal: random() < 0.5 },
        category: 'near',
        target: g.eloc(row),
        complete: false,
      })
    }
  }
  return out
}
