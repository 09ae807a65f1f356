import { z } from 'zod'
import { GROUP_NAMES, GROUPS, ownCredentialOf, SHARED_TOKEN, type Group } from './groups'
import { profileNameSchema } from './settings'

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

export const credentialNameSchema = z.enum(CREDENTIAL_NAMES)

export const SECRET_STORE_KINDS = ['keychain', 'session-memory'] as const
export type SecretStoreKind = (typeof SECRET_STORE_KINDS)[number]

export const credentialStatusSchema = z.object({
  name: credentialNameSchema,
  set: z.boolean(),
  /** ISO time the value was last set from this app, when known. */
  updatedAt: z.string().optional(),
  /** True when the app itself provides the value (the built-in local service's credentials). */
  managed: z.boolean().optional(),
})

export type CredentialStatus = z.infer<typeof credentialStatusSchema>

export const secretsStatusSchema = z.object({
  profile: z.string(),
  store: z.enum(SECRET_STORE_KINDS),
  /**
   * Set when secrets are kept for this session only, or when the keychain cannot be used now (locked,
   * or without a keyring): what happened and what to do.
   */
  warning: z.string().optional(),
  credentials: z.array(credentialStatusSchema),
})

export type SecretsStatus = z.infer<typeof secretsStatusSchema>

/** A secret value: non-empty, single line, bounded. Never echoed back anywhere. */
export const secretValueSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(8192, 'must be at most 8192 characters')
  .refine((v) => !/[\r\n]/.test(v), 'must be a single line')

export const secretTargetSchema = z.object({
  profile: profileNameSchema.optional(),
  name: credentialNameSchema,
})
