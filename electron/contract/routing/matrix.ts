import { z } from 'zod'
import { checkFields, issue, type Checked, type RawParams, type RequestIssue } from '../common/issues'
import { integerValue, looseNumber, text } from '../common/values'

/** §4.3 GET {advancedmaps_url}/{rest-key}/{resources}/{profile}/{geopositions} and §4.4 predictive. */
export const MATRIX_RESOURCES = ['distance_matrix', 'distance_matrix_eta', 'distance_matrix_traffic'] as const
export const MATRIX_PROFILES = ['driving', 'biking', 'walking', 'trucking'] as const
export type MatrixResource = (typeof MATRIX_RESOURCES)[number]
export type MatrixProfile = (typeof MATRIX_PROFILES)[number]

/** §8: at most 100 points including source and secondary positions. */
export const MAX_MATRIX_POSITIONS = 100

export const MATRIX_RESULT_CODES = [
  'Ok',
  'InvalidUrl',
  'InvalidService',
  'InvalidVersion',
  'InvalidOptions',
  'InvalidQuery',
  'NoRoute',
] as const

export interface MatrixParams {
  resources: MatrixResource
  profile: MatrixProfile
  geopositions: string
  sources?: string
  destinations?: string
  rtype?: 0 | 1
  region?: string
}

export interface PredictiveParams {
  coordinates: string
  dep_time?: number
}

const NUM = '[+-]?\\d+(?:\\.\\d+)?'
const LON_LAT = new RegExp(`^(${NUM}),(${NUM})$`)
const ELOC = /^[A-Za-z0-9]{6}([A-Za-z0-9]{2})?$/

/** A `<longitude>,<latitude>` pair in range; undefined when the text is not one. */
export function parseLonLat(value: string): [number, number] | undefined {
  const m = LON_LAT.exec(value.trim())
  if (!m) return undefined
  const lon = Number(m[1])
  const lat = Number(m[2])
  return Math.abs(lon) <= 180 && Math.abs(lat) <= 90 ? [lon, lat] : undefined
}

function positionsIssues(field: string, value: string, allowEloc: boolean, min: number): RequestIssue[] {
  const parts = value.split(';')
  const out: RequestIssue[] = []
  if (parts.length > MAX_MATRIX_POSITIONS) {
    out.push(
      issue(
        field,
        'invalid',
        `has ${parts.length} positions; at most ${MAX_MATRIX_POSITIONS} including sources`,
      ),
    )
    return out
  }
  if (parts.length < min) out.push(issue(field, 'invalid', `needs at least ${min} positions separated by ;`))
  parts.forEach((p, i) => {
    if (out.length >= 5) return
    if (parseLonLat(p)) return
    if (allowEloc && ELOC.test(p.trim())) return
    out.push(
      issue(
        field,
        'invalid',
        `position ${i + 1} "${p.slice(0, 40)}" is not ${allowEloc ? '<longitude>,<latitude> (in range) or a 6/8-character eLoc' : '<longitude>,<latitude> in range'}`,
      ),
    )
  })
  return out
}

const indexList = z.string().regex(/^\d+(;\d+)*$/, 'must be semicolon-separated position indexes such as 0;2')

export const matrixShapes = {
  resources: z.enum(MATRIX_RESOURCES, { message: `must be one of ${MATRIX_RESOURCES.join(', ')}` }),
  profile: z.enum(MATRIX_PROFILES, { message: `must be one of ${MATRIX_PROFILES.join(', ')}` }),
  geopositions: text(20_000),
  sources: indexList,
  destinations: indexList,
  rtype: integerValue('must be 0 (optimal) or 1 (shortest)', (n) => n === 0 || n === 1),
  region: z.string().regex(/^[A-Za-z]{2,3}$/, 'must be a country code such as IND'),
}

/**
 * The resource/profile/option combinations §4.3 forbids, as issues of kind `conflict`: biking and walking
 * only with distance_matrix; rtype=1 not with distance_matrix_eta; neither rtype nor region for biking.
 * Forms call it with the choices so far to disable (and explain) what cannot be combined.
 */
