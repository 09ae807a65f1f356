import { z } from 'zod'
import {
  issue,
  readParams,
  toBoolean,
  toNumber,
  type Checked,
  type RawParams,
  type RequestIssue,
} from '../common/issues'
import { flag, text } from '../common/values'
import { geoJsonIssues, type FeatureCollection } from './geojson'

/**
 * Query parameters of the join (spec §4.5, POST {mgis_url}/query_apply/join), named as the spec names
 * them — `newDatasetNme` included — and every conditional rule, written once for the client, the local
 * service and the join form. Data in, issues out; nothing here performs I/O.
 */

export const JOIN_QUERY_TYPES = ['basic', 'spatialOperation', 'functionBased'] as const
export type JoinQueryType = (typeof JOIN_QUERY_TYPES)[number]

export const SPATIAL_OPERATORS = [
  'Intersects',
  'Disjoint',
  'Overlaps',
  'Equals',
  'Touches',
  'DWithin',
  'Within',
  'Contains',
  'Crosses',
] as const
export const BASIC_OPERATORS = ['=', '<>', '<', '>', '<=', '>=', 'IN', 'NOT IN'] as const
export const COMPARISON_OPERATORS = ['=', '<>', '<', '>', '<=', '>='] as const
export const COMPARISON_FUNCTIONS = ['Area', 'Length', 'isEmpty'] as const

export type SpatialOperator = (typeof SPATIAL_OPERATORS)[number]
export type BasicOperator = (typeof BASIC_OPERATORS)[number]
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number]
export type ComparisonFunction = (typeof COMPARISON_FUNCTIONS)[number]

/**
 * Operators allowed per query type. The spec lists the spatial ones; for functionBased the operator is
 * the spatial relation whose result the comparison function measures, so it takes the spatial list too.
 */
export const OPERATORS_BY_QUERY_TYPE: Readonly<Record<JoinQueryType, readonly string[]>> = {
  spatialOperation: SPATIAL_OPERATORS,
  basic: BASIC_OPERATORS,
  functionBased: SPATIAL_OPERATORS,
}

/** isEmpty yields a boolean: only equality comparisons make sense. */
export const BOOLEAN_COMPARISON_OPERATORS = ['=', '<>'] as const

/** Name of a dataset saved by the join: 1–63 letters, digits, `_` or `-`, starting with a letter. */
export const NEW_DATASET_NAME_RULE = /^[A-Za-z][A-Za-z0-9_-]{0,62}$/
export const NEW_DATASET_NAME_MESSAGE =
  'must be 1–63 letters, digits, underscores or dashes, starting with a letter (no dots, slashes or spaces)'

/** A dataset name by the service's rule: letter case aside (a taken name is taken in any case). */
export const sameDatasetName = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()

/**
 * What the dataset lists before and after a saving join whose answer was lost say about `name`: created by
 * this run (absent before, listed after), there before (the run could not have saved it), absent after, or
 * unread (the list after could not be read). Without the list before, a listed name counts as found.
 */
export function reconcileSavedDataset(
  name: string,
  before: readonly string[] | undefined,
  after: readonly string[] | undefined,
):
  | { kind: 'found'; listed: string }
  | { kind: 'existed'; listed: string }
  | { kind: 'absent' }
  | { kind: 'unread' } {
  const existed = before?.find((n) => sameDatasetName(n, name))
  if (existed !== undefined) return { kind: 'existed', listed: existed }
  if (!after) return { kind: 'unread' }
  const listed = after.find((n) => sameDatasetName(n, name))
  return listed === undefined ? { kind: 'absent' } : { kind: 'found', listed }
}

export const JOIN_PARAM_NAMES = [
  'queryType',
  'datasetSource',
  'datasetRef',
  'operator',
  'sourceProperty',
  'refProperty',
  'selectionParamSource',
  'selectionParamRef',
  'userGeom',
  'distance',
  'comparisonFunction',
  'comparisonOperator',
  'comparisonValue',
  'saveAsNewDataset',
  'newDatasetNme',
] as const
export type JoinParamName = (typeof JOIN_PARAM_NAMES)[number]

export const REQUIRED_JOIN_PARAMS = ['queryType', 'datasetSource', 'operator', 'sourceProperty'] as const

const nonNegativeNumber = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const n = toNumber(v)
  if (n === undefined || n < 0) {
    ctx.addIssue({ code: 'custom', message: 'must be a non-negative number (metres)' })
    return z.NEVER
  }
  return n
})

