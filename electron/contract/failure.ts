/**
 * Failure classes of the interface specification (§7) and what each one tells the caller to do.
 * Every error that crosses a process boundary carries one of these, so the UI can say what to do next.
 */
export const FAILURE_CLASSES = [
  'local-configuration',
  'validation',
  'authentication',
  'authorization-entitlement',
  'not-found',
  'conflict',
  'rate-limited',
  'timeout-network',
  'provider-unavailable',
  'unknown-outcome',
  'unclassified',
] as const

export type FailureClass = (typeof FAILURE_CLASSES)[number]

export const RETRY_ADVICES = [
  'fix-then-retry',
  'do-not-retry',
  'reconcile-first',
  'retry-after',
  'bounded-retry',
] as const

export type RetryAdvice = (typeof RETRY_ADVICES)[number]

/** §7 "Failure classes and recovery rules": the default retry of each class. */
export const RETRY_BY_CLASS: Readonly<Record<FailureClass, RetryAdvice>> = {
  'local-configuration': 'fix-then-retry',
  validation: 'fix-then-retry',
  authentication: 'fix-then-retry',
  'authorization-entitlement': 'do-not-retry',
  'not-found': 'do-not-retry',
  conflict: 'reconcile-first',
  'rate-limited': 'retry-after',
  'timeout-network': 'bounded-retry',
  'provider-unavailable': 'bounded-retry',
  'unknown-outcome': 'reconcile-first',
  unclassified: 'reconcile-first',
}

/** §7 status → class table. Statuses the table does not name are unclassified. */
const CLASS_BY_STATUS: ReadonlyMap<number, FailureClass> = new Map<number, FailureClass>([
  [400, 'validation'],
  [405, 'validation'],
  [411, 'validation'],
  [413, 'validation'],
  [415, 'validation'],
  [422, 'validation'],
  [401, 'authentication'],
  [403, 'authorization-entitlement'],
  [404, 'not-found'],
  [410, 'not-found'],
  [409, 'conflict'],
  [412, 'conflict'],
  [428, 'conflict'],
  [429, 'rate-limited'],
  [408, 'timeout-network'],
  [504, 'timeout-network'],
  [500, 'provider-unavailable'],
  [502, 'provider-unavailable'],
  [503, 'provider-unavailable'],
  [507, 'provider-unavailable'],
  [202, 'unknown-outcome'],
])

/**
 * The failure class of an HTTP status, or `null` when the status is a success the caller interprets
 * itself (200, 201, 203, 204, 206 have per-endpoint meanings).
 */
export function classifyStatus(status: number): FailureClass | null {
  const known = CLASS_BY_STATUS.get(status)
  if (known) return known
  if (status >= 200 && status < 300) return null
  return 'unclassified'
}

/** What a person should do next, per class; hosts and the UI show it next to the message. */
export const NEXT_STEP_BY_CLASS: Readonly<Record<FailureClass, string>> = {
  'local-configuration': 'Fix the setting or credential named in the message, then try again.',
  validation: 'Correct the field named in the message, then try again.',
  authentication: 'Re-enter the credential for this operation group in Settings.',
  'authorization-entitlement':
    'This credential is not entitled to the operation; ask the provider for access.',
  'not-found': 'Check the name or address; retrying will not help.',
  conflict: 'Something with this identity already exists; reconcile before writing again.',
  'rate-limited': 'The provider asked to slow down; retry after the time it gave.',
  'timeout-network': 'The network or provider did not answer in time; retry later.',
  'provider-unavailable': 'The provider is failing or unavailable; retry later.',
  'unknown-outcome':
    'The request may or may not have taken effect; check the result before sending it again.',
  unclassified: 'An unexpected answer came back; check the result before sending it again.',
}
