import { z } from 'zod'
import { op } from '../operation'
import type { ContractArea } from '../area'
import { secretTargetSchema, secretValueSchema, secretsStatusSchema } from '../secrets'
import {
  baseUrlsSchema,
  caCertificateSchema,
  postgisFieldsSchema,
  preferencesSchema,
  profileNameSchema,
  settingsViewSchema,
} from '../settings'
import { databasePasswordStatusSchema, testConnectionAnswerSchema } from './postgis'

const empty = z.object({}).strict()

export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  host: z.enum(['electron', 'web', 'cli']),
  platform: z.string(),
  configDir: z.string(),
})

export type AppInfo = z.infer<typeof appInfoSchema>

/** The app's own operations, shared by every area: info, connection profiles, preferences, credentials. */
export const appOperations = {
  'app.info': op(empty, appInfoSchema, 'Name, version and host of the running app'),
  'settings.get': op(empty, settingsViewSchema, 'Profiles, the active profile and preferences'),
  'settings.chooseProfile': op(
    z.object({ name: profileNameSchema }).strict(),
    settingsViewSchema,
    'Make a profile the active one',
  ),
  'settings.saveProfile': op(
    z
      .object({
        name: profileNameSchema,
        urls: baseUrlsSchema,
        caCertificate: caCertificateSchema.optional(),
      })
      .strict(),
    settingsViewSchema,
    "Create or replace a remote profile (with the server's CA certificate when it has its own CA)",
  ),
  'settings.savePostgisProfile': op(
    z.object({ name: profileNameSchema, postgis: postgisFieldsSchema.strict() }).strict(),
    settingsViewSchema,
    'Create or replace a PostGIS workspace profile (its password is set apart, into the keychain)',
  ),
  'settings.deleteProfile': op(
    z.object({ name: profileNameSchema }).strict(),
    settingsViewSchema,
    'Delete a remote or PostGIS workspace profile and its credentials',
  ),
  'settings.testConnection': op(
    z.object({ name: profileNameSchema }).strict(),
    testConnectionAnswerSchema,
    "Connect with a PostGIS workspace profile's fields and keychain password: PostGIS' version, the schemas and the dataset count, or what is wrong",
  ),
  'settings.savePreferences': op(
    preferencesSchema.strict(),
    settingsViewSchema,
    'Save app preferences such as the basemap',
  ),
  'secrets.status': op(
    z.object({ profile: profileNameSchema.optional() }).strict(),
    secretsStatusSchema,
    'Which credentials are set for a profile (never their values)',
  ),
  'secrets.set': op(
    secretTargetSchema.extend({ value: secretValueSchema }).strict(),
    secretsStatusSchema,
    'Set or replace a credential',
  ),
  'secrets.clear': op(secretTargetSchema.strict(), secretsStatusSchema, 'Remove a credential'),
  'secrets.databasePassword': op(
    z.object({ profile: profileNameSchema }).strict(),
    databasePasswordStatusSchema,
    "Whether a PostGIS workspace profile's password is set (never its value)",
  ),
  'secrets.setDatabasePassword': op(
    z.object({ profile: profileNameSchema, value: secretValueSchema }).strict(),
    databasePasswordStatusSchema,
    "Set or replace a PostGIS workspace profile's password in the keychain",
  ),
  'secrets.clearDatabasePassword': op(
    z.object({ profile: profileNameSchema }).strict(),
    databasePasswordStatusSchema,
    "Remove a PostGIS workspace profile's password from the keychain",
  ),
} as const

/** Events of the app's own state. */
export const appEvents = {
  'settings.changed': settingsViewSchema,
  'secrets.changed': secretsStatusSchema,
} as const

/** The app area's part of the contract, listed in `electron/contract/area-list.ts`. */
export const appContract = {
  operations: appOperations,
  interface: {},
  events: appEvents,
} as const satisfies ContractArea
