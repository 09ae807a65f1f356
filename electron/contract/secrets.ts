import { z } from 'zod'
import { profileNameSchema } from './settings'

/**
 * Credentials kept per profile. One bearer token may serve every group (`token`); a group-specific token
 * overrides it for that group. The distance-matrix licence key is a path segment (spec §5).
 */
export const CREDENTIAL_NAMES = [
  'token',
  'token.places',
  'token.gis',
  'token.telematics',
  'token.vision',
  'licence-key',
] as const

export type CredentialName = (typeof CREDENTIAL_NAMES)[number]

export const CREDENTIAL_LABELS: Readonly<Record<CredentialName, string>> = {
  token: 'Bearer token (all groups)',
  'token.places': 'Bearer token: places (standardize, autosuggest)',
  'token.gis': 'Bearer token: spatial analytics',
  'token.telematics': 'Bearer token: telematics',
  'token.vision': 'Bearer token: image AI',
  'licence-key': 'Distance-matrix licence key',
}

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
