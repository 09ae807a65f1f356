import type { AutosuggestParams } from '../../../contract/places/autosuggest'
import type { SavedPlace } from '../../../contract/places/my-places'
import { KIND, type Gazetteer, type Kind } from '../data/gazetteer'
import { editDistance, hasDevanagari, normalize, phoneticKey, romanize, typoBudget } from './normalize'

/**
 * Autosuggest (spec §2.2, §4.2): prefix and token matching over the gazetteer's index with typo
 * tolerance, ranked by importance (kind, population) and, when a location is given, distance (stronger
 * with hyperLocal). A Devanagari query is romanized too, so Latin and Devanagari spellings find each other,
 * and is answered in Hindi. Pure: a function of the loaded gazetteer and serializable inputs.
 */

/** A saved place of the analyst (My places). */
export type UserPlace = SavedPlace

/** The §4.2 parameters, as the shared validator types them. */
export type SuggestParams = AutosuggestParams

export interface AddressTokens {
  houseNumber?: string
  houseName?: string
  poi?: string
  street?: string
  subSubLocality?: string
  subLocality?: string
  locality?: string
  village?: string
  subDistrict?: string
  district: string
  city: string
  state: string
  pincode?: number
}

export interface SuggestedLocation {
  type: string
  typeX: number
  placeAddress: string
  latitude: number
  longitude: number
  entryLatitude: number
  entryLongitude: number
  eLoc: string
  placeName: string
  alternateName: string
  keywords: string[]
  addressTokens?: AddressTokens
  p: number
  orderIndex: number
  score: number
  suggester: string
  richInfo: unknown[]
}

export interface UserAddedLocation {
  eLoc: string
  entryLatitude: number
  entryLongitude: number
  latitude: number
  longitude: number
  orderIndex: number
  placeAddress: string
  placeName: string
  resultType: string
  type: string
  userName: string
}

export interface SuggestedSearch {
  keyword: string
  identifier: string
  location: string
  hyperlink: string
  orderIndex: number
  eLoc: string
}

export interface SuggestResult {
  suggestedLocations: SuggestedLocation[]
  userAddedLocation: UserAddedLocation[]
  suggestedSearches: SuggestedSearch[]
  lang: 'hi' | 'en'
}

/** The spec's kind names of the gazetteer's kinds (the `type` of a suggestion). */
export const TYPE_NAMES: Readonly<Record<Kind, string>> = {
  STATE: 'STATE',
  DIST: 'DISTRICT',
  SDIST: 'SUBDISTRICT',
  CITY: 'CITY',
  LC: 'LOCALITY',
  SLC: 'SUBLOCALITY',
  SSLC: 'SUBSUBLOCALITY',
  VLG: 'VILLAGE',
}

/** Regions the gazetteer covers; pod, filter, bridge and hyperLocal apply to these only (spec §4.2). */
export const COVERED_REGIONS = new Set(['IND', 'IN'])
export const MAX_SUGGESTIONS = 10
const CANDIDATE_BUDGET = 600
const DIRECTIONS = new Set(['east', 'west', 'north', 'south', 'e', 'w', 'n', 's'])
const RAD = Math.PI / 180

export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const x = (lon2 - lon1) * RAD * Math.cos(((lat1 + lat2) / 2) * RAD)
  const y = (lat2 - lat1) * RAD
  return Math.sqrt(x * x + y * y) * 6371
}

function parseLatLng(value: string | undefined): [number, number] | undefined {
  if (!value) return undefined
  const [a, b] = value.replace(/\s+/g, '').split(',').map(Number)
  return Number.isFinite(a) && Number.isFinite(b) ? [a!, b!] : undefined
}

type Filter =
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

