import type { Geometry } from 'geojson'
import { GEOMETRY_TYPES, geometryIssues } from '../../contract/gis/geojson'
import type { DatasetFeature } from '../workspace/features'
import { ImportError, reprojectGeometry, type Reprojector } from './crs'

/**
 * A feature as a reader found it, before any check: its geometry and properties as they came, where it
 * sits in the file ("feature 3", "line 12", "row 4"), and the reader's own objection when it could not
 * make a feature of it at all (malformed line, unreadable WKT or WKB, not a Feature).
 */
export interface Candidate {
  where: string
  geometry?: unknown
  properties?: unknown
  problem?: string
  /**
   * The format writes "no geometry" as an empty one (WKT/WKB `EMPTY`, a Shapefile or FlatGeobuf shape
   * without parts): read it as none. Elsewhere (GeoJSON, KML) a geometry without positions is invalid.
   */
  emptyIsNone?: boolean
}

/** How many invalid features an error lists by position and reason. */
export const INVALID_LISTED = 10
/** Property values nest at most this deep (deeper ones cannot be stored or sent back as JSON safely). */
export const MAX_PROPERTY_DEPTH = 64
/** A FlatGeobuf column index is 16 bits. */
export const MAX_FIELDS = 65_535

export interface InvalidFeature {
  where: string
  reason: string
}

export interface ValidatedFeatures {
  features: DatasetFeature[]
  skippedInvalid: number
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Whether a JSON value nests deeper than `max` arrays/objects (iterative: no stack to exhaust). */
function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!
    if (typeof v !== 'object' || v === null) continue
    if (depth >= max) return true
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1])
  }
  return false
}

function propertiesOf(value: unknown): { properties?: Record<string, unknown>; reason?: string } {
  if (value === undefined || value === null) return { properties: {} }
  if (!isObject(value)) {
    return {
      reason: `properties must be an object or null, not ${Array.isArray(value) ? 'an array' : typeof value}`,
    }
  }
  for (const [key, v] of Object.entries(value)) {
    if (key.trim() === '') return { reason: 'a property name is empty' }
    if (nestsDeeperThan(v, MAX_PROPERTY_DEPTH)) {
      return { reason: `property "${key.slice(0, 40)}" nests deeper than ${MAX_PROPERTY_DEPTH} levels` }
    }
  }
  return { properties: value }
}

/** A geometry of a known type without any position: empty `coordinates` (or `geometries`). */
function isEmptyGeometry(g: Record<string, unknown>): boolean {
  if (g.type === 'GeometryCollection') return Array.isArray(g.geometries) && g.geometries.length === 0
  return (
    (GEOMETRY_TYPES as readonly string[]).includes(g.type as string) &&
    Array.isArray(g.coordinates) &&
    g.coordinates.length === 0
  )
}

function firstIssue(geometry: unknown, ranges: boolean): string | undefined {
  const [issue] = geometryIssues(geometry, 'geometry', { ranges, maxIssues: 1 })
  return issue ? `${issue.field}: ${issue.rule}` : undefined
}

