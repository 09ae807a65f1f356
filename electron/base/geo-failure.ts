import type { FailureClass } from '../contract/failure'
import { geoError, type GeoError } from '../contract/geo-error'

/**
 * Thrown inside the core when an operation cannot go on; the dispatcher turns it into an error value.
 * Carries the failure class so nothing is lost on the way to the caller.
 */
export class GeoFailure extends Error {
  readonly error: GeoError

  constructor(
    failureClass: FailureClass,
    message: string,
    extra: Partial<Omit<GeoError, 'failureClass' | 'message' | 'retry'>> = {},
  ) {
    super(message)
    this.name = 'GeoFailure'
    this.error = geoError(failureClass, message, extra)
  }
}
