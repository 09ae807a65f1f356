import type { Gazetteer, Kind } from '../data/gazetteer'
import {
  DISTRICT_MARKER,
  STOP_WORDS,
  SUBDISTRICT_MARKER,
  SUBLOCALITY,
  SUBSUBLOCALITY,
  SUFFIX_MARKER,
  VILLAGE_MARKER,
} from './lexicon'
import { editDistance, hasDevanagari, normalize, phoneticKey, romanize, typoBudget } from './normalize'
import { STATE_ABBREVIATIONS } from './variants'
import { clean, matches, trimmedSpan, type Context, type Span, type Taken } from './woodpecker-referential'
import { baseScore, type Candidate } from './woodpecker-solver'

/**
 * The standardizer's second stage (woodpecker.ts): the administrative readings of what the referential
 * classifiers left — names with their markers (Dist., Tehsil, Vill.), state abbreviations, sub-locality
 * patterns, the gazetteer's names over runs of words (exact, a word-prefix of a PIN code's place, with typos)
 * and parts worded like a locality that no place names.
 */

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
const METRO = 1_000_000

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

export const LOCALITY_WORDS =
  /\b(nagar|colony|puram|pet|pettai|peth|bagh|ganj|pura|pur|vihar|garden|gardens|layout|enclave|park|town|bazar|bazaar|halli|palli|palayam|wadi|abad|khand|kunj|market|chowk|mohalla|basti|gaon|kheda|khera|nagaram|cantt|cantonment|estate|extension|extn|sarai|tola|pada|para|ward)\b/i
const NOT_LOCALITY_WORDS =
  /\b(apartments?|apts?|towers?|complex|residency|residences?|mills?|building|bldg|house|bhavan|bhawan|society|chs|plaza|mall|wing|heights|arcade|chambers?|centre|center|hospital|school|college|office|hotel|temple|mandir|masjid|church|station|bank|atm|shop|floor|flat|plot|room|india)\b/i

export function adminCandidates(ctx: Context): Candidate[] {
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

  // A name inside a longer name that matched as a whole is less likely on its own (Delhi in New Delhi),
  // and hardly at all when a hyphen joins it to the rest (Champa in Janjgir-Champa).
  for (const c of out) {
    if (c.row < 0) continue
    const whole = out.find(
      (o) =>
        o.row >= 0 &&
        !o.partial &&
        o.quality >= 0.85 &&
        o.start <= c.start &&
        o.end >= c.end &&
        o.end - o.start > c.end - c.start,
    )
    if (!whole) continue
    const hyphened =
      /[-–]\s*$/.test(text.slice(whole.start, c.start)) || /^\s*[-–]/.test(text.slice(c.end, whole.end))
    c.quality *= hyphened ? 0.3 : 0.6
  }
  return out
}
