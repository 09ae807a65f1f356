import { z } from 'zod'
import { SECRET_STORE_KINDS } from '../secrets'

/** What "Test connection" can find wrong with a PostGIS workspace, as the local service classifies it. */
export const DATABASE_PROBLEMS = [
  'refused',
  'host-unknown',
  'timeout',
  'wrong-password',
  'no-password',
  'login-refused',
  'database-missing',
  'postgis-missing',
  'schema-missing',
  'no-permission',
  'tls',
  'unavailable',
  'not-a-postgis-profile',
  'cannot-test-here',
  'other',
] as const

export type DatabaseProblemName = (typeof DATABASE_PROBLEMS)[number]

/** "Test connection"'s answer: what was found, or the problem in plain words (never a password). */
export const testConnectionAnswerSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    profile: z.string(),
    database: z.string(),
    user: z.string(),
    postgisVersion: z.string(),
    /** The workspace's schemas, each found and usable (the first is where new datasets go). */
    schemas: z.array(z.string()),
    /** Datasets (tables and views with a geometry or geography column) in those schemas. */
    datasets: z.number().int().nonnegative(),
  }),
  z.object({
    ok: z.literal(false),
    profile: z.string(),
    problem: z.enum(DATABASE_PROBLEMS),
    message: z.string(),
  }),
])

export type TestConnectionAnswer = z.infer<typeof testConnectionAnswerSchema>

/** Whether a PostGIS workspace profile's password is in the store; never the value. */
export const databasePasswordStatusSchema = z.object({
  profile: z.string(),
  set: z.boolean(),
  store: z.enum(SECRET_STORE_KINDS),
  updatedAt: z.string().optional(),
  /** Why secrets are kept for this session only, or the keychain cannot be used now. */
  warning: z.string().optional(),
})

export type DatabasePasswordStatus = z.infer<typeof databasePasswordStatusSchema>
