import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { hasDevanagari, normalize, phoneticKey, romanize, tokens } from '../engine/normalize'
import {
  compress,
  decodeColumns,
  decompress,
  decompressAsync,
  encodeColumns,
  type DecodedColumns,
} from './columns-file'

/**
 * The places gazetteer: every place as a row of flat columns (kind, names, position, parents, PIN,
 * population, importance, eLoc) and a search index (sorted tokens with postings ordered by importance,
 * phonetic keys, the most important places per one- and two-letter prefix, places per PIN).
 * Built by scripts/data-places.ts, stored as resources/data/places/gazetteer.bin (decision 007).
 */

/** Place kinds; the codes are the spec's `pod` values (§4.2). */
export const KINDS = ['STATE', 'DIST', 'SDIST', 'CITY', 'LC', 'SLC', 'SSLC', 'VLG'] as const
export type Kind = (typeof KINDS)[number]
export const KIND: Readonly<Record<Kind, number>> = Object.fromEntries(KINDS.map((k, i) => [k, i])) as Record<
  Kind,
  number
>
export const FORMAT_VERSION = 1
/** Places kept per one- and two-letter prefix for the shortest queries. */
export const PREFIX_TOP = 48

/** A place as the build produces it (indices refer to other rows; -1 none). */
export interface PlaceRow {
  kind: Kind
  name: string
  /** Devanagari name, '' when the data has none. */
  hi: string
  /** Other names (Latin variants, more Devanagari spellings). */
  alts: string[]
  lat: number
  lon: number
  state: number
  district: number
  subDistrict: number
  city: number
  pin: number
  population: number
  importance: number
  eloc: string
}

/** All search tokens of a row: words and whole names, Latin, Devanagari and Devanagari romanized. */
export function rowTokens(row: Pick<PlaceRow, 'name' | 'hi' | 'alts'>): Set<string> {
  const out = new Set<string>()
  const add = (text: string) => {
    if (!text) return
    const words = tokens(text)
    for (const w of words) out.add(w)
    if (words.length > 1) out.add(words.join(' '))
    if (hasDevanagari(text)) {
      const latin = tokens(romanize(normalize(text)))
      for (const w of latin) out.add(w)
      if (latin.length > 1) out.add(latin.join(' '))
    }
  }
  add(row.name)
  add(row.hi)
  for (const a of row.alts) add(a)
  return out
}

/** The whole-name keys of a row: each name normalized, Devanagari ones also romanized. */
export function nameKeys(row: Pick<PlaceRow, 'name' | 'hi' | 'alts'>): Set<string> {
  const out = new Set<string>()
  for (const text of [row.name, row.hi, ...row.alts]) {
    if (!text) continue
    const k = normalize(text)
    if (k) out.add(k)
    if (hasDevanagari(text)) {
      const r = normalize(romanize(k))
      if (r) out.add(r)
    }
  }
  return out
}

function csr(groups: number[][]): { start: Uint32Array; items: Uint32Array } {
  const start = new Uint32Array(groups.length + 1)
  let n = 0
  for (let i = 0; i < groups.length; i++) {
    start[i] = n
    n += groups[i]!.length
  }
  start[groups.length] = n
  const items = new Uint32Array(n)
  let k = 0
  for (const g of groups) for (const v of g) items[k++] = v
  return { start, items }
}

