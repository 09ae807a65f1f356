import type { Result } from '../../contract'
import type { AutosuggestResponse } from '../../contract/places/autosuggest'
import type { MatchLevel } from '../../contract/places/operations'
import type { StandardizedAddress, StandardizeResult } from '../../contract/places/standardize'

/**
 * Batch geocoding: each row's address is standardized; the place comes from the local service's `match`
 * (its extension of §2.1) or, from a service without it (the cloud), from autosuggest over the standardized
 * parts. Cloud and local alike, through the same two client calls. Rows keep every field they had, gain the
 * standardized parts and a match quality, and become point features (no geometry when nothing matched).
 */

export interface GeocodeDeps {
  standardize(address: string, signal: AbortSignal): Promise<Result<StandardizeResult>>
  suggest(query: string, signal: AbortSignal): Promise<Result<AutosuggestResponse>>
}

export interface GeocodeOptions {
  signal: AbortSignal
  /** Called after each row (throttle it yourself). */
  onProgress?: (done: number, matched: number) => void
  /** Rows in flight at once. */
  concurrency?: number
}

export interface GeocodedFeature {
  type: 'Feature'
  geometry: { type: 'Point'; coordinates: [number, number] } | null
  properties: Record<string, string | number>
}

/** The columns batch geocoding adds (the analyst's own columns keep their names). */
export const GEOCODE_COLUMNS = [
  'std_house',
  'std_road',
  'std_locality',
  'std_city',
  'std_district',
  'std_state',
  'std_pincode',
  'match_level',
  'match_score',
  'match_name',
  'match_eloc',
] as const

const SUGGESTION_LEVEL: Record<string, MatchLevel> = {
  SUBLOCALITY: 'sublocality',
  SUBSUBLOCALITY: 'sublocality',
  LOCALITY: 'locality',
  VILLAGE: 'locality',
  CITY: 'city',
  SUBDISTRICT: 'district',
  DISTRICT: 'district',
  STATE: 'state',
}

interface Match {
  level: MatchLevel
  score: number
  name: string
  eLoc: string
  lat: number
  lng: number
}

function localMatch(address: StandardizedAddress): Match | undefined {
  const m = (address as { match?: Record<string, unknown> }).match
  if (!m || typeof m.latitude !== 'number' || typeof m.longitude !== 'number') return undefined
  return {
    level: (m.level as MatchLevel) ?? 'city',
    score: typeof m.score === 'number' ? m.score : 0,
    name: String(m.placeName ?? ''),
    eLoc: String(m.eLoc ?? ''),
    lat: m.latitude,
    lng: m.longitude,
  }
}

const admin = (a: StandardizedAddress | undefined, level: string): string =>
  (
    a?.addressInformation?.adminDetails as Record<string, { originalName?: string } | undefined> | undefined
  )?.[level]?.originalName ?? ''

async function geocodeOne(address: string, deps: GeocodeDeps, signal: AbortSignal) {
  const std = await deps.standardize(address, signal)
  if (!std.ok) throw std.error
  const parsed = std.value.found ? std.value.address : undefined
  let match = parsed ? localMatch(parsed) : undefined
  if (!match && parsed) {
    // A service without the local `match`: ask autosuggest for the most specific standardized place.
    const ref = parsed.referentialInformation
    const query = [
      admin(parsed, 'locality') || admin(parsed, 'sublocality'),
      admin(parsed, 'city'),
      admin(parsed, 'state'),
    ]
      .filter(Boolean)
      .join(' ')
    if (query) {
      const suggested = await deps.suggest(query, signal)
      const top = suggested.ok ? suggested.value.suggestedLocations[0] : undefined
      if (top && typeof top.latitude === 'number' && typeof top.longitude === 'number')
        match = {
          level: SUGGESTION_LEVEL[String(top.type).toUpperCase()] ?? (ref?.pincodes ? 'pincode' : 'city'),
          score: typeof top.score === 'number' ? Math.min(1, top.score) : 0.5,
          name: String(top.placeName ?? ''),
          eLoc: String(top.eLoc ?? ''),
          lat: top.latitude,
          lng: top.longitude,
        }
    }
  }
  return { parsed, match }
}

/** Geocode `records[i][column]`; stops (throws the abort reason) when the signal aborts. */
export async function geocodeRecords(
  records: ReadonlyArray<Record<string, string>>,
  column: string,
  deps: GeocodeDeps,
  options: GeocodeOptions,
): Promise<{ features: GeocodedFeature[]; matched: number; byLevel: Record<string, number> }> {
  const features = new Array<GeocodedFeature>(records.length)
  const byLevel: Record<string, number> = {}
  let next = 0
  let done = 0
  let matched = 0
  const worker = async () => {
    while (next < records.length) {
      options.signal.throwIfAborted()
      const i = next++
      const record = records[i]!
      const address = (record[column] ?? '').trim()
      let parsed: StandardizedAddress | undefined
      let match: Match | undefined
      if (address) ({ parsed, match } = await geocodeOne(address.slice(0, 1000), deps, options.signal))
      const ref = parsed?.referentialInformation
      const level: MatchLevel = match?.level ?? 'none'
      byLevel[level] = (byLevel[level] ?? 0) + 1
      if (match) matched++
      features[i] = {
        type: 'Feature',
        geometry: match ? { type: 'Point', coordinates: [match.lng, match.lat] } : null,
        properties: {
          ...record,
          std_house: ref?.houseNumbers?.formatted ?? '',
          std_road: ref?.roads ?? '',
          std_locality: admin(parsed, 'locality'),
          std_city: admin(parsed, 'city'),
          std_district: admin(parsed, 'district'),
          std_state: admin(parsed, 'state'),
          std_pincode:
            ref?.pincodes ||
            String((parsed as { match?: { pincode?: string } } | undefined)?.match?.pincode ?? ''),
          match_level: level,
          match_score: match?.score ?? 0,
          match_name: match?.name ?? '',
          match_eloc: match?.eLoc ?? '',
        },
      }
      done++
      options.onProgress?.(done, matched)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker))
  return { features, matched, byLevel }
}

/** Rows of a CSV (header + cells) as records keyed by the header's names. */
export function recordsOf(
  fields: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
): Record<string, string>[] {
  return rows
    .filter((r) => r.some((cell) => cell.trim() !== ''))
    .map((r) => Object.fromEntries(fields.map((f, i) => [f, r[i] ?? ''])))
}
