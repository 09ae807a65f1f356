import type { Gazetteer, Kind } from '../data/gazetteer'
import {
  CARE_OF,
  DISTRICT_MARKER,
  FLOOR,
  HOUSE_BARE,
  HOUSE_PREFIXED,
  HOUSE_PREFIXES,
  LANDMARK,
  NOT_A_HOUSE_AFTER,
  NOT_A_HOUSE_BEFORE,
  PIN,
  PIN_MARKER,
  POST_OFFICE_AFTER,
  POST_OFFICE_BEFORE,
  ROAD_NAMED,
  ROAD_NUMBERED,
  STOP_WORDS,
  SUBDISTRICT_MARKER,
  SUBLOCALITY,
  SUBSUBLOCALITY,
  SUFFIX_MARKER,
  VILLAGE_MARKER,
} from './lexicon'
import { editDistance, hasDevanagari, normalize, phoneticKey, romanize, typoBudget } from './normalize'
import { STATE_ABBREVIATIONS } from './variants'

/**
 * Address standardization (spec §2.1, §4.1), after pelias/parser: classifiers tag spans of the input
 * (patterns for the referential parts, the gazetteer for the administrative ones), and a solver picks the
 * best consistent labelling — one place per administrative level, no two spans overlapping, the PIN code
 * constraining state and district, localities agreeing with their city and state.
 *
 * Pure: a function of the loaded gazetteer and the input, fast enough for the request thread.
 */

export type AdminLevel = 'state' | 'city' | 'locality' | 'sublocality' | 'subsublocality'
export const ADMIN_LEVELS: readonly AdminLevel[] = [
  'state',
  'city',
  'locality',
  'sublocality',
  'subsublocality',
]

export interface AdminName {
  /** The standardized name (the gazetteer's, variants resolved: Bangalore → Bengaluru). */
  originalName: string
  /** Local extension: the text of the input it was read from ('' when inferred). */
  inputName?: string
  /** Local extension: the place's eLoc when it is in the gazetteer. */
  eLoc?: string
  /** Local extension: true when not written in the input but implied (by the PIN code or a locality). */
  inferred?: boolean
}

export interface HouseNumber {
  prefix: string
  houseNo: string
  formatted: string
}

/** The result of §2.1, with the local service's extensions documented on each member. */
export interface StandardizedAddressResult {
  inputAddress: string
  remainingAddress: string
  referentialInformation: {
    pincodes: string
    floors: string
    roads: string
    postOffices: string
    careOfs: string
    landmarks: string
    houseNumbers: HouseNumber
  }
  addressInformation: {
    adminDetails: Partial<Record<AdminLevel | 'district' | 'subDistrict', AdminName>>
    adminPattern: string[]
  }
  /**
   * Local extension: where the address is, at the most specific level matched (for geocoding);
   * `pincode` here may be inferred (from the locality) while `referentialInformation.pincodes` holds only
   * a PIN code written in the input.
   */
  match?: {
    level: 'sublocality' | 'locality' | 'pincode' | 'city' | 'district' | 'state'
    placeName: string
    eLoc: string
    latitude: number
    longitude: number
    pincode: string
    score: number
  }
}

interface Span {
  start: number
  end: number
}

interface Candidate extends Span {
  level: AdminLevel | 'district' | 'subDistrict'
  row: number
  /** 0..1: how well the text matched the name. */
  quality: number
  text: string
  score: number
  /** Matched a word-prefix of the place's name only (the name as written is kept). */
  partial: boolean
  /** A part of the input read as a locality without a place of the gazetteer. */
  free?: boolean
}

const URBAN: ReadonlySet<Kind> = new Set(['CITY', 'LC', 'SLC', 'SSLC'])

const clean = (s: string) =>
  s
    .replace(/\s+/g, ' ')
    .replace(/^[\s,;:\-–|]+|[\s,;:\-–|]+$/g, '')
    .trim()

/** Characters of the input already taken by a span. */
class Taken {
  private readonly used: Uint8Array
  constructor(readonly text: string) {
    this.used = new Uint8Array(text.length)
  }
  free(s: Span): boolean {
    for (let i = s.start; i < s.end; i++) if (this.used[i]) return false
    return true
  }
  take(s: Span): void {
    this.used.fill(1, s.start, s.end)
  }
  /** The input with every taken span removed, separators tidied. */
  remaining(): string {
    let out = ''
    for (let i = 0; i < this.text.length; i++) out += this.used[i] ? ' ' : this.text[i]
    return out
      .split(/[,;\n|]/)
      .map(clean)
      .filter((p) => /[\p{L}\d]/u.test(p))
      .join(', ')
  }
  isUsed(i: number): boolean {
    return this.used[i] === 1
  }
}

