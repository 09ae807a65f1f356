import { createHash } from 'node:crypto'

/**
 * eLocs of the gazetteer: six characters of 0–9 and A–Z without I and O (34 symbols, about 1.5 billion
 * codes), derived from the identity of each place in the source data — never its row number, the build's
 * order or the engine's search keys — so that a restart, a rebuild of the same data and a change to the
 * search engine all leave every place its code. An eLoc the analyst saved (My places, a routing position, a
 * project) keeps naming the same place.
 *
 * Identity (`placeKey`): a GeoNames place by its GeoNames id; a state by its GeoNames admin-1 code; a district
 * and a sub-district by the admin-1 code and their names in the postal file; a post-office locality by its
 * PIN code and its name without the office suffix or a bracketed qualifier. Names are folded by
 * `identityText`, which is frozen here: the engine's `normalize` may change, this must not (it gives the same
 * text as `normalize` did when the gazetteer was first built, so the codes then given stand).
 *
 * Collisions are settled deterministically and independently of the build's order: keys are taken in
 * sorted order and a later key that meets a taken code rehashes with a counter. Places the analyst saves
 * get eight-character codes, so they never meet a gazetteer code.
 */
export const ELOC_ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ'

export function elocCode(key: string, length = 6): string {
  const digest = createHash('sha256').update(key).digest()
  let out = ''
  for (let i = 0; i < length; i++) out += ELOC_ALPHABET[digest[i]! % ELOC_ALPHABET.length]
  return out
}

/** Codes for every key, collision-free, independent of the keys' input order. Keys must be unique. */
export function assignElocs(
  keys: readonly string[],
  code: (key: string) => string = elocCode,
): Map<string, string> {
  const sorted = [...keys].sort()
  const taken = new Set<string>()
  const out = new Map<string, string>()
  for (const key of sorted) {
    if (out.has(key)) throw new Error(`duplicate eLoc key: ${key}`)
    let attempt = 0
    let value = code(key)
    while (taken.has(value)) value = code(`${key}#${++attempt}`)
    taken.add(value)
    out.set(key, value)
  }
  return out
}

export const isGazetteerEloc = (value: string): boolean => /^[0-9A-HJ-NP-Z]{6}$/.test(value)

/**
 * A name folded for a place's identity: Latin letters without diacritics in lower case, digits, Devanagari
 * letters (nukta and joiners removed), `&` as `and`, apostrophes and dots dropped, anything else one space.
 * Frozen: changing it renames every district, sub-district and post office.
 */
export function identityText(text: string): string {
  let t = text.normalize('NFD')
  t = t.replace(/[\u0300-\u036f\u093c\u200c\u200d]/g, '')
  t = t.replace(/\u0901/g, '\u0902')
  t = t.toLowerCase()
  t = t.replace(/&/g, ' and ').replace(/['’`.]/g, '')
  t = t.replace(/[\u0964\u0965]/g, ' ').replace(/[^a-z0-9\p{Script=Devanagari}]+/gu, ' ')
  return t.trim()
}

/** The office suffix of a post office's name in the postal file (H.O, S.O, B.O, GPO, NDSO, EDSO). Frozen. */
const OFFICE_SUFFIX =
  /\s*\b(?:H\.?\s?O|S\.?\s?O|B\.?\s?O|G\.?\s?P\.?\s?O|N\.?\s?D\.?\s?S\.?\s?O|E\.?\s?D\.?\s?S\.?\s?O)\.?$/i

/**
 * A post office's place name: without its office suffix (Kalkaji S.O → Kalkaji) and, as `bare`, without a
 * qualifier in brackets, which is the district or the city rather than part of the name (Laxmi Nagar (East
 * Delhi) → Laxmi Nagar). Frozen: `bare` is part of the locality's identity.
 */
export function officeName(place: string): { full: string; bare: string } {
  const full = place.replace(OFFICE_SUFFIX, '').trim() || place
  const bare = full.replace(/\s*\([^)]*\)\s*/g, ' ').trim() || full
  return { full, bare }
}

/** The identity of a place in the sources, from which its eLoc is derived. */
export type PlaceIdentity =
  | { source: 'geonames'; id: number }
  | { source: 'state'; admin1: string }
  | { source: 'district'; admin1: string; district: string }
  | { source: 'subDistrict'; admin1: string; district: string; subDistrict: string }
  | { source: 'postOffice'; pin: number; name: string }

/** The eLoc key of a place: its identity in the sources, names folded (`identityText`, `officeName`). */
export function placeKey(id: PlaceIdentity): string {
  switch (id.source) {
    case 'geonames':
      return `GN|${id.id}`
    case 'state':
      return `STATE|${id.admin1}`
    case 'district':
      return `DIST|${id.admin1}|${identityText(id.district)}`
    case 'subDistrict':
      return `SDIST|${id.admin1}|${identityText(id.district)}|${identityText(id.subDistrict)}`
    case 'postOffice':
      return `PO|${id.pin}|${identityText(officeName(id.name).bare)}`
  }
}