export function combinationIssues(
  p: Partial<Pick<MatrixParams, 'resources' | 'profile' | 'rtype' | 'region'>>,
): RequestIssue[] {
  const issues: RequestIssue[] = []
  if (
    (p.profile === 'biking' || p.profile === 'walking') &&
    p.resources &&
    p.resources !== 'distance_matrix'
  ) {
    issues.push(issue('profile', 'conflict', `${p.profile} is available with resources distance_matrix only`))
  }
  if (p.rtype === 1 && p.resources === 'distance_matrix_eta') {
    issues.push(issue('rtype', 'conflict', 'rtype=1 (shortest) is not supported with distance_matrix_eta'))
  }
  if (p.profile === 'biking') {
    if (p.rtype !== undefined) issues.push(issue('rtype', 'conflict', 'is not supported for profile biking'))
    if (p.region !== undefined)
      issues.push(issue('region', 'conflict', 'is not supported for profile biking'))
  }
  return issues
}

/** §7 results.code of a refused matrix request (answered with HTTP 400). */
export type MatrixErrorCode = 'InvalidQuery' | 'InvalidService' | 'InvalidOptions'

/**
 * Which §7 code a refused request gets, from its first issue: an unknown resource or profile is
 * InvalidService (the URL names no service we have); a forbidden combination, a bad rtype or region, or an
 * unknown option is InvalidOptions; malformed or too many positions, indexes or times are InvalidQuery.
 */
export function matrixErrorCode(issues: readonly RequestIssue[]): MatrixErrorCode {
  const first = issues.find((i) => i.kind !== 'conflict') ?? issues[0]
  if (!first) return 'InvalidQuery'
  if (first.field === 'resources' || first.field === 'profile')
    return first.kind === 'conflict' ? 'InvalidOptions' : 'InvalidService'
  if (first.kind === 'conflict') return 'InvalidOptions'
  if (first.field === 'rtype' || first.field === 'region') return 'InvalidOptions'
  if (['geopositions', 'coordinates', 'sources', 'destinations', 'dep_time'].includes(first.field))
    return 'InvalidQuery'
  return 'InvalidOptions'
}

export function validateMatrix(params: RawParams): Checked<MatrixParams> {
  const { typed, issues } = checkFields(
    params,
    matrixShapes,
    ['resources', 'profile', 'geopositions'],
    'routing.matrix',
  )
  const p = typed as Partial<MatrixParams>
  if (p.geopositions !== undefined) {
    issues.push(...positionsIssues('geopositions', p.geopositions, true, 2))
    const count = p.geopositions.split(';').length
    for (const name of ['sources', 'destinations'] as const) {
      const list = p[name]
      if (list === undefined) continue
      const bad = list
        .split(';')
        .map(Number)
        .find((i) => i >= count)
      if (bad !== undefined)
        issues.push(
          issue(
            name,
            'invalid',
            `index ${bad} is out of range: there are ${count} positions (0..${count - 1})`,
          ),
        )
    }
  }
  issues.push(...combinationIssues(p))
  return issues.length ? { ok: false, issues } : { ok: true, value: p as MatrixParams }
}

export const predictiveShapes = {
  coordinates: text(20_000),
  dep_time: integerValue('must be a UNIX timestamp in seconds (a non-negative integer)', (n) => n >= 0),
}

export function validatePredictive(params: RawParams): Checked<PredictiveParams> {
  const { typed, issues } = checkFields(params, predictiveShapes, ['coordinates'], 'routing.predictive')
  if (typeof typed.coordinates === 'string')
    issues.push(...positionsIssues('coordinates', typed.coordinates, false, 2))
  return issues.length ? { ok: false, issues } : { ok: true, value: typed as unknown as PredictiveParams }
}

const matrixCell = z.unknown().transform((v) => {
  if (v === null || v === undefined) return null
  const n = looseNumber.parse(v)
  return typeof n === 'number' ? n : null
})

/** §2.3 parsed tolerantly: responseCode integer or string → number; cells null when absent, never NaN. */
export const matrixResponseSchema = z.looseObject({
  Server: z.string().optional(),
  check: z.unknown().optional(),
  version: z
    .unknown()
    .transform((v) => (v === undefined || v === null ? undefined : String(v)))
    .optional(),
  responseCode: z
    .unknown()
    .transform((v) => {
      const n = looseNumber.parse(v)
      return typeof n === 'number' ? n : undefined
    })
    .optional(),
  results: z.looseObject({
    code: z.string(),
    distances: z.array(z.array(matrixCell)).optional(),
    durations: z.array(z.array(matrixCell)).optional(),
  }),
})

export type MatrixResponse = z.output<typeof matrixResponseSchema>
