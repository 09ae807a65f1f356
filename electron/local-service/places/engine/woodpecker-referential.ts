import type { Gazetteer } from '../data/gazetteer'
import {
  HOUSE_BARE,
  HOUSE_PREFIXED,
  HOUSE_PREFIXES,
  NOT_A_HOUSE_AFTER,
  NOT_A_HOUSE_BEFORE,
  PIN,
  PIN_MARKER,
  POST_OFFICE_AFTER,
  POST_OFFICE_BEFORE,
  ROAD_NAMED,
  ROAD_NUMBERED,
} from './lexicon'

/**
 * The standardizer's first stage (woodpecker.ts): the input and what of it is taken, and the classifiers of
 * the referential parts (PIN code, post offices, house number, roads; care-of, floors and landmarks by
 * `findSpan`), each taking the spans it tags.
 */

export type AdminLevel = 'state' | 'city' | 'locality' | 'sublocality' | 'subsublocality'
export const ADMIN_LEVELS: readonly AdminLevel[] = [
  'state',
  'city',
  'locality',
  'sublocality',
  'subsublocality',
]

export interface HouseNumber {
  prefix: string
  houseNo: string
  formatted: string
}

export interface Span {
  start: number
  end: number
}

export const clean = (s: string) =>
  s
    .replace(/\s+/g, ' ')
    .replace(/^[\s,;:\-–|]+|[\s,;:\-–|]+$/g, '')
    .trim()

/** Characters of the input already taken by a span. */
export class Taken {
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

export function* matches(re: RegExp, text: string): Generator<RegExpExecArray> {
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
export function trimmedSpan(text: string, start: number, end: number): Span & { value: string } {
  while (start < end && /[\s,;:\-–|]/.test(text[start]!)) start++
  while (end > start && /[\s,;:\-–|]/.test(text[end - 1]!)) end--
  return { start, end, value: text.slice(start, end) }
}

export interface Context {
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

export const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end

// -------------------------------------------------------------------------------------------------
// Referential classifiers

export function findPin(ctx: Context): { value: string; span?: Span } {
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

export function findSpan(
  ctx: Context,
  re: RegExp,
  accept: (m: RegExpExecArray) => boolean = () => true,
): string[] {
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
export function findPostOffices(ctx: Context): string[] {
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

export function findHouseNumber(ctx: Context): HouseNumber {
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

export function findRoads(ctx: Context): string[] {
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
