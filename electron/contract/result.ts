import { z } from 'zod'
import { FAILURE_CLASSES, RETRY_ADVICES } from './failure'
import { fail, type Fail, type GeoError } from './geo-error'

export { fail, geoError, ok, type Fail, type GeoError, type Ok, type Result } from './geo-error'

/** The schema of `GeoError` (`geo-error.ts`). */
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

// The schema and the interface say the same: each assignable to the other (a type error otherwise).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const schemaSaysGeoError: Same<z.infer<typeof geoErrorSchema>, GeoError> = true
void schemaSaysGeoError

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