function* rowsNear(g: Gazetteer, lat: number, lon: number, cellsAround: number): Generator<number> {
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
function typoCandidates(g: Gazetteer, word: string, budget: number): number[] {
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

// -------------------------------------------------------------------------------------------------
// Matching

/** Index words a query word matches, with a weight (1 exact … 0.55 two typos) and how. */
type WordMatches = Map<string, { weight: number; how: string }>

function setMatch(out: WordMatches, word: string, weight: number, how: string) {
  const had = out.get(word)
  if (!had || had.weight < weight) out.set(word, { weight, how })
}

interface QueryWord {
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

function queryWord(g: Gazetteer, text: string, prefix: boolean, fuzzy = true): QueryWord {
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

function hit(q: QueryWord, word: string): { weight: number; how: string } | undefined {
  const m = q.matches.get(word)
  if (q.prefix && word.startsWith(q.text)) {
    const weight = word === q.text ? 1 : PREFIX_WEIGHT
    if (!m || m.weight < weight) return { weight, how: word === q.text ? 'exact' : 'prefix' }
  }
  return m
}

/** Index token ids a query word draws its candidates from, the most important places' words first. */
function candidateTokens(g: Gazetteer, q: QueryWord): number[] {
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

function postingsSize(g: Gazetteer, ids: number[]): number {
  let n = 0
  for (const id of ids) n += g.tokenStart[id + 1]! - g.tokenStart[id]!
  return n
}

interface Scored {
  row: number
  text: number
  suggester: string
  score: number
}

const wordCaches = new WeakMap<Gazetteer, Map<number, { names: string[]; words: string[] }>>()

/** A row's own full names and their words (name, alternates, Hindi and its romanization), cached for rows that have more than a name. */
function ownNames(g: Gazetteer, row: number): { names: string[]; words: string[] } {
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
function contextWords(g: Gazetteer, row: number): string[] {
  const out: string[] = []
  for (const p of [g.city[row]!, g.district[row]!, g.state[row]!, g.subDistrict[row]!]) {
    if (p >= 0) out.push(...ownNames(g, p).words)
  }
  return out
}

function inside(g: Gazetteer, row: number, target: number): boolean {
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

// -------------------------------------------------------------------------------------------------
// Output

function placeAddress(g: Gazetteer, row: number, hindi: boolean): string {
  const parts: string[] = []
  const name = (r: number) => (hindi && g.hindi(r)) || g.name(r)
  const kind = g.kindOf(row)
  const seen = new Set([g.key(row)])
  const add = (r: number) => {
    if (r < 0 || seen.has(g.key(r))) return
    seen.add(g.key(r))
    parts.push(name(r))
  }
  if (kind === 'SLC' || kind === 'SSLC' || kind === 'LC' || kind === 'VLG') {
    add(g.city[row]!)
    if (g.city[row]! < 0) add(g.subDistrict[row]!)
  }
  if (kind !== 'STATE' && kind !== 'DIST') add(g.district[row]!)
  add(g.state[row]!)
  let text = parts.join(', ')
  if (g.pin[row] && kind !== 'STATE' && kind !== 'DIST') text += `${text ? ', ' : ''}${g.pin[row]}`
  return text
}

export function addressTokens(g: Gazetteer, row: number): AddressTokens {
  const nameOf = (r: number) => (r >= 0 ? g.name(r) : '')
  const kind = g.kindOf(row)
  const tokens: AddressTokens = {
    district: kind === 'DIST' ? g.name(row) : nameOf(g.district[row]!),
    city: kind === 'CITY' ? g.name(row) : nameOf(g.city[row]!),
    state: kind === 'STATE' ? g.name(row) : nameOf(g.state[row]!),
  }
  if (kind === 'LC') tokens.locality = g.name(row)
  if (kind === 'SLC') tokens.subLocality = g.name(row)
  if (kind === 'SSLC') tokens.subSubLocality = g.name(row)
  if (kind === 'VLG') tokens.village = g.name(row)
  const sub = kind === 'SDIST' ? row : g.subDistrict[row]!
  if (sub >= 0) tokens.subDistrict = g.name(sub)
  if (g.pin[row]) tokens.pincode = g.pin[row]
  return tokens
}

function suggestedLocation(
  g: Gazetteer,
  s: Scored,
  index: number,
  hindi: boolean,
  tokenize: boolean,
): SuggestedLocation {
  const row = s.row
  const hi = g.hindi(row)
  const name = hindi && hi ? hi : g.name(row)
  const others = [...(hindi && hi ? [g.name(row)] : hi ? [hi] : []), ...g.alts(row)].filter((a) => a !== name)
  const lat = g.latitude(row)
  const lng = g.longitude(row)
  return {
    type: TYPE_NAMES[g.kindOf(row)],
    typeX: KIND[g.kindOf(row)],
    placeAddress: placeAddress(g, row, hindi),
    latitude: lat,
    longitude: lng,
    entryLatitude: lat,
    entryLongitude: lng,
    eLoc: g.eloc(row),
    placeName: name,
    alternateName: others.slice(0, 5).join(', '),
    keywords: [g.kindOf(row)],
    ...(tokenize ? { addressTokens: addressTokens(g, row) } : {}),
    p: Math.round(g.importance[row]! * 1000),
    orderIndex: index + 1,
    score: Math.round(s.score * 1e4) / 1e4,
    suggester: s.suggester,
    richInfo: [],
  }
}

function wordsOf(text: string): string[] {
  const n = normalize(text)
  if (!n) return []
  const out = n.split(' ')
  if (hasDevanagari(n)) out.push(...normalize(romanize(n)).split(' '))
  return out
}

function matchUserPlaces(
  places: readonly UserPlace[],
  words: string[],
  prefix: boolean,
  where: [number, number] | undefined,
): UserAddedLocation[] {
  const hits = places.filter((p) => {
    const own = wordsOf(`${p.placeName} ${p.placeAddress}`)
    return words.every((w, i) =>
      own.some((o) => o === w || (prefix && i === words.length - 1 && o.startsWith(w))),
    )
  })
  if (where)
    hits.sort(
      (a, b) =>
        distanceKm(where[0], where[1], a.latitude, a.longitude) -
        distanceKm(where[0], where[1], b.latitude, b.longitude),
    )
  return hits.slice(0, MAX_SUGGESTIONS).map((p, i) => ({
    eLoc: p.eLoc,
    entryLatitude: p.latitude,
    entryLongitude: p.longitude,
    latitude: p.latitude,
    longitude: p.longitude,
    orderIndex: i + 1,
    placeAddress: p.placeAddress,
    placeName: p.placeName,
    resultType: 'UAP',
    type: p.type || 'POI',
    userName: p.userName,
  }))
}

// -------------------------------------------------------------------------------------------------

/** Autosuggest over the gazetteer and the analyst's saved places; null when nothing matches (HTTP 204). */
export function autosuggest(
  g: Gazetteer,
  params: SuggestParams,
  userPlaces: readonly UserPlace[] = [],
): SuggestResult | null {
  const hindi = hasDevanagari(params.query)
  const lang = hindi ? 'hi' : 'en'
  const norm = normalize(params.query)
  const prefix = !/\s$/.test(params.query)
  const region = (params.region ?? 'IND').toUpperCase()
  const covered = COVERED_REGIONS.has(region)
  const where = parseLatLng(params.location)
  const words = norm ? norm.split(' ') : []
  // In the covered region the query's words also match romanized (Devanagari) or transliterated forms.
  const latinWords = hindi ? normalize(romanize(norm)).split(' ').filter(Boolean) : []

  const suggestedSearches: SuggestedSearch[] = []
  const userAddedLocation = matchUserPlaces(userPlaces, words, prefix, where)
  if (!covered || !words.length) {
    return userAddedLocation.length
      ? { suggestedLocations: [], userAddedLocation, suggestedSearches, lang }
      : null
  }

  const filter = parseFilter(params.filter)
  const podKind = params.pod ? KIND[params.pod as Kind] : undefined
  const copRow = filter?.kind === 'cop' ? g.byEloc(filter.eloc) : -1
  const copPlace =
    filter?.kind === 'cop' && copRow < 0 ? userPlaces.find((p) => p.eLoc === filter.eloc) : undefined
  const accept = (row: number): boolean => {
    if (podKind !== undefined && g.kind[row] !== podKind) return false
    if (!filter) return true
    switch (filter.kind) {
      case 'pin':
        return g.pin[row] === filter.pin
      case 'bounds': {
        const lat = g.latitude(row)
        const lng = g.longitude(row)
        return lat >= filter.minLat && lat <= filter.maxLat && lng >= filter.minLng && lng <= filter.maxLng
      }
      case 'cop':
        if (copRow >= 0) return inside(g, row, copRow)
        if (copPlace)
          return distanceKm(g.latitude(row), g.longitude(row), copPlace.latitude, copPlace.longitude) <= 3
        return false
    }
  }

  // What each query word matches (a Hindi word: itself and, transliterated, the Latin names).
  const query: QueryWord[] = words.map((w, i) => {
    const q = queryWord(g, w, prefix && i === words.length - 1)
    if (hindi && latinWords.length === words.length && latinWords[i]) {
      const latin = queryWord(g, latinWords[i]!, q.prefix)
      for (const [k, v] of latin.matches)
        setMatch(q.matches, k, v.weight * 0.95, v.how === 'exact' ? 'transliteration' : v.how)
      if (q.prefix) {
        const [from, to] = g.tokenRange(latinWords[i]!)
        for (let t = from; t < to && t < from + 200; t++)
          setMatch(q.matches, g.tokens[t]!, 0.85, 'transliteration')
      }
    }
    return q
  })
  // Whole-name tokens (multi-word names) help "connaught pl" find Connaught Place directly.
  const phrase = words.length > 1 ? queryWord(g, norm, prefix, false) : undefined

  // Candidates: postings of the most selective query word (or of the phrase), best places first.
  const candidates = new Set<number>()
  // With a filter, postings are read further (up to a bound) so that enough accepted places are found.
  const scanLimit = filter || podKind !== undefined ? 20_000 : 0
  const take = (ids: number[], budget: number) => {
    const per = Math.max(8, Math.ceil(budget / Math.max(1, ids.length)))
    let scanned = 0
    for (const id of ids) {
      const list = g.postingsOf(id)
      let accepted = 0
      for (let k = 0; k < list.length && accepted < per && (k < per || scanned < scanLimit); k++) {
        scanned++
        if (accept(list[k]!)) {
          candidates.add(list[k]!)
          accepted++
        }
      }
    }
  }
  if (filter?.kind === 'pin') for (const r of g.rowsWithPin(filter.pin)) if (accept(r)) candidates.add(r)
  if (phrase) take(candidateTokens(g, phrase), CANDIDATE_BUDGET / 4)
  const drivers = query
    .filter((q) => !q.digits && !(words.length === 1 && norm.length <= 2 && !hindi))
    .map((q) => {
      const ids = candidateTokens(g, q)
      return { q, ids, n: postingsSize(g, ids) + (q.prefix ? 1e6 : 0) }
    })
    .filter((d) => d.ids.length)
    .sort((a, b) => a.n - b.n)
  const driver = drivers[0]
  // One or two letters: the most important places starting so (precomputed), not every word's postings.
  if (words.length === 1 && norm.length <= 2 && !hindi) {
    for (const r of g.topForPrefix(norm)) if (accept(r)) candidates.add(r)
  } else if (driver) take(driver.ids, CANDIDATE_BUDGET)
  const pinWord = query.find((q) => q.digits && q.text.length >= 3 && q.text.length <= 6)
  if (pinWord) {
    // A PIN code (or its beginning): the places with that PIN code.
    const lo = Number(pinWord.text.padEnd(6, '0'))
    const hi = Number(pinWord.text.padEnd(6, '9'))
    for (let i = 0; i < g.pinCodes.length; i++) {
      const code = g.pinCodes[i]!
      if (code < lo || code > hi) continue
      for (let k = g.pinStart[i]!; k < g.pinStart[i + 1]! && k < g.pinStart[i]! + 10; k++)
        if (accept(g.pinRows[k]!)) candidates.add(g.pinRows[k]!)
      if (candidates.size > 400) break
    }
  }
  // Near the location: small places close by whose name starts like the driving word.
  if (where && driver) {
    const q = driver.q
    const fuzzy = q.matches.size <= 40 ? [...q.matches.keys()] : []
    for (const r of rowsNear(g, where[0], where[1], params.hyperLocal ? 1 : 0)) {
      const key = g.key(r)
      const near =
        (q.prefix && (key.startsWith(q.text) || key.includes(' ' + q.text))) ||
        fuzzy.some((w) => key === w || key.startsWith(w + ' ') || key.includes(' ' + w))
      if (near && accept(r)) candidates.add(r)
    }
  }

  // Score: every query word must match a word of the place's names or of where it lies (a direction
  // word such as "west" may stay unmatched).
  const scored: Scored[] = []
  const proximityScale = params.hyperLocal ? 8 : 60
  const weights = where
    ? params.hyperLocal
      ? { text: 0.45, importance: 0.15, proximity: 0.4 }
      : { text: 0.55, importance: 0.3, proximity: 0.15 }
    : { text: 0.62, importance: 0.38, proximity: 0 }
  for (const row of candidates) {
    const own = ownNames(g, row)
    let context: string[] | undefined
    let total = 0
    let inName = 0
    let how = ''
    let ok = true
    for (const q of query) {
      let best = 0
      let bestHow = ''
      let named = false
      if (q.digits) {
        const pin = String(g.pin[row] || '')
        if (pin && (pin === q.text || (q.prefix && pin.startsWith(q.text)))) [best, bestHow] = [1, 'pincode']
      } else {
        for (const w of own.words) {
          const h = hit(q, w)
          if (h && h.weight > best) [best, bestHow, named] = [h.weight, h.how, true]
        }
        if (best < 1) {
          context ??= contextWords(g, row)
          for (const w of context) {
            const h = hit(q, w)
            if (h && h.weight * 0.85 > best) [best, bestHow, named] = [h.weight * 0.85, 'address', false]
          }
        }
      }
      if (!best) {
        if (DIRECTIONS.has(q.text) && query.length > 1) {
          total += 0.8
          continue
        }
        ok = false
        break
      }
      total += best
      if (named || bestHow === 'pincode') inName++
      if (!how || bestHow === 'typo' || bestHow === 'phonetic' || bestHow === 'transliteration') how = bestHow
    }
    if (!ok) {
      // A whole-name match alone (words glued or split differently) still counts.
      const h = phrase && own.names.map((n) => hit(phrase, n)).find(Boolean)
      if (!h) continue
      total = h.weight * query.length
      inName = query.length
      how = h.how
    }
    if (!inName) continue
    let text = total / query.length
    if (own.names.includes(norm)) text += 0.25
    else if (own.names.some((n) => n.startsWith(norm))) text += 0.15
    // Names with many words the query did not touch rank lower.
    const nameWords = own.names[0]!.split(' ').length
    text *= 0.85 + (0.15 * Math.min(inName, nameWords)) / Math.max(inName, nameWords)
    let proximity = 0
    if (where)
      proximity = Math.exp(
        -distanceKm(where[0], where[1], g.latitude(row), g.longitude(row)) / proximityScale,
      )
    const score =
      weights.text * text + weights.importance * g.importance[row]! + weights.proximity * proximity
    const suggester =
      how === 'exact' || how === 'prefix'
        ? query.some((q) => own.names[0]!.split(' ').some((w) => hit(q, w)))
          ? 'placeName'
          : hindi
            ? 'hindiName'
            : 'alternateName'
        : how
    scored.push({ row, text, suggester, score })
  }
  scored.sort((a, b) => b.score - a.score || a.row - b.row)
  // One suggestion per place name and address (a post office and its village often coincide).
  const seen = new Set<string>()
  const top: Scored[] = []
  for (const s of scored) {
    const k = `${g.key(s.row)}|${g.pin[s.row]}|${g.district[s.row]}`
    if (seen.has(k)) continue
    seen.add(k)
    top.push(s)
    if (top.length >= MAX_SUGGESTIONS) break
  }
  const suggestedLocations = top.map((s, i) => suggestedLocation(g, s, i, hindi, !!params.tokenizeAddress))

  if (params.bridge) {
    const at = where ? `${where[0]},${where[1]}` : 'me'
    const link = (q: string, loc: string) =>
      `/atlas/api/places/search/json?query=${encodeURIComponent(q)}&location=${encodeURIComponent(loc)}&hyperLocal`
    suggestedSearches.push({
      keyword: params.query.trim(),
      identifier: 'near',
      location: at,
      hyperlink: link(params.query.trim(), at),
      orderIndex: 1,
      eLoc: '',
    })
    const first = suggestedLocations[0]
    if (first) {
      const loc = `${first.latitude},${first.longitude}`
      suggestedSearches.push({
        keyword: `${params.query.trim()} near ${first.placeName}`,
        identifier: 'near',
        location: loc,
        hyperlink: link(params.query.trim(), loc),
        orderIndex: 2,
        eLoc: first.eLoc,
      })
    }
  }
  if (!suggestedLocations.length && !userAddedLocation.length) return null
  return { suggestedLocations, userAddedLocation, suggestedSearches, lang }
}