function* matches(re: RegExp, text: string): Generator<RegExpExecArray> {
  re.lastIndex = 0
  let m: RegExpExecArray | null
  while ((m = re.exec(text)) !== null) {
    if (m[0].length === 0) {
      re.lastIndex++
      continue
    }
    yield m
  }
}

/** Trim a match to its visible text: the span without surrounding spaces and separators. */
function trimmedSpan(text: string, start: number, end: number): Span & { value: string } {
  while (start < end && /[\s,;:\-–|]/.test(text[start]!)) start++
  while (end > start && /[\s,;:\-–|]/.test(text[end - 1]!)) end--
  return { start, end, value: text.slice(start, end) }
}

interface Context {
  g: Gazetteer
  text: string
  taken: Taken
  bias: number
  pin: number
  pinRows: Uint32Array
  pinStates: Set<number>
  pinDistricts: Set<number>
  pinCities: Map<number, number>
}

// -------------------------------------------------------------------------------------------------
// Referential classifiers

function findPin(ctx: Context): { value: string; span?: Span } {
  const { text, g } = ctx
  let best: { value: string; span: Span; score: number } | undefined
  for (const m of matches(PIN, text)) {
    const value = `${m[1]}${m[2]}`
    const marked = PIN_MARKER.test(m[0])
    const known = g.rowsWithPin(Number(value)).length > 0
    const atEnd = !/[\p{L}\d]/u.test(text.slice(m.index + m[0].length).replace(/\b(india|bharat)\b/gi, ''))
    const score = (marked ? 4 : 0) + (known ? 2 : 0) + (atEnd ? 1 : 0) + m.index / (text.length + 1)
    if (!marked && !known && !atEnd) continue
    if (!best || score > best.score)
      best = { value, span: trimmedSpan(text, m.index, m.index + m[0].length), score }
  }
  if (!best) return { value: '' }
  ctx.taken.take(best.span)
  return best
}

function findSpan(ctx: Context, re: RegExp, accept: (m: RegExpExecArray) => boolean = () => true): string[] {
  const out: string[] = []
  for (const m of matches(re, ctx.text)) {
    const span = trimmedSpan(ctx.text, m.index, m.index + m[0].length)
    if (span.end <= span.start || !ctx.taken.free(span) || !accept(m)) continue
    ctx.taken.take(span)
    out.push(clean(span.value))
  }
  return out
}

/**
 * Post offices (PO Kharar, Kalkaji S.O): the span is the post office, but only its marker is taken, so the
 * office's name can still be read as the locality or city it is named after.
 */
function findPostOffices(ctx: Context): string[] {
  const { text, taken } = ctx
  const found: Array<Span & { value: string }> = []
  for (const [re, nameGroup, markerFirst] of [
    [POST_OFFICE_BEFORE, 2, true],
    [POST_OFFICE_AFTER, 1, false],
  ] as const) {
    for (const m of matches(re, text)) {
      const span = trimmedSpan(text, m.index, m.index + m[0].length)
      if (!taken.free(span) || found.some((f) => overlaps(f, span))) continue
      if (!markerFirst && /^(near|opp|behind|at)\b/i.test(m[nameGroup]!)) continue
      const name = m[nameGroup]!
      const nameStart = markerFirst ? m.index + m[0].length - name.length : m.index
      const marker = markerFirst
        ? { start: m.index, end: nameStart }
        : { start: m.index + name.length, end: m.index + m[0].length }
      taken.take(marker)
      found.push({ ...span, value: clean(span.value) })
      void nameStart
    }
  }
  return found.sort((a, b) => a.start - b.start).map((f) => f.value)
}

