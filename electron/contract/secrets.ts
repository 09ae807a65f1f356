import { z } from 'zod'
import { CREDENTIAL_NAMES } from './credential-names'

export * from './credential-names'
import { profileNameSchema } from './settings'

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