/** Each parameter on its own: type and form only. Conditional rules live in `validateJoinRequest`. */
export const joinParamShapes = {
  queryType: z.enum(JOIN_QUERY_TYPES, { message: `must be one of ${JOIN_QUERY_TYPES.join(', ')}` }),
  datasetSource: text(),
  datasetRef: text(),
  operator: z.enum([...SPATIAL_OPERATORS, ...BASIC_OPERATORS] as [string, ...string[]], {
    message: `must be one of ${[...SPATIAL_OPERATORS, ...BASIC_OPERATORS].join(', ')}`,
  }),
  sourceProperty: text(),
  refProperty: text(),
  selectionParamSource: text(2048),
  selectionParamRef: text(2048),
  userGeom: flag,
  distance: nonNegativeNumber,
  comparisonFunction: z.enum(COMPARISON_FUNCTIONS, {
    message: `must be one of ${COMPARISON_FUNCTIONS.join(', ')}`,
  }),
  comparisonOperator: z.enum(COMPARISON_OPERATORS, {
    message: `must be one of ${COMPARISON_OPERATORS.join(', ')}`,
  }),
  comparisonValue: z.union([z.number(), z.boolean(), text(64)]),
  saveAsNewDataset: flag,
  newDatasetNme: z.string().regex(NEW_DATASET_NAME_RULE, NEW_DATASET_NAME_MESSAGE),
} as const

/** The join's query parameters after validation: typed, with the spec's names. */
export interface JoinParams {
  queryType: JoinQueryType
  datasetSource: string
  datasetRef?: string
  operator: string
  sourceProperty: string
  refProperty?: string
  selectionParamSource?: string
  selectionParamRef?: string
  userGeom?: boolean
  distance?: number
  comparisonFunction?: ComparisonFunction
  comparisonOperator?: ComparisonOperator
  /** A number for Area and Length, a boolean for isEmpty. */
  comparisonValue?: number | boolean
  saveAsNewDataset?: boolean
  newDatasetNme?: string
}

/** A join request: its parameters and, when `userGeom` is true, the user geometry. */
export interface JoinRequest {
  params: JoinParams
  body?: FeatureCollection
}

/** The conditional rules between well-formed parameters; returns issues only. */
function conditionalIssues(
  p: Partial<JoinParams>,
  present: ReadonlySet<string>,
  body: unknown,
  hasBody: boolean,
): RequestIssue[] {
  const out: RequestIssue[] = []
  // A parameter that is there but malformed is reported once, as malformed, never also as missing.
  const absent = (name: JoinParamName) => !present.has(name)
  const type = p.queryType
  if (type && p.operator && !OPERATORS_BY_QUERY_TYPE[type].includes(p.operator)) {
    out.push(
      issue(
        'operator',
        'conflict',
        `${p.operator} is not an operator of queryType ${type}; allowed: ${OPERATORS_BY_QUERY_TYPE[type].join(', ')}`,
      ),
    )
  }
  // distance belongs to DWithin only.
  if (p.operator === 'DWithin' && absent('distance')) {
    out.push(issue('distance', 'missing', 'is required when operator is DWithin (metres, non-negative)'))
  }
  if (p.distance !== undefined && p.operator !== undefined && p.operator !== 'DWithin') {
    out.push(issue('distance', 'conflict', 'is only used with operator DWithin'))
  }
  // The comparison triple belongs to functionBased only.
  const comparison = ['comparisonFunction', 'comparisonOperator', 'comparisonValue'] as const
  if (type === 'functionBased') {
    for (const name of comparison) {
      if (absent(name)) out.push(issue(name, 'missing', 'is required when queryType is functionBased'))
    }
    const fn = p.comparisonFunction
    const value = p.comparisonValue
    if (fn && value !== undefined) {
      if (fn === 'isEmpty' && typeof value !== 'boolean') {
        out.push(
          issue('comparisonValue', 'invalid', 'must be true or false when comparisonFunction is isEmpty'),
        )
      }
      if (fn !== 'isEmpty' && typeof value !== 'number') {
        out.push(
          issue('comparisonValue', 'invalid', `must be a number (metres) when comparisonFunction is ${fn}`),
        )
      }
    }
    if (
      fn === 'isEmpty' &&
      p.comparisonOperator &&
      !(BOOLEAN_COMPARISON_OPERATORS as readonly string[]).includes(p.comparisonOperator)
    ) {
      out.push(issue('comparisonOperator', 'conflict', 'isEmpty compares with = or <> only'))
    }
  } else if (type) {
    for (const name of comparison) {
      if (p[name] !== undefined)
        out.push(issue(name, 'conflict', 'is only used when queryType is functionBased'))
    }
  }
  // A non-spatial query joins two datasets on properties; a spatial one needs a reference dataset or a user geometry.
  if (type === 'basic') {
    if (absent('datasetRef'))
      out.push(issue('datasetRef', 'missing', 'is required for a non-spatial (basic) query'))
    if (absent('refProperty'))
      out.push(issue('refProperty', 'missing', 'is required for a non-spatial (basic) query'))
    if (p.userGeom === true)
      out.push(issue('userGeom', 'conflict', 'a user geometry applies to spatial queries only'))
  } else if (type) {
    if (p.userGeom === true && p.datasetRef !== undefined) {
      out.push(issue('datasetRef', 'conflict', 'give either datasetRef or userGeom=true, not both'))
    }
    // functionBased without a reference filters the source dataset's own features by the comparison.
    if (
      type === 'spatialOperation' &&
      p.userGeom !== true &&
      absent('datasetRef') &&
      !(present.has('userGeom') && p.userGeom === undefined)
    ) {
      out.push(
        issue('datasetRef', 'missing', 'is required unless userGeom=true sends a user geometry in the body'),
      )
    }
  }
  if (p.selectionParamRef !== undefined && p.datasetRef === undefined) {
    out.push(issue('selectionParamRef', 'conflict', 'needs a reference dataset (datasetRef)'))
  }
  if (p.userGeom === true) {
    if (!hasBody) out.push(issue('body', 'missing', 'userGeom=true needs a GeoJSON FeatureCollection body'))
    else out.push(...geoJsonIssues(body, 'body'))
  }
  if (p.saveAsNewDataset === true && absent('newDatasetNme')) {
    out.push(issue('newDatasetNme', 'missing', 'is required when saveAsNewDataset is true'))
  }
  if (p.newDatasetNme !== undefined && p.saveAsNewDataset !== true) {
    out.push(issue('newDatasetNme', 'conflict', 'is only used when saveAsNewDataset is true'))
  }
  if (p.saveAsNewDataset === true && p.newDatasetNme !== undefined && p.newDatasetNme === p.datasetSource) {
    out.push(issue('newDatasetNme', 'conflict', 'must differ from datasetSource'))
  }
  return out
}

