import { HttpError } from '../http-util'
import type { PoolFull } from './worker-pool'

/**
 * A busy worker pool as the request's answer, with `Retry-After`: 429 for a user past their own limit
 * (UserLimit: this user has enough jobs waiting), 503 when the whole queue is full (PoolFull). The body is
 * the spec's error shape (`{code, success: false, message}`), the message naming the user and the limit.
 */
export function busyError(error: PoolFull): HttpError {
  return new HttpError(error.status, error.message, {}, { 'retry-after': String(error.retryAfterSeconds) })
}