function findHouseNumber(ctx: Context): HouseNumber {
  const { text, taken } = ctx
  for (const m of matches(HOUSE_PREFIXED, text)) {
    const span = trimmedSpan(text, m.index, m.index + m[0].length)
    if (!taken.free(span)) continue
    if (NOT_A_HOUSE_BEFORE.test(text.slice(Math.max(0, m.index - 12), m.index))) continue
    if (NOT_A_HOUSE_AFTER.test(text.slice(m.index + m[0].length))) continue
    const prefix = clean(m[1]!)
    const houseNo = clean(m[2]!)
    if (!/\d/.test(houseNo)) continue
    taken.take(span)
    const canonical = HOUSE_PREFIXES.find(([re]) => re.test(prefix))?.[1] ?? prefix
    return { prefix, houseNo, formatted: `${canonical} ${houseNo.replace(/\s+/g, '')}` }
  }
  // A bare number opening the address or one of its first parts.
  let offset = 0
  const parts = text.split(/([,;\n|])/)
  for (let p = 0; p < parts.length && p < 6; p += 2) {
    const part = parts[p]!
    const m = HOUSE_BARE.exec(part)
    if (m) {
      const start = offset + m.index + (m[0].length - m[0].trimStart().length)
      const span = { start, end: offset + m.index + m[0].length }
      const after = part.slice(m.index + m[0].length)
      const houseNo = clean(m[1]!)
      if (
        taken.free(span) &&
        /\d/.test(houseNo) &&
        !NOT_A_HOUSE_AFTER.test(after) &&
        !/^\d{6}$/.test(houseNo.replace(/\s/g, ''))
      ) {
        taken.take(span)
        return { prefix: '', houseNo, formatted: houseNo.replace(/\s+/g, '') }
      }
    }
    // Only parts before any place name may open with the house number.
    if (/[\p{L}]{3,}/u.test(part) && !taken.isUsed(offset + part.search(/\S|$/))) break
    offset += part.length + (parts[p + 1]?.length ?? 0)
  }
  return { prefix: '', houseNo: '', formatted: '' }
}

function findRoads(ctx: Context): string[] {
  const found: Array<Span & { value: string }> = []
  const { text, taken } = ctx
  for (const m of matches(ROAD_NUMBERED, text)) {
    const span = trimmedSpan(text, m.index, m.index + m[0].length)
    if (!taken.free(span)) continue
    taken.take(span)
    found.push(span)
  }
  for (const m of matches(ROAD_NAMED, text)) {
    let start = m.index
    const end = m.index + m[0].length
    const word = m[2]!.toLowerCase()
    // `St` ends a road only at the end of a part (not St. John's).
    if (/^st$/.test(word) && /^\s*\.?\s*[\p{L}]/u.test(text.slice(end))) continue
    // The name starts after the last taken character before the road word.
    for (let i = m.index + m[1]!.length - 1; i >= m.index; i--)
      if (taken.isUsed(i)) {
        start = i + 1
        break
      }
    let span = trimmedSpan(text, start, end)
    // Drop leading words that are not part of a road's name (a landmark marker, a lone number).
    const lead = /^(?:(?:and|the|on|at|off|in)\s+)+/i.exec(span.value)
    if (lead) span = trimmedSpan(text, span.start + lead[0].length, span.end)
    if (!taken.free(span) || !/[\p{L}\d]/u.test(span.value.replace(new RegExp(`${m[2]}\\.?$`, 'i'), '')))
      continue
    taken.take(span)
    found.push(span)
  }
  return found.sort((a, b) => a.start - b.start).map((s) => clean(s.value))
}

// -------------------------------------------------------------------------------------------------
// Administrative classifiers

const LEVEL_OF: Readonly<Record<Kind, Candidate['level'][]>> = {
  STATE: ['state'],
  DIST: ['district', 'city'],
  SDIST: ['subDistrict'],
  CITY: ['city', 'locality'],
  LC: ['locality', 'sublocality'],
  SLC: ['sublocality', 'locality'],
  SSLC: ['subsublocality'],
  VLG: ['locality'],
}
const LEVEL_PRIOR: Readonly<Record<Candidate['level'], number>> = {
  state: 1,
  city: 1,
  district: 0.8,
  subDistrict: 0.6,
  locality: 0.9,
  sublocality: 0.8,
  subsublocality: 0.7,
}
const LEVEL_RANK: Readonly<Record<Candidate['level'], number>> = {
  state: 0,
  district: 1,
  city: 2,
  subDistrict: 2.5,
  locality: 3,
  sublocality: 4,
  subsublocality: 5,
}
/** Cities this large are never read as a locality of another place. */
const METRO = 1_000_000
/** Each word a solution explains adds this much: the solver prefers readings that cover the input. */
const COVERAGE = 0.45

let majorNames: Array<{ key: string; phonetic: string; rows: number[] }> | undefined
let majorFor: Gazetteer | undefined
/** Names of states, districts and cities of 10,000 people or more, for typo-tolerant matching. */
function major(g: Gazetteer) {
  if (majorFor === g && majorNames) return majorNames
  const byKey = new Map<string, number[]>()
  for (let i = 0; i < g.size; i++) {
    const k = g.kindOf(i)
    if (k !== 'STATE' && k !== 'DIST' && !(k === 'CITY' && g.population[i]! >= 10_000)) continue
    for (const name of [g.name(i), ...g.alts(i)]) {
      if (hasDevanagari(name)) continue
      const key = normalize(name)
      const list = byKey.get(key) ?? []
      list.push(i)
      byKey.set(key, list)
    }
  }
  majorNames = [...byKey].map(([key, rows]) => ({
    key,
    phonetic: key.split(' ').map(phoneticKey).join(' '),
    rows,
  }))
  majorFor = g
  return majorNames
}

