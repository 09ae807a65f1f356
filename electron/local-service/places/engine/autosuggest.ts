import type { AutosuggestParams } from '../../../contract/places/autosuggest'
import { KIND, type Gazetteer, type Kind } from '../data/gazetteer'
import { distanceKm, rowsNear } from './autosuggest-index'
import {
  MAX_SUGGESTIONS,
  matchUserPlaces,
  suggestedLocation,
  type SuggestedSearch,
  type SuggestResult,
  type UserPlace,
} from './autosuggest-answer'
import {
  candidateTokens,
  contextWords,
  hit,
  inside,
  ownNames,
  parseFilter,
  parseLatLng,
  postingsSize,
  queryWord,
  setMatch,
  type QueryWord,
  type Scored,
} from './autosuggest-match'
import { hasDevanagari, normalize, romanize } from './normalize'

/**
 * Autosuggest (spec §2.2, §4.2): prefix and token matching over the gazetteer's index with typo
 * tolerance, ranked by importance (kind, population) and, when a location is given, distance (stronger
 * with hyperLocal). A Devanagari query is romanized too, so Latin and Devanagari spellings find each other,
 * and is answered in Hindi. The stages: autosuggest-index.ts (lookup tables), autosuggest-match.ts (query
 * words, candidates' names), autosuggest-answer.ts (response shapes); here, candidates gathered, scored and
 * ranked. Pure: a function of the loaded gazetteer and serializable inputs.
 */

export { distanceKm, prepareAutosuggest } from './autosuggest-index'
export { parseFilter } from './autosuggest-match'
export {
  addressTokens,
  MAX_SUGGESTIONS,
  TYPE_NAMES,
  type AddressTokens,
  type SuggestedLocation,
  type SuggestedSearch,
  type SuggestResult,
  type UserAddedLocation,
  type UserPlace,
} from './autosuggest-answer'

/** The §4.2 parameters, as the shared validator types them. */
export type SuggestParams = AutosuggestParams

/** Regions the gazetteer covers; pod, filter, bridge and hyperLocal apply to these only (spec §4.2). */
export const COVERED_REGIONS = new Set(['IND', 'IN'])
const CANDIDATE_BUDGET = 600
const DIRECTIONS = new Set(['east', 'west', 'north', 'south', 'e', 'w', 'n', 's'])

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
