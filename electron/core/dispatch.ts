import { fail, isOperationName, ok, operations, validationFailure, type Result } from '../contract'
import { GeoFailure } from '../base/geo-failure'
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
    return fail('unclassified', redactor.redact(`${name} failed: ${describeThrown(error)}`))
  }
}

/** What was thrown, in words: an Error's message, an object's `message` or its JSON, never "[object Object]". */
export function describeThrown(error: unknown): string {
  if (error instanceof Error) return error.message
  if (typeof error === 'object' && error !== null) {
    const message = (error as { message?: unknown }).message
    if (typeof message === 'string' && message !== '') return message
    try {
      const json = JSON.stringify(error)
      if (json !== undefined && json !== '{}') return json.length > 300 ? `${json.slice(0, 300)}…` : json
    } catch {
      // a cycle or a bigint: fall through to the kind of object
    }
    return `a ${error.constructor?.name ?? 'value'} without a message`
  }
  return String(error)
}
