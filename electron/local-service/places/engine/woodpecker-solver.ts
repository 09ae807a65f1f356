import type { Gazetteer, Kind } from '../data/gazetteer'
import { normalize } from './normalize'
import { overlaps, type AdminLevel, type Context, type Span } from './woodpecker-referential'

/**
 * The standardizer's last stage (woodpecker.ts): each administrative reading scored on its own (how well it
 * matched, its level, the place's importance, the PIN code) and with every other (a locality in its city,
 * a city in its state), and the best consistent labelling found.
 */

export interface Candidate extends Span {
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
  /** A locality reading: the town it names, when a town of its own (see `townOf`); -1 none. */
  town?: number
}

const URBAN: ReadonlySet<Kind> = new Set(['CITY', 'LC', 'SLC', 'SSLC'])

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
/** Each word a solution explains adds this much: the solver prefers readings that cover the input. */
const COVERAGE = 0.45

/** Words of a text; a hyphen joins two (Janjgir-Champa names two towns). */
function words(text: string): number {
  return text
    .trim()
    .split(/[\s\-–]+/)
    .filter(Boolean).length
}

export function baseScore(ctx: Context, c: Candidate): number {
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

const distanceKm = (g: Gazetteer, a: number, b: number) => {
  const dLat = (g.lat[a]! - g.lat[b]!) / 1e5
  const dLon = ((g.lon[a]! - g.lon[b]!) / 1e5) * Math.cos((g.lat[b]! / 1e5) * (Math.PI / 180))
  return Math.sqrt(dLat * dLat + dLon * dLon) * 111
}

/** How far a city's built-up area reaches (km), growing with its population (the gazetteer build's model). */
const reachKm = (population: number) => 2.5 * Math.pow(Math.max(population, 1) / 10_000, 0.4)

/** Does a place lie inside a city's built-up area (a district read as a city has none)? */
function insideCity(g: Gazetteer, place: number, city: number): boolean {
  return g.kindOf(city) === 'CITY' && distanceKm(g, place, city) <= reachKm(g.population[city]!)
}

/**
 * The town a locality reading names: the place itself when a town (Sunam); when only the start of a
 * locality's name was read and that start names a town of the locality's district, that town (Satana read
 * as Satana Market, a post office of Satana the gazetteer's coarse positions give to Nashik); else -1.
 */
function townOf(g: Gazetteer, c: Candidate): number {
  if (c.row < 0) return -1
  if (g.kindOf(c.row) === 'CITY') return c.row
  if (!c.partial) return -1
  for (const r of g.rowsNamed(normalize(c.text)))
    if (g.kindOf(r) === 'CITY' && g.district[r] === g.district[c.row]) return r
  return -1
}

/**
 * Is a locality reading a town of its own lying outside a city's built-up area (Sunam read inside
 * Sangrur)? Then that city is rather the town's district.
 */
function ofAnotherTown(g: Gazetteer, c: Candidate, city: number): boolean {
  const town = c.town ?? -1
  return town >= 0 && town !== city && !insideCity(g, town, city)
}

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
  // A town in its own right read as a locality of a larger place it does not lie in (Sunam, Sangrur):
  // the larger place is its district. Suburbs inside a city's reach stay its localities (Borivli, Mumbai).
  const town = outer.level === 'city' && inner.level === 'locality' && ofAnotherTown(g, inner, outer.row)
  if (!town && within(g, inner.row, outer.row)) return s + 0.6
  if (outer.level === 'state' && g.state[inner.row] !== outer.row) return s - 1.5
  if (g.state[inner.row] !== g.state[outer.row]) return s - 1.2
  return s - (town ? 0.5 : 0.4)
}

export function solve(ctx: Context, candidates: Candidate[]): Candidate[] {
  const { g } = ctx
  for (const c of candidates) {
    c.score = baseScore(ctx, c)
    if (c.level === 'locality') c.town = townOf(g, c)
  }
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
