import { z } from 'zod'
import { FAILURE_CLASSES, RETRY_ADVICES, RETRY_BY_CLASS, type FailureClass } from './failure'

/** An error as a value: it crosses process boundaries as data, never as a thrown string. */
export const geoErrorSchema = z.object({
  failureClass: z.enum(FAILURE_CLASSES),
  status: z.number().int().optional(),
  code: z.string().optional(),
  message: z.string(),
  /** Technical detail for a "Details" toggle (a cause, a path in a file); the message stays in plain words. */
  detail: z.string().optional(),
  retry: z.enum(RETRY_ADVICES),
  /** The request field the error is about, for inline form errors. */
  field: z.string().optional(),
  /** Seconds to wait before retrying, when the provider said so. */
  retryAfterSeconds: z.number().optional(),
})

export type GeoError = z.infer<typeof geoErrorSchema>

export type Ok<T> = { ok: true; value: T }
export type Fail = { ok: false; error: GeoError }
export type Result<T> = Ok<T> | Fail

export function ok<T>(value: T): Ok<T> {
  return { ok: true, value }
}

export function geoError(
  failureClass: FailureClass,
  message: string,
  extra: Partial<Omit<GeoError, 'failureClass' | 'message' | 'retry'>> = {},
): GeoError {
  return { failureClass, message, retry: RETRY_BY_CLASS[failureClass], ...extra }
}

export function fail(
  failureClass: FailureClass,
  message: string,
  extra: Partial<Omit<GeoError, 'failureClass' | 'message' | 'retry'>> = {},
): Fail {
  return { ok: false, error: geoError(failureClass, message, extra) }
}

export function resultSchema<T extends z.ZodType>(value: T) {
  return z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value }),
    z.object({ ok: z.literal(false), error: geoErrorSchema }),
  ])
}

/** A schema failure as one `validation` error naming the first offending field and its rule. */
export function validationFailure(error: z.ZodError, prefix = ''): Fail {
  const issue = error.issues[0]
  const path = issue ? issue.path.map(String).join('.') : ''
  const field = path || undefined
  const what = issue ? issue.message : 'invalid input'
  const message = field ? `${prefix}${field}: ${what}` : `${prefix}${what}`
  return fail('validation', message, field ? { field } : {})
}
