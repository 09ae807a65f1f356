import { fail, isOperationName, ok, operations, validationFailure, type Result } from '../contract'
import { GeoFailure } from './geo-failure'
import type { CallContext, Handlers } from './area'
import type { Redactor } from './http/redactor'

/** What a host may give a call besides its request. */
export type { CallContext }

/**
 * The one guarded entry every host calls: rejects unknown operations, validates the request against
 * the contract before any work, turns failures into error values and redacts their messages.
 */
export async function dispatch(
  handlers: Handlers,
  name: unknown,
  payload: unknown,
  redactor: Redactor,
  context: CallContext = {},
): Promise<Result<unknown>> {
  if (!isOperationName(name)) {
    return fail('validation', `Unknown operation "${String(name).slice(0, 80)}"`)
  }
  const spec = operations[name]
  const parsed = spec.request.safeParse(payload ?? {})
  if (!parsed.success) return validationFailure(parsed.error, `${name}: `)
  try {
    const handler = handlers[name] as (request: unknown, context: CallContext) => Promise<unknown>
    const value = await handler(parsed.data, context)
    const checked = spec.response.safeParse(value)
    if (!checked.success) {
      return fail(
        'unclassified',
        `${name} produced a response outside its contract: ${checked.error.issues[0]?.message ?? ''}`,
      )
    }
    return ok(checked.data)
  } catch (error) {
    if (error instanceof GeoFailure) {
      return {
        ok: false,
        error: {
          ...error.error,
          message: redactor.redact(error.error.message),
          ...(error.error.detail === undefined ? {} : { detail: redactor.redact(error.error.detail) }),
        },
      }
    }
    const message = error instanceof Error ? error.message : String(error)
    return fail('unclassified', redactor.redact(`${name} failed: ${message}`))
  }
}
