import type { SavedPlace } from '../../../contract/places/my-places'
import { KIND, type Gazetteer, type Kind } from '../data/gazetteer'
import { distanceKm } from './autosuggest-index'
import type { Scored } from './autosuggest-match'
import { hasDevanagari, normalize, romanize } from './normalize'

/**
 * Autosuggest's answer (autosuggest.ts): the §4.2 response shapes, each scored place as a suggested location
 * (address, address tokens, names), and the analyst's saved places that match the query.
 */

/** A saved place of the analyst (My places). */
export type UserPlace = SavedPlace

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

export const MAX_SUGGESTIONS = 10

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

export function suggestedLocation(
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

export function matchUserPlaces(
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
