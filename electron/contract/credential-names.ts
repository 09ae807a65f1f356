import { GROUP_NAMES, GROUPS, ownCredentialOf, SHARED_TOKEN, type Group } from './groups'

/**
 * Credentials kept per profile. One bearer token may serve every group (`token`); a group-specific token
 * overrides it for that group. The distance-matrix licence key is a path segment (spec §5).
 */
export type CredentialName =
  typeof SHARED_TOKEN | { [G in Group]: ReturnType<typeof ownCredentialOf<G>> }[Group]

const bearer = GROUP_NAMES.filter((g) => GROUPS[g].auth === 'bearer')
const keyed = GROUP_NAMES.filter((g) => GROUPS[g].auth !== 'bearer')

/** Every credential, from the groups' table: the shared token, the bearer groups' own, then the licence key. */
export const CREDENTIAL_NAMES = [
  SHARED_TOKEN,
  ...bearer.map(ownCredentialOf),
  ...keyed.map(ownCredentialOf),
] as readonly CredentialName[] as readonly [CredentialName, ...CredentialName[]]

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

export const CREDENTIAL_LABELS = Object.fromEntries([
  [SHARED_TOKEN, 'Bearer token (all groups)'],
  ...bearer.map((g) => [ownCredentialOf(g), `Bearer token: ${GROUPS[g].title}`]),
  ...keyed.map((g) => [ownCredentialOf(g), `${capitalized(GROUPS[g].title).replace(' ', '-')} licence key`]),
]) as Readonly<Record<CredentialName, string>>

/** Whether `value` names a credential (`credentialNameSchema` without the schema library). */
export function isCredentialName(value: unknown): value is CredentialName {
  return (CREDENTIAL_NAMES as readonly unknown[]).includes(value)
}
