import type { Gazetteer } from '../data/gazetteer'
import { CARE_OF, FLOOR, LANDMARK } from './lexicon'
import { adminCandidates, LOCALITY_WORDS } from './woodpecker-admin'
import {
  ADMIN_LEVELS,
  clean,
  findHouseNumber,
  findPin,
  findPostOffices,
  findRoads,
  findSpan,
  Taken,
  type AdminLevel,
  type Context,
  type HouseNumber,
} from './woodpecker-referential'
import { solve, type Candidate } from './woodpecker-solver'

/**
 * Address standardization (spec §2.1, §4.1), after pelias/parser: classifiers tag spans of the input
 * (patterns for the referential parts, the gazetteer for the administrative ones), and a solver picks the
 * best consistent labelling — one place per administrative level, no two spans overlapping, the PIN code
 * constraining state and district, localities agreeing with their city and state. The stages:
 * woodpecker-referential.ts, woodpecker-admin.ts, woodpecker-solver.ts; here, the answer put together.
 *
 * Pure: a function of the loaded gazetteer and the input, fast enough for the request thread.
 */

export { ADMIN_LEVELS, type AdminLevel, type HouseNumber } from './woodpecker-referential'
export { prepareStandardizer } from './woodpecker-admin'

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
    /** Every level of §2.1 (`originalName` '' when not found); `district`, `subDistrict`: local extensions. */
    adminDetails: Record<AdminLevel, AdminName> & Partial<Record<'district' | 'subDistrict', AdminName>>
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
  // A locality read only from where it stands (no place of the gazetteer, no locality word such as Nagar)
  // is offered as the locality but stays in remainingAddress: nothing recognised it.
  for (const c of chosen) if (!c.free || LOCALITY_WORDS.test(c.text)) taken.take(c)

  const adminDetails: Partial<Record<Candidate['level'], AdminName>> = {}
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
  // §2.1 lists every level as present: a level not found has an empty name.
  for (const level of ADMIN_LEVELS) adminDetails[level] ??= { originalName: '', inputName: '' }

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
    addressInformation: {
      // Every level was filled above.
      adminDetails: adminDetails as StandardizedAddressResult['addressInformation']['adminDetails'],
      adminPattern,
    },
    ...(match ? { match } : {}),
  }
}
