import type { FailureClass } from '../contract'

/**
 * Exit codes of `geo-analyst`, documented in the README:
 * 0 ok; 1 unexpected; 2 validation or local configuration; 3 authentication or authorization;
 * 4 not found; 5 conflict or unknown outcome; 6 rate-limited, timeout or provider unavailable.
 */
export const EXIT_BY_CLASS: Readonly<Record<FailureClass, number>> = {
  'local-configuration': 2,
  validation: 2,
  authentication: 3,
  'authorization-entitlement': 3,
  'not-found': 4,
  conflict: 5,
  'unknown-outcome': 5,
  'rate-limited': 6,
  'timeout-network': 6,
  'provider-unavailable': 6,
  unclassified: 1,
}
