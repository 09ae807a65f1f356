import type { FailureClass, GeoError } from '@contract/index'

/** What the run's failure panel offers next, per failure class (spec §7). */
export type FailureAction = 'fix-field' | 'retry' | 'open-settings' | 'reconcile' | 'none'

export function failureAction(error: GeoError): FailureAction {
  const byClass: Record<FailureClass, FailureAction> = {
    'local-configuration': error.field ? 'fix-field' : 'open-settings',
    validation: 'fix-field',
    authentication: 'open-settings',
    'authorization-entitlement': 'none',
    'not-found': error.field ? 'fix-field' : 'none',
    conflict: error.field ? 'fix-field' : 'reconcile',
    'rate-limited': 'retry',
    'timeout-network': 'retry',
    'provider-unavailable': 'retry',
    'unknown-outcome': 'reconcile',
    unclassified: 'reconcile',
  }
  return byClass[error.failureClass]
}

/** The form control an error's field belongs to (body.features.0.geometry → the drawn-shapes checkbox). */
export function controlIdOfField(field: string | undefined): string | null {
  if (!field) return null
  const base = field.startsWith('body') ? 'userGeom' : (field.split('.')[0] ?? field)
  return `join-${base}`
}