/**
 * Validate a join request: the query parameters (a URL's search params or a plain object of strings,
 * numbers and booleans) and the body. Returns the typed parameters, or every issue found, each naming
 * the field, the rule and its kind (missing → 422, conflict → 409, invalid → 400).
 */
export function validateJoinRequest(params: RawParams, body?: unknown): Checked<JoinRequest> {
  const { values, issues } = readParams(params)
  const typed: Record<string, unknown> = {}
  for (const [name, value] of values) {
    if (!(JOIN_PARAM_NAMES as readonly string[]).includes(name)) {
      const hint = name.toLowerCase() === 'newdatasetname' ? ' (the spec spells it newDatasetNme)' : ''
      issues.push(issue(name, 'invalid', `is not a parameter of the join${hint}`))
      continue
    }
    const shape = joinParamShapes[name as JoinParamName] as z.ZodType
    const parsed = shape.safeParse(value)
    if (parsed.success) typed[name] = parsed.data
    else issues.push(issue(name, 'invalid', parsed.error.issues[0]?.message ?? 'is malformed'))
  }
  for (const name of REQUIRED_JOIN_PARAMS) {
    if (!values.has(name)) issues.push(issue(name, 'missing', 'is required'))
  }
  // comparisonValue arrives as text from a URL: read it per comparison function.
  const cv = typed.comparisonValue
  if (typeof cv === 'string') {
    const fn = typed.comparisonFunction
    const asBool = toBoolean(cv)
    const asNum = toNumber(cv)
    typed.comparisonValue = fn === 'isEmpty' ? (asBool ?? cv) : (asNum ?? asBool ?? cv)
  }
  const hasBody = body !== undefined && body !== null && body !== ''
  issues.push(...conditionalIssues(typed as Partial<JoinParams>, new Set(values.keys()), body, hasBody))
  if (issues.length > 0) return { ok: false, issues }
  const p = typed as unknown as JoinParams
  return {
    ok: true,
    value: p.userGeom === true ? { params: p, body: body as FeatureCollection } : { params: p },
  }
}

/**
 * Zod schema of the join's query parameters with every conditional rule, for callers that speak zod
 * (e.g. a contract table entry). Each zod issue carries `params.kind` (missing | conflict | invalid).
 */
export const joinParamsSchema = z
  .object({
    queryType: z.unknown(),
    datasetSource: z.unknown(),
    datasetRef: z.unknown().optional(),
    operator: z.unknown(),
    sourceProperty: z.unknown(),
    refProperty: z.unknown().optional(),
    selectionParamSource: z.unknown().optional(),
    selectionParamRef: z.unknown().optional(),
    userGeom: z.unknown().optional(),
    distance: z.unknown().optional(),
    comparisonFunction: z.unknown().optional(),
    comparisonOperator: z.unknown().optional(),
    comparisonValue: z.unknown().optional(),
    saveAsNewDataset: z.unknown().optional(),
    newDatasetNme: z.unknown().optional(),
  } satisfies Record<JoinParamName, z.ZodType>)
  .catchall(z.unknown())
  .transform((raw, ctx): JoinParams => {
    const checked = validateJoinRequest(raw)
    if (checked.ok) return checked.value.params
    for (const i of checked.issues.filter((x) => x.field !== 'body')) {
      ctx.addIssue({ code: 'custom', path: [i.field], message: i.rule, params: { kind: i.kind } })
    }
    return z.NEVER
  })

/** The query string values the client sends: spec names, booleans and numbers as text. */
export function joinQueryValues(p: JoinParams): Array<[JoinParamName, string]> {
  const out: Array<[JoinParamName, string]> = []
  for (const name of JOIN_PARAM_NAMES) {
    const v = p[name]
    if (v !== undefined) out.push([name, String(v)])
  }
  return out
}

/** Whether this join changes state on the provider (saves a dataset) and so is never replayed blindly. */
export function joinWritesDataset(p: JoinParams): boolean {
  return p.saveAsNewDataset === true
}
