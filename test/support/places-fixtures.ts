import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { mulberry32 } from '../../bench/join-data'
import type { Gazetteer } from '../../electron/local-service/places/data/gazetteer'
import { normalize } from '../../electron/local-service/places/engine/normalize'
import type { StandardizedAddressResult } from '../../electron/local-service/places/engine/woodpecker'

/**
 * The labelled addresses of test/fixtures/places/*.jsonl and their scoring: per-field precision and
 * recall of the standardizer (used by the accuracy test and by `npm run bench:places`).
 * Labelling rules: test/fixtures/places/README.md.
 */

export const FIELDS = [
  'pin',
  'state',
  'city',
  'locality',
  'houseNo',
  'road',
  'landmark',
  'careOf',
  'floor',
] as const
export type Field = (typeof FIELDS)[number]

export interface LabelledAddress extends Partial<Record<Field, string>> {
  address: string
}

const dir = path.resolve(import.meta.dirname, '..', 'fixtures', 'places')

/** The labelled addresses of every fixture file, or of the files whose name matches `only`. */
export function loadLabelledAddresses(only?: RegExp): LabelledAddress[] {
  const out: LabelledAddress[] = []
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl') && (!only || only.test(f)))
    .sort()) {
    for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      if (line.trim()) out.push(JSON.parse(line) as LabelledAddress)
    }
  }
  return out
}

const loose = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9\p{Script=Devanagari}]+/gu, '')

/** What the standardizer said for a field (several readings for names: standardized and as written). */
export function predicted(result: StandardizedAddressResult | null, field: Field): string[] {
  if (!result) return []
  const ref = result.referentialInformation
  const admin = result.addressInformation.adminDetails
  const named = (level: 'state' | 'city' | 'locality') => {
    const a = admin[level]
    return a ? [a.originalName, a.inputName ?? ''].filter(Boolean) : []
  }
  switch (field) {
    case 'pin':
      return ref.pincodes ? [ref.pincodes] : []
    case 'state':
    case 'city':
    case 'locality':
      return named(field)
    case 'houseNo':
      return ref.houseNumbers.houseNo ? [ref.houseNumbers.houseNo] : []
    case 'road':
      return ref.roads ? [ref.roads] : []
    case 'landmark':
      return ref.landmarks ? [ref.landmarks] : []
    case 'careOf':
      return ref.careOfs ? [ref.careOfs] : []
    case 'floor':
      return ref.floors ? [ref.floors] : []
  }
}

export interface FieldScore {
  field: Field
  labelled: number
  predicted: number
  correct: number
  precision: number
  recall: number
}

export interface Miss {
  address: string
  field: Field
  expected: string
  got: string
}

/** Per-field precision (correct / predicted) and recall (correct / labelled) over the labelled set. */
export function scoreAddresses(
  labelled: readonly LabelledAddress[],
  run: (address: string) => StandardizedAddressResult | null,
): { scores: FieldScore[]; misses: Miss[] } {
  const counts = new Map<Field, { labelled: number; predicted: number; correct: number }>(
    FIELDS.map((f) => [f, { labelled: 0, predicted: 0, correct: 0 }]),
  )
  const misses: Miss[] = []
  for (const item of labelled) {
    const result = run(item.address)
    for (const field of FIELDS) {
      const c = counts.get(field)!
      const expected = (item[field] ?? '').split('|').map(loose).filter(Boolean)
      const got = predicted(result, field).map(loose).filter(Boolean)
      if (expected.length) c.labelled++
      if (got.length) c.predicted++
      const right = expected.length > 0 && got.some((g) => expected.includes(g))
      if (right) c.correct++
      else if (expected.length || got.length)
        misses.push({
          address: item.address,
          field,
          expected: item[field] ?? '',
          got: predicted(result, field).join(' / '),
        })
    }
  }
  const scores = FIELDS.map((field) => {
    const c = counts.get(field)!
    return {
      field,
      ...c,
      precision: c.predicted ? c.correct / c.predicted : 1,
      recall: c.labelled ? c.correct / c.labelled : 1,
    }
  })
  return { scores, misses }
}

/** Forms of the generated addresses (see `generatedAddresses`). */
export type GeneratedForm =
  | 'locality, city, state pin'
  | 'locality, city - pin, state'
  | 'locality, city, district, state - pin'
  | 'locality city pin (no commas)'
  | 'locality, town, district, state pin'
  | 'house, road, town, state pin'
  | 'town, district, state'
  | 'town, Dist. district, state pin'
  | 'house, town, district, state - pin'
  | 'Vill. village, Tehsil x, Dist. y, state pin'
  | 'village, sub-district, district, state pin'

export interface GeneratedAddress extends LabelledAddress {
  form: GeneratedForm
}

/**
 * Addresses written from the gazetteer's places (GeoNames names) in the orders Indians write them, from the
 * small to the large: a post-office locality with its city, district, state and PIN code; a town with its
 * district and state (the district often named after another, larger town); a village with its tehsil and
 * district. Labelled with what the address says (the locality, the city or town written, the state, the
 * PIN code written); a village's address names no city. Deterministic for a seed.
 */
