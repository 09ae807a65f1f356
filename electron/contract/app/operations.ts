import { z } from 'zod'
import { op } from '../operation'
import type { ContractArea } from '../area'
import { secretTargetSchema, secretValueSchema, secretsStatusSchema } from '../secrets'
import { baseUrlsSchema, preferencesSchema, profileNameSchema, settingsViewSchema } from '../settings'

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
    z.object({ name: profileNameSchema, urls: baseUrlsSchema }).strict(),
    settingsViewSchema,
    'Create or replace a remote profile',
  ),
  'settings.deleteProfile': op(
    z.object({ name: profileNameSchema }).strict(),
    settingsViewSchema,
    'Delete a remote profile and its credentials',
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