/** The checked, reprojected feature, or the reason it is not valid. */
export function checkCandidate(candidate: Candidate, reproject: Reprojector): DatasetFeature | string {
  if (candidate.problem) return candidate.problem
  const { properties, reason } = propertiesOf(candidate.properties)
  if (reason) return reason
  const raw = candidate.geometry
  if (raw === undefined || raw === null) return { geometry: null, properties: properties! }
  if (isObject(raw) && isEmptyGeometry(raw)) {
    // RFC 7946 §3.1 lets a reader take empty coordinates for null; taken silently, a typed geometry
    // that lost its positions would become a feature without one. Said instead, where the format has
    // a way to write "none".
    if (candidate.emptyIsNone) return { geometry: null, properties: properties! }
    const [member, what] =
      raw.type === 'GeometryCollection' ? ['geometries', 'geometry'] : ['coordinates', 'position']
    return `geometry.${member}: a ${raw.type as string} without any ${what} (is it cut short?); a feature without a geometry has "geometry": null`
  }
  // Structure first (a projected file's positions are not longitude/latitude yet), then the ranges on
  // the positions as stored.
  const structural = firstIssue(raw, !reproject)
  if (structural) return structural
  let geometry = raw as Geometry
  if (reproject) {
    geometry = reprojectGeometry(geometry, reproject)!
    const after = firstIssue(geometry, true)
    if (after) return `${after} (after reprojection to WGS84)`
  }
  return { geometry, properties: properties! }
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`
}

/**
 * The outcome of checking candidates one at a time, as `validateFeatures` decides it: `add` each checked
 * candidate in file order (it throws past `MAX_FIELDS` distinct property names), then `finish` throws when
 * the import is refused or answers how many invalid features are left out. Holds no feature.
 */
export class ValidationTally {
  total = 0
  valid = 0
  private invalidCount = 0
  private readonly invalid: InvalidFeature[] = []
  private readonly fields = new Set<string>()

  /** The property names of the valid features added, in first-seen order. */
  get names(): ReadonlySet<string> {
    return this.fields
  }

  /** Count a checked candidate; true when it is valid (to be kept). */
  add(where: string, result: DatasetFeature | string): result is DatasetFeature {
    this.total++
    if (typeof result === 'string') {
      this.invalidCount++
      if (this.invalid.length < INVALID_LISTED) this.invalid.push({ where, reason: result })
      return false
    }
    for (const key of Object.keys(result.properties)) this.fields.add(key)
    if (this.fields.size > MAX_FIELDS) {
      throw new ImportError(
        `the file has more than ${MAX_FIELDS} distinct property names; a dataset holds at most that many fields`,
      )
    }
    this.valid++
    return true
  }

  /**
   * Count a valid feature whose property names are those of one already added (so no new name): `add`
   * without its object.
   */
  addValidLikeBefore(): void {
    if (this.valid === 0) throw new Error('addValidLikeBefore before any valid feature')
    this.total++
    this.valid++
  }

  /** How many invalid features are skipped (0 when none), or the refusal. */
  finish(options: { skipInvalid?: boolean } = {}): number {
    const { invalidCount, invalid, total } = this
    if (invalidCount === 0) return 0
    const listed = invalid.map((i) => `${i.where}: ${i.reason}`).join('; ')
    const more = invalidCount > invalid.length ? `; and ${plural(invalidCount - invalid.length, 'more')}` : ''
    if (this.valid === 0) {
      throw new ImportError(
        `none of its ${plural(total, 'feature')} is valid: ${listed}${more}. Nothing was imported`,
      )
    }
    if (options.skipInvalid) return invalidCount
    throw new ImportError(
      `${invalidCount.toLocaleString('en-US')} of ${plural(total, 'feature')} ${invalidCount === 1 ? 'is' : 'are'} invalid: ${listed}${more}. Nothing was imported. To import the ${plural(this.valid, 'valid feature')} and leave out the invalid ones, import again with the "skip invalid features" option (geo-analyst import --skip-invalid)`,
      'invalid-features',
    )
  }
}

/**
 * Check every candidate the same way whatever the reader (RFC 7946 geometry rules, properties an object
 * with non-empty names), reprojecting valid ones to WGS84. Invalid features refuse the whole import with
 * the first few named, unless `skipInvalid` is set: then they are left out and counted. Never a silent
 * half-dataset: a file without one valid feature is refused either way.
 */
export function validateFeatures(
  candidates: readonly Candidate[],
  reproject: Reprojector,
  options: { skipInvalid?: boolean } = {},
): ValidatedFeatures {
  const features: DatasetFeature[] = []
  const tally = new ValidationTally()
  for (const candidate of candidates) {
    const result = checkCandidate(candidate, reproject)
    if (tally.add(candidate.where, result)) features.push(result)
  }
  return { features, skippedInvalid: tally.finish(options) }
}