/** Build the standardizer's lookup tables now rather than on the first request. */
export function prepareStandardizer(g: Gazetteer): void {
  major(g)
}

interface Word extends Span {
  key: string
}

/** The words of the input not taken by a referential span, in runs that no separator or taken text breaks. */
function wordRuns(text: string, taken: Taken): Word[][] {
  const runs: Word[][] = []
  let run: Word[] = []
  const re = /[\p{L}\p{M}\d][\p{L}\p{M}\d'’.&]*/gu
  let last = 0
  for (const m of matches(re, text)) {
    const span = { start: m.index, end: m.index + m[0].replace(/[.'’&]+$/, '').length }
    const gap = text.slice(last, m.index)
    if (!taken.free(span) || /[,;\n|()]/.test(gap) || [...gap].some((_, k) => taken.isUsed(last + k))) {
      if (run.length) runs.push(run)
      run = []
    }
    last = span.end
    if (!taken.free(span)) continue
    run.push({ ...span, key: normalize(text.slice(span.start, span.end)) })
  }
  if (run.length) runs.push(run)
  return runs
}

function addCandidates(
  ctx: Context,
  out: Candidate[],
  span: Span,
  text: string,
  rows: ArrayLike<number>,
  quality: number,
  partial = false,
) {
  const { g } = ctx
  const seen = new Set<number>()
  // At most ten places of each kind (rows come most important first: villages would never be reached).
  const perKind = new Map<Kind, number>()
  for (let k = 0; k < rows.length && k < 400; k++) {
    const row = rows[k]!
    if (seen.has(row)) continue
    seen.add(row)
    const kind = g.kindOf(row)
    const n = perKind.get(kind) ?? 0
    if (n >= 10) continue
    perKind.set(kind, n + 1)
    // A word-prefix of a name (Koramangala of Koramangala VI Bk) names the locality.
    const levels = partial ? (['locality'] as const) : LEVEL_OF[kind]
    for (const level of levels) {
      if (kind === 'CITY' && level === 'locality' && g.population[row]! >= METRO) continue
      const secondary = level !== levels[0]
      const q = quality * (secondary ? (kind === 'CITY' ? 0.8 : 0.7) : 1)
      out.push({ ...span, level, row, quality: q, text, score: 0, partial })
    }
  }
}

const LOCALITY_WORDS =
  /\b(nagar|colony|puram|pet|pettai|peth|bagh|ganj|pura|pur|vihar|garden|gardens|layout|enclave|park|town|bazar|bazaar|halli|palli|palayam|wadi|abad|khand|kunj|market|chowk|mohalla|basti|gaon|kheda|khera|nagaram|cantt|cantonment|estate|extension|extn|sarai|tola|pada|para|ward)\b/i
const NOT_LOCALITY_WORDS =
  /\b(apartments?|apts?|towers?|complex|residency|residences?|mills?|building|bldg|house|bhavan|bhawan|society|chs|plaza|mall|wing|heights|arcade|chambers?|centre|center|hospital|school|college|office|hotel|temple|mandir|masjid|church|station|bank|atm|shop|floor|flat|plot|room|india)\b/i

function adminCandidates(ctx: Context): Candidate[] {
  const { g, text, taken } = ctx
  const out: Candidate[] = []
  const major_ = major(g)

  // Marked names: Dist. X, Tehsil X, Vill. X, and X District, X Taluk, X Village.
  const marked: Array<[RegExp, number, (marker: string) => Candidate['level'], readonly Kind[]]> = [
    [DISTRICT_MARKER, 2, () => 'district', ['DIST']],
    [SUBDISTRICT_MARKER, 2, () => 'subDistrict', ['SDIST', 'DIST', 'CITY']],
    [VILLAGE_MARKER, 2, () => 'locality', ['VLG', 'LC', 'CITY', 'SLC']],
    [
      SUFFIX_MARKER,
      1,
      (m) => (/^dist/i.test(m) ? 'district' : /^vill/i.test(m) ? 'locality' : 'subDistrict'),
      ['DIST', 'SDIST', 'CITY', 'VLG', 'LC'],
    ],
  ]
  for (const [re, group, levelOf, kinds] of marked) {
    for (const m of matches(re, text)) {
      const whole = trimmedSpan(text, m.index, m.index + m[0].length)
      if (!taken.free(whole)) continue
      const nameText = m[group]!
      const nameStart = group === 1 ? m.index : m.index + m[0].length - nameText.length
      const name = trimmedSpan(text, nameStart, nameStart + nameText.length)
      const level = levelOf(group === 1 ? m[2]! : m[1]!)
      const key = normalize(name.value)
      const rows = [...g.rowsNamed(key)].filter((r) => kinds.includes(g.kindOf(r)))
      taken.take(whole)
      for (const row of rows.slice(0, 20))
        out.push({ ...whole, level, row, quality: 1, text: name.value, score: 0, partial: false })
      // The name as written, when no place of the gazetteer fits.
      out.push({ ...whole, level, row: -1, quality: 0.5, text: name.value, score: 0, partial: false })
    }
  }

  // State abbreviations written in capitals (UP, MH, J&K).
  for (const m of matches(/(?<![\p{L}\d])([A-Z]{2,3}|J\s?&\s?K|[A-Z]\.[A-Z]\.?)(?![\p{L}\d])/gu, text)) {
    const span = trimmedSpan(text, m.index, m.index + m[0].length)
    const state = STATE_ABBREVIATIONS[m[1]!.replace(/[\s.]/g, '')]
    if (!state || !taken.free(span)) continue
    const rows = [...g.rowsNamed(normalize(state))].filter((r) => g.kindOf(r) === 'STATE')
    for (const row of rows)
      out.push({ ...span, level: 'state', row, quality: 0.9, text: m[0], score: 0, partial: false })
  }

  // Sub-localities and sub-sub-localities by pattern (Sector 14, 4th Block, Pocket B).
  for (const [re, level] of [
    [SUBSUBLOCALITY, 'subsublocality'],
    [SUBLOCALITY, 'sublocality'],
  ] as const) {
    for (const m of matches(re, text)) {
      const span = trimmedSpan(text, m.index, m.index + m[0].length)
      if (!taken.free(span)) continue
      out.push({ ...span, level, row: -1, quality: 0.85, text: span.value, score: 0, partial: false })
      if (level === 'sublocality')
        out.push({
          ...span,
          level: 'subsublocality',
          row: -1,
          quality: 0.6,
          text: span.value,
          score: 0,
          partial: false,
        })
    }
  }

  // Gazetteer names over runs of up to five words: exact; else a word-prefix of one of the PIN code's
  // places (Marathahalli → Marathahalli Colony); else with typos among the PIN code's places and the
  // major names.
  const pinKeys = new Map<string, number[]>()
  for (const row of ctx.pinRows) {
    const k = g.key(row)
    const list = pinKeys.get(k) ?? []
    list.push(row)
    pinKeys.set(k, list)
  }
  const runs = wordRuns(text, taken)
  for (const run of runs) {
    for (let i = 0; i < run.length; i++) {
      for (let n = Math.min(5, run.length - i); n >= 1; n--) {
        const words = run.slice(i, i + n)
        const span = { start: words[0]!.start, end: words[n - 1]!.end }
        const phrase = words.map((w) => w.key).join(' ')
        if (!phrase || /^[\d\s]+$/.test(phrase)) continue
        if (n === 1 && (STOP_WORDS.has(phrase) || phrase.length < 3)) continue
        const raw = text.slice(span.start, span.end)
        const keys = hasDevanagari(phrase) ? [phrase, normalize(romanize(phrase))] : [phrase]
        let found = false
        for (const key of keys) {
          const rows = g.rowsNamed(key)
          if (rows.length) {
            addCandidates(ctx, out, span, raw, rows, key === phrase ? 1 : 0.85)
            found = true
          }
        }
        // The PIN code's places are looked at even when the name exists elsewhere (Model Town, Dwarka).
        const latin = keys[keys.length - 1]!
        const budget = typoBudget(latin.replace(/\s/g, '').length)
        for (const [key, rows] of pinKeys) {
          if (key === latin) continue
          if (latin.length >= 4 && key.length > latin.length && key.startsWith(latin + ' '))
            addCandidates(ctx, out, span, raw, rows, 0.8, true)
          else if (budget > 0 && Math.abs(key.length - latin.length) <= budget) {
            const d = editDistance(latin, key, budget)
            if (d <= budget) addCandidates(ctx, out, span, raw, rows, 0.9 - 0.1 * d)
          }
        }
        if (found || budget === 0) continue
        const phon = latin.split(' ').map(phoneticKey).join(' ')
        for (const m of major_) {
          if (m.key[0] !== latin[0] || Math.abs(m.key.length - latin.length) > budget + 1) continue
          if (m.phonetic === phon) addCandidates(ctx, out, span, raw, m.rows, 0.85)
          else {
            const d = editDistance(latin, m.key, budget)
            if (d <= budget) addCandidates(ctx, out, span, raw, m.rows, 0.85 - 0.1 * d)
          }
        }
      }
    }
  }

  // A part of the address that no place of the gazetteer names, standing just before the city or the
  // PIN code and worded like a locality, is read as the locality (Dharampeth, Nagpur).
  runs.forEach((run, index) => {
    const first = run[0]!
    const last = run[run.length - 1]!
    const value = clean(text.slice(first.start, last.end))
    if (run.length > 4 || !/\p{L}{3,}/u.test(value) || NOT_LOCALITY_WORDS.test(value)) return
    if (run.length === 1 && STOP_WORDS.has(first.key)) return
    const span = { start: first.start, end: last.end }
    if (
      out.some((c) => c.row >= 0 && c.start === span.start && c.end === span.end && baseScore(ctx, c) > 0.5)
    )
      return
    // Later parts (nearer the city) are likelier the locality than earlier ones (a building's name).
    const quality = (LOCALITY_WORDS.test(value) ? 0.55 : 0.4) * (0.6 + (0.4 * (index + 1)) / runs.length)
    out.push({
      ...span,
      level: 'locality',
      row: -1,
      quality,
      text: value,
      score: 0,
      partial: false,
      free: true,
    })
  })

  // With nothing else to hold on to (no place of the gazetteer, no PIN code), a free part is no address.
  if (!ctx.pin && !out.some((c) => c.row >= 0)) return out.filter((c) => !c.free)

  // A name inside a longer name that matched as a whole is less likely on its own (Delhi in New Delhi).
  for (const c of out) {
    if (c.row < 0) continue
    const inside = out.some(
      (o) =>
        o.row >= 0 &&
        !o.partial &&
        o.quality >= 0.85 &&
        o.start <= c.start &&
        o.end >= c.end &&
        o.end - o.start > c.end - c.start,
    )
    if (inside) c.quality *= 0.6
  }
  return out
}

// -------------------------------------------------------------------------------------------------
// Solver

function words(text: string): number {
  return text.trim().split(/\s+/).length
}

function baseScore(ctx: Context, c: Candidate): number {
  const { g } = ctx
  let s = c.quality * LEVEL_PRIOR[c.level] * (1 + 0.25 * (words(c.text) - 1))
  if (c.row < 0) return s
  const kind = g.kindOf(c.row)
  s *= 0.6 + 0.4 * g.importance[c.row]!
  // Urban or rural reading of an ambiguous name (bias 1 is neutral; the default 1.5 leans urban).
  if (URBAN.has(kind)) s *= Math.sqrt(ctx.bias)
  else if (kind === 'VLG') s /= Math.sqrt(ctx.bias)
  if (ctx.pinRows.length) {
    const state = g.state[c.row]!
    const district = g.district[c.row]!
    if (c.level === 'state') s += ctx.pinStates.has(c.row) ? 0.8 : -1.2
    else if (g.pin[c.row] === ctx.pin) s += 1.4
    else if (ctx.pinDistricts.has(district) || ctx.pinDistricts.has(c.row) || ctx.pinCities.has(c.row))
      s += 0.9
    else if (ctx.pinStates.has(state) || ctx.pinStates.has(c.row)) s += 0.1
    else s -= 1.2
  }
  return s
}

/** Does a place lie in (or is it) another place? By the gazetteer's parents, or within 25 km for a city. */
function within(g: Gazetteer, child: number, parent: number): boolean {
  if (child === parent) return true
  if (g.state[child] === parent || g.district[child] === parent || g.city[child] === parent) return true
  const pk = g.kindOf(parent)
  if (pk === 'CITY' || pk === 'DIST') {
    if (g.district[child] === g.district[parent] && g.district[child]! >= 0) return true
    const dLat = (g.lat[child]! - g.lat[parent]!) / 1e5
    const dLon = ((g.lon[child]! - g.lon[parent]!) / 1e5) * Math.cos((g.lat[parent]! / 1e5) * (Math.PI / 180))
    return Math.sqrt(dLat * dLat + dLon * dLon) * 111 < 25
  }
  return false
}

const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end

function pairScore(ctx: Context, a: Candidate, b: Candidate): number {
  const { g } = ctx
  const [outer, inner] = LEVEL_RANK[a.level] <= LEVEL_RANK[b.level] ? [a, b] : [b, a]
  let s = 0
  // Addresses run from the small to the large: a sub-locality in a later part than its locality is
  // unlikely (within one part, "Koramangala 4th Block" is the usual order).
  if (
    ((outer.level === 'locality' && inner.level === 'sublocality') ||
      (outer.level === 'city' && inner.level === 'locality')) &&
    inner.start > outer.start &&
    /[,;\n|]/.test(ctx.text.slice(outer.end, inner.start))
  )
    s -= 0.5
  if (a.row < 0 || b.row < 0) return s
  if (a.row === b.row) return s - 3
  if (
    outer.level === 'city' &&
    inner.level === 'locality' &&
    g.kindOf(inner.row) === 'CITY' &&
    g.population[inner.row]! > g.population[outer.row]!
  )
    s -= 1.5
  if (within(g, inner.row, outer.row)) return s + 0.6
  if (outer.level === 'state' && g.state[inner.row] !== outer.row) return s - 1.5
  if (g.state[inner.row] !== g.state[outer.row]) return s - 1.2
  return s - 0.4
}

function solve(ctx: Context, candidates: Candidate[]): Candidate[] {
  const { g } = ctx
  for (const c of candidates) c.score = baseScore(ctx, c)
  const levels: Candidate['level'][] = [
    'state',
    'district',
    'city',
    'subDistrict',
    'locality',
    'sublocality',
    'subsublocality',
  ]
  const options = levels.map((level) =>
    candidates
      .filter((c) => c.level === level && c.score > 0)
      .sort((a, b) => b.score - a.score || a.start - b.start || a.row - b.row)
      .slice(0, level === 'locality' || level === 'city' ? 8 : 5),
  )
  let best: Candidate[] = []
  let bestScore = 0
  const chosen: Candidate[] = []
  const search = (depth: number, score: number) => {
    if (depth === levels.length) {
      if (score > bestScore + 1e-9) {
        bestScore = score
        best = [...chosen]
      }
      return
    }
    search(depth + 1, score)
    for (const c of options[depth]!) {
      if (chosen.some((o) => overlaps(o, c))) continue
      let s = score + c.score + (c.free ? 0 : COVERAGE * words(c.text))
      for (const o of chosen) s += pairScore(ctx, o, c)
      chosen.push(c)
      search(depth + 1, s)
      chosen.pop()
    }
  }
  search(0, 0)
  if ((globalThis as { __wpdebug?: boolean }).__wpdebug) {
    for (const o of options.flat())
      console.warn(
        `  ${o.level} "${o.text}" ${o.row >= 0 ? `${g.kindOf(o.row)}:${g.name(o.row)}:${g.eloc(o.row)}` : '-'} q=${o.quality.toFixed(2)} s=${o.score.toFixed(2)}`,
      )
    console.warn('  best', bestScore.toFixed(2), best.map((c) => `${c.level}=${c.text}`).join(', '))
  }
  return best
}

// -------------------------------------------------------------------------------------------------

export interface StandardizeOptions {
  /** Urban/rural bias: above 1 favours the urban reading of an ambiguous name, below 1 the rural (default 1.5). */
  bias?: number
}

/** Standardize one address; null when nothing in it was recognised (HTTP 204). */
export function standardize(
  g: Gazetteer,
  address: string,
  options: StandardizeOptions = {},
): StandardizedAddressResult | null {
  const text = address.normalize('NFC')
  const taken = new Taken(text)
  const ctx: Context = {
    g,
    text,
    taken,
    bias: options.bias && options.bias > 0 ? options.bias : 1.5,
    pin: 0,
    pinRows: new Uint32Array(0),
    pinStates: new Set(),
    pinDistricts: new Set(),
    pinCities: new Map(),
  }

  const pin = findPin(ctx)
  if (pin.value) {
    ctx.pin = Number(pin.value)
    ctx.pinRows = g.rowsWithPin(ctx.pin)
    for (const r of ctx.pinRows) {
      ctx.pinStates.add(g.state[r]!)
      ctx.pinDistricts.add(g.district[r]!)
      const city = g.city[r]!
      if (city >= 0) ctx.pinCities.set(city, (ctx.pinCities.get(city) ?? 0) + 1)
    }
  }
  const careOfs = findSpan(ctx, CARE_OF)
  const floors = findSpan(ctx, FLOOR)
  const landmarks = findSpan(ctx, LANDMARK)
  const postOffices = findPostOffices(ctx)
  const houseNumbers = findHouseNumber(ctx)
  const roads = findRoads(ctx)

  const candidates = adminCandidates(ctx)
  const chosen = solve(ctx, candidates)
  for (const c of chosen) taken.take(c)

  const adminDetails: StandardizedAddressResult['addressInformation']['adminDetails'] = {}
  const rowOf: Partial<Record<Candidate['level'], number>> = {}
  for (const c of [...chosen].sort((a, b) => a.start - b.start)) {
    let name = c.row >= 0 && !c.partial ? g.name(c.row) : clean(c.text)
    let written = clean(c.text)
    // Andheri West, Dadar (W): the side of a locality belongs to it.
    if (c.level === 'locality' || c.level === 'sublocality') {
      const side = /^\s*\(?\s*(east|west|north|south|e|w|n|s)\b\.?\s*\)?/i.exec(text.slice(c.end))
      const span = side ? { start: c.end, end: c.end + side[0].length } : undefined
      if (side && span && taken.free(span)) {
        taken.take(span)
        const full = { e: 'East', w: 'West', n: 'North', s: 'South' }[side[1]!.toLowerCase()[0] as 'e']
        if (!new RegExp(`\\b${full}$`, 'i').test(name)) name = `${name} ${full}`
        written = clean(text.slice(c.start, span.end))
      }
    }
    adminDetails[c.level] = {
      originalName: name,
      inputName: written,
      ...(c.row >= 0 ? { eLoc: g.eloc(c.row) } : {}),
    }
    if (c.row >= 0) rowOf[c.level] = c.row
  }
  const adminPattern = [...chosen]
    .sort((a, b) => a.start - b.start)
    .map((c) => c.level)
    .filter((l): l is AdminLevel => (ADMIN_LEVELS as readonly string[]).includes(l))

  // Inferred levels: from the most specific place found, else from the PIN code.
  const specific = rowOf.sublocality ?? rowOf.locality ?? rowOf.city ?? rowOf.district ?? rowOf.subDistrict
  const infer = (level: 'state' | 'city' | 'district', row: number) => {
    if (row < 0 || adminDetails[level]) return
    adminDetails[level] = { originalName: g.name(row), inputName: '', eLoc: g.eloc(row), inferred: true }
    rowOf[level] = row
  }
  const rural = specific !== undefined && g.kindOf(specific) === 'VLG'
  if (specific !== undefined) {
    // A village has no city: its district and state are inferred, never a town nearby.
    if (g.kindOf(specific) !== 'CITY' && !rural) infer('city', g.city[specific]!)
    infer('district', g.district[specific]!)
    infer('state', g.state[specific]!)
  }
  if (ctx.pinRows.length) {
    const topCity = [...ctx.pinCities].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]
    if (!rural && topCity && topCity[1] * 2 >= ctx.pinRows.length) infer('city', topCity[0])
    infer('district', g.district[ctx.pinRows[0]!]!)
    infer('state', g.state[ctx.pinRows[0]!]!)
  }
  if (rowOf.city !== undefined) infer('state', g.state[rowOf.city]!)
  if (rowOf.district !== undefined) infer('state', g.state[rowOf.district]!)

  const referentialInformation = {
    pincodes: pin.value,
    floors: floors.join(', '),
    roads: roads.join(', '),
    postOffices: postOffices.join(', '),
    careOfs: careOfs.join(', '),
    landmarks: landmarks.join(', '),
    houseNumbers,
  }
  const recognised =
    pin.value ||
    Object.values(referentialInformation).some((v) => typeof v === 'string' && v) ||
    houseNumbers.houseNo ||
    chosen.length
  if (!recognised) return null

  // Where it is: the most specific place matched or implied.
  let match: StandardizedAddressResult['match']
  const pick = (level: NonNullable<StandardizedAddressResult['match']>['level'], row: number | undefined) => {
    if (match || row === undefined || row < 0) return
    match = {
      level,
      placeName: g.name(row),
      eLoc: g.eloc(row),
      latitude: g.latitude(row),
      longitude: g.longitude(row),
      pincode: pin.value || (g.pin[row] ? String(g.pin[row]) : ''),
      score:
        Math.round(
          Math.min(1, (chosen.reduce((s, c) => s + Math.max(0, c.score), 0) + (pin.value ? 1 : 0)) / 3) * 100,
        ) / 100,
    }
  }
  pick('sublocality', rowOf.sublocality)
  pick('locality', rowOf.locality)
  if (!match && ctx.pinRows.length) pick('pincode', ctx.pinRows[0])
  pick('city', rowOf.city)
  pick('district', rowOf.district)
  pick('state', rowOf.state)

  return {
    inputAddress: address,
    remainingAddress: taken.remaining(),
    referentialInformation,
    addressInformation: { adminDetails, adminPattern },
    ...(match ? { match } : {}),
  }
}