/** Rows → the columns of the file (index included). Deterministic: same rows, same bytes. */
export function buildColumns(rows: readonly PlaceRow[], meta: Record<string, unknown>): Uint8Array {
  const n = rows.length
  const strings: string[] = ['']
  const stringId = new Map<string, number>([['', 0]])
  const sid = (s: string) => {
    let id = stringId.get(s)
    if (id === undefined) {
      id = strings.length
      strings.push(s)
      stringId.set(s, id)
    }
    return id
  }
  const kind = new Uint8Array(n)
  const name = new Uint32Array(n)
  const key = new Uint32Array(n)
  const hi = new Uint32Array(n)
  const lat = new Int32Array(n)
  const lon = new Int32Array(n)
  const state = new Int32Array(n)
  const district = new Int32Array(n)
  const subDistrict = new Int32Array(n)
  const city = new Int32Array(n)
  const pin = new Uint32Array(n)
  const population = new Uint32Array(n)
  const importance = new Float32Array(n)
  const altGroups: number[][] = []
  const elocs: string[] = []
  rows.forEach((r, i) => {
    kind[i] = KIND[r.kind]
    name[i] = sid(r.name)
    key[i] = sid(normalize(r.name))
    hi[i] = sid(r.hi)
    lat[i] = Math.round(r.lat * 1e5)
    lon[i] = Math.round(r.lon * 1e5)
    state[i] = r.state
    district[i] = r.district
    subDistrict[i] = r.subDistrict
    city[i] = r.city
    pin[i] = r.pin
    population[i] = r.population
    importance[i] = r.importance
    altGroups.push(r.alts.map(sid))
    elocs.push(r.eloc)
  })
  const alt = csr(altGroups)

  // Token index: postings by importance (then row) so the first entries are the best.
  const byToken = new Map<string, number[]>()
  rows.forEach((r, i) => {
    for (const t of rowTokens(r)) {
      let list = byToken.get(t)
      if (!list) byToken.set(t, (list = []))
      list.push(i)
    }
  })
  const order = (a: number, b: number) => importance[b]! - importance[a]! || a - b
  const tokenList = [...byToken.keys()].sort()
  const postings = csr(tokenList.map((t) => byToken.get(t)!.sort(order)))

  // Phonetic keys of Latin word tokens → token ids.
  const byPhonetic = new Map<string, number[]>()
  tokenList.forEach((t, id) => {
    if (t.includes(' ') || hasDevanagari(t) || /^\d+$/.test(t)) return
    const k = phoneticKey(t)
    let list = byPhonetic.get(k)
    if (!list) byPhonetic.set(k, (list = []))
    list.push(id)
  })
  const phoneticList = [...byPhonetic.keys()].sort()
  const phonetic = csr(phoneticList.map((k) => byPhonetic.get(k)!))

  // The most important places per one- and two-character prefix of any token.
  const byPrefix = new Map<string, Set<number>>()
  tokenList.forEach((t, id) => {
    for (const len of [1, 2]) {
      if (t.length < len) continue
      const p = t.slice(0, len)
      let set = byPrefix.get(p)
      if (!set) byPrefix.set(p, (set = new Set()))
      const s = postings.start[id]!
      const e = Math.min(postings.start[id + 1]!, s + PREFIX_TOP)
      for (let k = s; k < e; k++) set.add(postings.items[k]!)
    }
  })
  const prefixList = [...byPrefix.keys()].sort()
  const prefix = csr(prefixList.map((p) => [...byPrefix.get(p)!].sort(order).slice(0, PREFIX_TOP)))

  // Whole names (each name and alternate, normalized; Devanagari also romanized) → rows.
  const byName = new Map<string, number[]>()
  rows.forEach((r, i) => {
    for (const k of nameKeys(r)) {
      let list = byName.get(k)
      if (!list) byName.set(k, (list = []))
      list.push(i)
    }
  })
  const nameList = [...byName.keys()].sort()
  const names = csr(nameList.map((k) => byName.get(k)!.sort(order)))

  // Places per PIN code.
  const byPin = new Map<number, number[]>()
  rows.forEach((r, i) => {
    if (!r.pin) return
    let list = byPin.get(r.pin)
    if (!list) byPin.set(r.pin, (list = []))
    list.push(i)
  })
  const pinList = [...byPin.keys()].sort((a, b) => a - b)
  const pins = csr(pinList.map((p) => byPin.get(p)!.sort(order)))

  return encodeColumns(
    {
      strings,
      kind,
      name,
      key,
      hi,
      lat,
      lon,
      state,
      district,
      subDistrict,
      city,
      pin,
      population,
      importance,
      altStart: alt.start,
      alt: alt.items,
      eloc: elocs,
      tokens: tokenList,
      tokenStart: postings.start,
      postings: postings.items,
      phonetic: phoneticList,
      phoneticStart: phonetic.start,
      phoneticTokens: phonetic.items,
      prefixes: prefixList,
      prefixStart: prefix.start,
      prefixRows: prefix.items,
      names: nameList,
      nameStart: names.start,
      nameRows: names.items,
      pinCodes: new Uint32Array(pinList),
      pinStart: pins.start,
      pinRows: pins.items,
    },
    meta,
    FORMAT_VERSION,
  )
}

