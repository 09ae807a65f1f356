import { RETRY_BY_CLASS, type FailureClass, type RetryAdvice } from './failure'

/**
 * An error as a value: it crosses process boundaries as data, never as a thrown string. Its schema is
 * `geoErrorSchema` (`result.ts`, checked to say the same); this module and the results below stay free of
 * zod, so the CLI starts without reading the schema library (decision 037).
 */
export interface GeoError {
  failureClass: FailureClass
  status?: number
  code?: string
  message: string
  /** Technical detail for a "Details" toggle (a cause, a path in a file); the message stays in plain words. */
  detail?: string
  retry: RetryAdvice
  /** The request field the error is about, for inline form errors. */
  field?: string
  /** Seconds to wait before retrying, when the provider said so. */
  retryAfterSeconds?: number
}

export function geoError(
  failureClass: FailureClass,
  message: string,
  extra: Partial<Omit<GeoError, 'failureClass' | 'message' | 'retry'>> = {},
): GeoError {
  return { failureClass, message, retry: RETRY_BY_CLASS[failureClass], ...extra }
}

export type Ok<T> = { ok: true; value: T }
export type Fail = { ok: false; error: GeoError }
export type Result<T> = Ok<T> | Fail

export function ok<T>(value: T): Ok<T> {
  return { ok: true, value }
}

export function fail(
  failureClass: FailureClass,
  message: string,
  extra: Partial<Omit<GeoError, 'failureClass' | 'message' | 'retry'>> = {},
): Fail {
  return { ok: false, error: geoError(failureClass, message, extra) }
}