export function generatedAddresses(g: Gazetteer, count: number, seed = 1): GeneratedAddress[] {
  const random = mulberry32(seed)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!
  const urban: number[] = []
  const smallTownLocalities: number[] = []
  const towns: number[] = []
  const villages: number[] = []
  for (let i = 0; i < g.size; i++) {
    const kind = g.kindOf(i)
    const city = g.city[i]!
    if ((kind === 'LC' || kind === 'SLC') && city >= 0 && g.pin[i] && g.key(i) !== g.key(city)) {
      urban.push(i)
      if (g.population[city]! < 300_000 && g.district[city]! >= 0 && g.key(g.district[city]!) !== g.key(city))
        smallTownLocalities.push(i)
    } else if (kind === 'CITY' && g.pin[i] && g.district[i]! >= 0 && g.state[i]! >= 0) towns.push(i)
    else if (kind === 'VLG' && g.pin[i] && g.subDistrict[i]! >= 0) villages.push(i)
  }
  const cities: number[] = []
  for (let i = 0; i < g.size; i++) if (g.kindOf(i) === 'CITY' && g.population[i]! >= 100_000) cities.push(i)
  /** The larger cities whose built-up area (the gazetteer build's model of a city's reach) holds a town. */
  const hostCities = (town: number): number[] =>
    cities.filter((c) => {
      if (c === town || g.population[c]! <= g.population[town]! || g.state[c] !== g.state[town]) return false
      const dLat = (g.lat[c]! - g.lat[town]!) / 1e5
      const dLon = ((g.lon[c]! - g.lon[town]!) / 1e5) * Math.cos((g.lat[c]! / 1e5) * (Math.PI / 180))
      const reach = 2.5 * Math.pow(g.population[c]! / 10_000, 0.4)
      return Math.sqrt(dLat * dLat + dLon * dLon) * 111 <= reach
    })
  const out: GeneratedAddress[] = []
  while (out.length < count) {
    const r = random()
    const house = `${1 + Math.floor(random() * 400)}`
    if (r < 0.45) {
      const row = pick(random() < 0.7 ? urban : smallTownLocalities)
      const city = g.city[row]!
      const locality = g.name(row)
      const cityName = g.name(city)
      const state = g.name(g.state[row]!)
      const district = g.name(g.district[city]! >= 0 ? g.district[city]! : g.district[row]!)
      const pin = String(g.pin[row])
      const forms: Array<[GeneratedForm, string]> = [
        ['locality, city, state pin', `${house}, ${locality}, ${cityName}, ${state} ${pin}`],
        ['locality, city - pin, state', `${locality}, ${cityName} - ${pin}, ${state}`],
        ['locality, city, district, state - pin', `${locality}, ${cityName}, ${district}, ${state} - ${pin}`],
        ['locality city pin (no commas)', `${house} ${locality} ${cityName} ${pin}`],
      ]
      const [form, address] =
        g.population[city]! < 300_000 && normalize(district) !== normalize(cityName)
          ? ([
              'locality, town, district, state pin',
              `${locality}, ${cityName}, ${district}, ${state} ${pin}`,
            ] as const)
          : pick(forms)
      out.push({ form, address, pin: /pin/.test(form) ? pin : undefined, state, city: cityName, locality })
    } else if (r < 0.85) {
      const row = pick(towns)
      const town = g.name(row)
      const state = g.name(g.state[row]!)
      const district = g.name(g.district[row]!)
      const pin = String(g.pin[row])
      const sameName = normalize(district) === normalize(town)
      const forms: Array<[GeneratedForm, string]> = [
        ['house, road, town, state pin', `${house}, Main Road, ${town}, ${state} ${pin}`],
        ['town, district, state', sameName ? `${town}, ${state}` : `${town}, ${district}, ${state}`],
        ['town, Dist. district, state pin', `${town}, Dist. ${district}, ${state} ${pin}`],
        [
          'house, town, district, state - pin',
          sameName
            ? `${house}, ${town}, ${state} - ${pin}`
            : `${house}, ${town}, ${district}, ${state} - ${pin}`,
        ],
      ]
      const [form, address] = pick(forms)
      // A town inside a larger city's built-up area (Borivli, Mumbai) may be read as either.
      const city = [town, ...hostCities(row).map((c) => g.name(c))].join('|')
      out.push({ form, address, pin: /pin/.test(form) ? pin : undefined, state, city })
    } else {
      const row = pick(villages)
      const village = g.name(row)
      const sub = g.name(g.subDistrict[row]!)
      const district = g.name(g.district[row]!)
      const state = g.name(g.state[row]!)
      const pin = String(g.pin[row])
      const [form, address] = pick<[GeneratedForm, string]>([
        [
          'Vill. village, Tehsil x, Dist. y, state pin',
          `Vill. ${village}, Tehsil ${sub}, Dist. ${district}, ${state} ${pin}`,
        ],
        ['village, sub-district, district, state pin', `${village}, ${sub}, ${district}, ${state} ${pin}`],
      ])
      // Written without its marker, a sub-district named after its town names that town.
      const namesake = [...g.rowsNamed(g.key(g.subDistrict[row]!))].some(
        (r) => g.kindOf(r) === 'CITY' && g.district[r] === g.district[row],
      )
      const city = form === 'village, sub-district, district, state pin' && namesake ? sub : undefined
      out.push({ form, address, pin, state, city, locality: village })
    }
  }
  return out
}
