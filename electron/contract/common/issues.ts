import { fail, type Fail } from '../geo-error'

/**
 * Why a request is not acceptable, per field. The kind tells a server which status to answer
 * (missing → 422 "parameter missing", conflict → 409 "conflicting parameters", invalid → 400 malformed)
 * and tells a form how to word its inline error.
 */
export type RequestIssueKind = 'missing' | 'conflict' | 'invalid'

export interface RequestIssue {
  /** The parameter as the spec names it, or a path such as `body.features.0.geometry`. */
  field: string
  /** What is wrong, in words a person can act on. */
  rule: string
  kind: RequestIssueKind
}

export type Checked<T> = { ok: true; value: T } | { ok: false; issues: RequestIssue[] }

/** The HTTP status a server answers for an issue kind (spec §4.5: 400, 409, 422). */
export const STATUS_BY_ISSUE_KIND: Readonly<Record<RequestIssueKind, number>> = {
  missing: 422,
  conflict: 409,
  invalid: 400,
}

/**
 * The issue a server should answer for when several apply: a missing parameter first (422), then a
 * malformed one (400), then conflicting ones (409) — conflicts are judged only between well-formed values.
 */
export function primaryIssue(issues: readonly RequestIssue[]): RequestIssue | undefined {
  for (const kind of ['missing', 'invalid', 'conflict'] as const) {
    const found = issues.find((i) => i.kind === kind)
    if (found) return found
  }
  return undefined
}

export function describeIssues(issues: readonly RequestIssue[], limit = 5): string {
  const shown = issues.slice(0, limit).map((i) => `${i.field}: ${i.rule}`)
  if (issues.length > limit) shown.push(`and ${issues.length - limit} more`)
  return shown.join('; ')
}

/** The issues as one `validation` error naming the first field, for callers that speak Result. */
export function issuesFailure(operation: string, issues: readonly RequestIssue[]): Fail {
  const first = primaryIssue(issues)
  return fail('validation', `${operation}: ${describeIssues(issues)}`, first ? { field: first.field } : {})
}

export function issue(field: string, kind: RequestIssueKind, rule: string): RequestIssue {
  return { field, kind, rule }
}

/** Query values arrive as strings from a URL or as typed values from code; '' and null count as absent. */
export type RawParams = Readonly<Record<string, unknown>> | URLSearchParams

/** Flatten a URL's parameters or a plain object into one value per name, noting names given twice. */
export function readParams(
  params: RawParams,
  /** Valueless flags (`?bridge`): their empty value means "on", so it is kept. */
  valueless: readonly string[] = [],
): { values: Map<string, unknown>; issues: RequestIssue[] } {
  const values = new Map<string, unknown>()
  const issues: RequestIssue[] = []
  if (params instanceof URLSearchParams) {
    for (const [name, value] of params) {
      if (values.has(name)) issues.push(issue(name, 'invalid', 'is given more than once'))
      else values.set(name, value)
    }
  } else {
    for (const [name, value] of Object.entries(params)) values.set(name, value)
  }
  for (const [name, value] of values) {
    if (value === undefined || value === null || (value === '' && !valueless.includes(name)))
      values.delete(name)
  }
  return { values, issues }
}

const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/

/** A finite number from a number or its decimal text; undefined when it is neither. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (typeof value === 'string' && NUMBER_TEXT.test(value.trim())) {
    const n = Number(value.trim())
    return Number.isFinite(n) ? n : undefined
  }
  return undefined
}

export function toInteger(value: unknown): number | undefined {
  const n = toNumber(value)
  return n !== undefined && Number.isInteger(n) ? n : undefined
}

/** A boolean from a boolean or the text true/false (any case); undefined otherwise. */
export function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value
  if (typeof value === 'string') {
    const t = value.trim().toLowerCase()
    if (t === 'true') return true
    if (t === 'false') return false
  }
  return undefined
}

/** Control characters (C0, DEL and C1): never part of a name, a property or an address. */
export const CONTROL_CHARS = /\p{Cc}/u

/** Printable single-line text of bounded length. */
export function isPlainText(value: unknown, max = 1024): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= max && !CONTROL_CHARS.test(value)
}

/** Minimal schema interface so this module needs no zod import of its own. */
interface FieldShape {
  safeParse(
    value: unknown,
  ): { success: true; data: unknown } | { success: false; error: { issues: Array<{ message: string }> } }
}

/**
 * Check a flat set of named parameters: unknown names and malformed values are `invalid`, absent
 * required ones `missing`. Returns the typed values of the well-formed ones and the names present.
 */
export function checkFields(
  params: RawParams,
  shapes: Readonly<Record<string, FieldShape>>,
  required: readonly string[],
  operation: string,
  valueless: readonly string[] = [],
): { typed: Record<string, unknown>; present: Set<string>; issues: RequestIssue[] } {
  const { values, issues } = readParams(params, valueless)
  const typed: Record<string, unknown> = {}
  for (const [name, value] of values) {
    const shape = Object.prototype.hasOwnProperty.call(shapes, name) ? shapes[name] : undefined
    if (!shape) {
      issues.push(
        issue(
          name,
          'invalid',
          `is not a parameter of ${operation}; known: ${Object.keys(shapes).join(', ')}`,
        ),
      )
      continue
    }
    const parsed = shape.safeParse(value)
    if (parsed.success) typed[name] = parsed.data
    else issues.push(issue(name, 'invalid', parsed.error.issues[0]?.message ?? 'is malformed'))
  }
  for (const name of required) if (!values.has(name)) issues.push(issue(name, 'missing', 'is required'))
  return { typed, present: new Set(values.keys()), issues }
}