export const encodeGazetteer = (rows: readonly PlaceRow[], meta: Record<string, unknown>): Uint8Array =>
  compress(buildColumns(rows, meta))

/** First index in a sorted string list whose value is >= key. */
function lowerBound(list: readonly string[], key: string): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (list[mid]! < key) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The loaded gazetteer: read-only columns and index, with the lookups the engine needs. */
export class Gazetteer {
  readonly size: number
  readonly meta: Record<string, unknown>
  readonly strings: string[]
  readonly kind: Uint8Array
  readonly nameId: Uint32Array
  readonly keyId: Uint32Array
  readonly hiId: Uint32Array
  readonly lat: Int32Array
  readonly lon: Int32Array
  readonly state: Int32Array
  readonly district: Int32Array
  readonly subDistrict: Int32Array
  readonly city: Int32Array
  readonly pin: Uint32Array
  readonly population: Uint32Array
  readonly importance: Float32Array
  readonly altStart: Uint32Array
  readonly alt: Uint32Array
  readonly elocs: string[]
  readonly tokens: string[]
  readonly tokenStart: Uint32Array
  readonly postings: Uint32Array
  readonly phonetic: string[]
  readonly phoneticStart: Uint32Array
  readonly phoneticTokens: Uint32Array
  readonly prefixes: string[]
  readonly prefixStart: Uint32Array
  readonly prefixRows: Uint32Array
  readonly names: string[]
  readonly nameStart: Uint32Array
  readonly nameRows: Uint32Array
  readonly pinCodes: Uint32Array
  readonly pinStart: Uint32Array
  readonly pinRows: Uint32Array
  private elocIndex: Map<string, number> | undefined

  constructor(c: DecodedColumns) {
    if (c.version !== FORMAT_VERSION)
      throw new Error(`gazetteer format ${c.version}; this build reads ${FORMAT_VERSION}`)
    this.meta = c.meta
    this.strings = c.strings('strings')
    this.kind = c.typed('kind')
    this.size = this.kind.length
    this.nameId = c.typed('name')
    this.keyId = c.typed('key')
    this.hiId = c.typed('hi')
    this.lat = c.typed('lat')
    this.lon = c.typed('lon')
    this.state = c.typed('state')
    this.district = c.typed('district')
    this.subDistrict = c.typed('subDistrict')
    this.city = c.typed('city')
    this.pin = c.typed('pin')
    this.population = c.typed('population')
    this.importance = c.typed('importance')
    this.altStart = c.typed('altStart')
    this.alt = c.typed('alt')
    this.elocs = c.strings('eloc')
    this.tokens = c.strings('tokens')
    this.tokenStart = c.typed('tokenStart')
    this.postings = c.typed('postings')
    this.phonetic = c.strings('phonetic')
    this.phoneticStart = c.typed('phoneticStart')
    this.phoneticTokens = c.typed('phoneticTokens')
    this.prefixes = c.strings('prefixes')
    this.prefixStart = c.typed('prefixStart')
    this.prefixRows = c.typed('prefixRows')
    this.names = c.strings('names')
    this.nameStart = c.typed('nameStart')
    this.nameRows = c.typed('nameRows')
    this.pinCodes = c.typed('pinCodes')
    this.pinStart = c.typed('pinStart')
    this.pinRows = c.typed('pinRows')
  }

  static fromBytes(compressed: Uint8Array): Gazetteer {
    return new Gazetteer(decodeColumns(decompress(compressed)))
  }

