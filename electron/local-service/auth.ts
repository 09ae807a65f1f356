import { GROUP_NAMES, GROUPS, type Group } from '../contract/groups'
import { timingSafeEqual } from 'node:crypto'

/** The operation groups of the spec, as entitlements name them. */
export const SERVICE_GROUPS = GROUP_NAMES
export type ServiceGroup = Group

/**
 * §4.3: "resources and profiles may be individually allocated to a credential": the distance-matrix
 * resources and profiles the licence key may use (all when a list is absent). Others answer 403.
 */
export interface RoutingEntitlements {
  resources?: readonly string[]
  profiles?: readonly string[]
}

/** Which groups the service's credential may use; all when not said otherwise. */
export type Entitlements = Partial<Record<ServiceGroup, boolean>> & { routingAllowed?: RoutingEntitlements }

export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The token of an `Authorization: Bearer <token>` header; undefined when absent or another scheme. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')
  return match?.[1]
}

export type AuthOutcome = { ok: true } | { ok: false; status: 401 | 403; message: string }

/**
 * Spec §5: a missing or wrong credential is 401; a valid one that is not entitled to the group is 403.
 * The distance matrix (routing) carries the licence key as a path segment, every other group a bearer token.
 */
export function authorize(
  group: ServiceGroup,
  presented: string | undefined,
  secrets: { token: string; licenceKey: string },
  entitlements: Entitlements,
  scheme: 'bearer' | 'licence-key' = GROUPS[group].auth === 'bearer' ? 'bearer' : 'licence-key',
): AuthOutcome {
  const expected = scheme === 'licence-key' ? secrets.licenceKey : secrets.token
  const what = scheme === 'licence-key' ? 'licence key (path segment)' : 'bearer token (Authorization header)'
  if (!presented) return { ok: false, status: 401, message: `access denied: no ${what}` }
  if (!sameSecret(presented, expected))
    return { ok: false, status: 401, message: `access denied: wrong ${what}` }
  if (entitlements[group] === false) {
    return { ok: false, status: 403, message: `this credential is not entitled to the ${group} operations` }
  }
  return { ok: true }
}