  static load(file: string): Gazetteer {
    return Gazetteer.fromBytes(readFileSync(file))
  }

  /** Load without blocking the event loop during the read and the decompression. */
  static async loadAsync(file: string): Promise<Gazetteer> {
    return new Gazetteer(decodeColumns(await decompressAsync(await readFile(file))))
  }

  kindOf(i: number): Kind {
    return KINDS[this.kind[i]!]!
  }
  name(i: number): string {
    return this.strings[this.nameId[i]!]!
  }
  /** The normalized name (search key). */
  key(i: number): string {
    return this.strings[this.keyId[i]!]!
  }
  hindi(i: number): string {
    return this.strings[this.hiId[i]!]!
  }
  alts(i: number): string[] {
    const out: string[] = []
    for (let k = this.altStart[i]!; k < this.altStart[i + 1]!; k++) out.push(this.strings[this.alt[k]!]!)
    return out
  }
  latitude(i: number): number {
    return this.lat[i]! / 1e5
  }
  longitude(i: number): number {
    return this.lon[i]! / 1e5
  }
  eloc(i: number): string {
    return this.elocs[i]!
  }

  /** Row of an eLoc (case-insensitive), or -1. */
  byEloc(code: string): number {
    if (!this.elocIndex) {
      this.elocIndex = new Map()
      this.elocs.forEach((e, i) => this.elocIndex!.set(e, i))
    }
    return this.elocIndex.get(code.toUpperCase()) ?? -1
  }

  /** Token ids [from, to) of the tokens starting with `prefix`. */
  tokenRange(prefix: string): [number, number] {
    const from = lowerBound(this.tokens, prefix)
    const to = lowerBound(this.tokens, prefix + '\uffff')
    return [from, to]
  }

  /** Token id of an exact token, or -1. */
  tokenId(token: string): number {
    const i = lowerBound(this.tokens, token)
    return this.tokens[i] === token ? i : -1
  }

  postingsOf(tokenId: number): Uint32Array {
    return this.postings.subarray(this.tokenStart[tokenId]!, this.tokenStart[tokenId + 1]!)
  }

  /** Token ids sharing a phonetic key. */
  phoneticTokensOf(key: string): Uint32Array {
    const i = lowerBound(this.phonetic, key)
    if (this.phonetic[i] !== key) return new Uint32Array(0)
    return this.phoneticTokens.subarray(this.phoneticStart[i]!, this.phoneticStart[i + 1]!)
  }

  /** Phonetic key ids [from, to) starting with a prefix. */
  phoneticRange(prefix: string): [number, number] {
    return [lowerBound(this.phonetic, prefix), lowerBound(this.phonetic, prefix + '\uffff')]
  }

  /** The most important rows having a token that starts with this one- or two-character prefix. */
  topForPrefix(prefix: string): Uint32Array {
    const i = lowerBound(this.prefixes, prefix)
    if (this.prefixes[i] !== prefix) return new Uint32Array(0)
    return this.prefixRows.subarray(this.prefixStart[i]!, this.prefixStart[i + 1]!)
  }

  /** Rows having this whole name (normalized) among their names, most important first. */
  rowsNamed(key: string): Uint32Array {
    const i = lowerBound(this.names, key)
    if (this.names[i] !== key) return new Uint32Array(0)
    return this.nameRows.subarray(this.nameStart[i]!, this.nameStart[i + 1]!)
  }

  /** Name-key ids [from, to) starting with a prefix. */
  nameRange(prefix: string): [number, number] {
    return [lowerBound(this.names, prefix), lowerBound(this.names, prefix + '\uffff')]
  }

  /** Rows with this PIN code, most important first. */
  rowsWithPin(code: number): Uint32Array {
    let lo = 0
    let hi = this.pinCodes.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.pinCodes[mid]! < code) lo = mid + 1
      else hi = mid
    }
    if (this.pinCodes[lo] !== code) return new Uint32Array(0)
    return this.pinRows.subarray(this.pinStart[lo]!, this.pinStart[lo + 1]!)
  }
}
