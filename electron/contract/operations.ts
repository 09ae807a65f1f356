import { z } from 'zod'
import {
  datasetFeaturesSchema,
  datasetSchema,
  drawingsSchema,
  exportSaveRequestSchema,
  featureCollectionSchema,
  importRequestSchema,
  joinParamsInputSchema,
  joinRunRequestSchema,
  joinRunSchema,
  requestPreviewSchema,
  runSummarySchema,
} from './loop'
import { secretTargetSchema, secretValueSchema, secretsStatusSchema } from './secrets'
import { baseUrlsSchema, preferencesSchema, profileNameSchema, settingsViewSchema } from './settings'

/** One operation the renderer may call: its request and response schemas. */
export interface OperationSpec<Req extends z.ZodType, Res extends z.ZodType> {
  readonly request: Req
  readonly response: Res
  readonly summary: string
}

function op<Req extends z.ZodType, Res extends z.ZodType>(
  request: Req,
  response: Res,
  summary: string,
): OperationSpec<Req, Res> {
  return { request, response, summary }
}

const empty = z.object({}).strict()

export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  host: z.enum(['electron', 'web', 'cli']),
  platform: z.string(),
  configDir: z.string(),
})

export type AppInfo = z.infer<typeof appInfoSchema>

/**
 * The single table of operations. Preload, every host and the renderer's bridge are built from it;
 * adding an operation is one entry here plus its handler in `electron/core/handlers.ts`.
 */
export const operations = {
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
  'gis.layers': op(
    empty,
    z.object({ datasets: z.array(datasetSchema) }),
    'Datasets of the active profile (§4.6)',
  ),
  'gis.previewJoin': op(
    z.object({ params: joinParamsInputSchema, body: featureCollectionSchema.optional() }).strict(),
    requestPreviewSchema,
    'The exact join request (§4.5) with credentials redacted, as curl and as CLI',
  ),
  'gis.join': op(joinRunRequestSchema, joinRunSchema, 'Run a join (§4.5) on the active profile'),
  'gis.cancelJoin': op(
    z.object({ runId: z.string() }).strict(),
    z.object({ cancelled: z.boolean() }),
    'Cancel a running join',
  ),
  'datasets.features': op(
    z.object({ name: z.string().min(1) }).strict(),
    datasetFeaturesSchema,
    'Features of a local dataset, to show on the map',
  ),
  'datasets.import': op(
    importRequestSchema,
    datasetSchema,
    'Import a file the user chose, dropped or uploaded into the local workspace',
  ),
  'drawings.load': op(empty, drawingsSchema, 'The saved drawings'),
  'drawings.save': op(
    z.object({ collection: featureCollectionSchema }).strict(),
    z.object({ savedAt: z.string() }),
    'Save the drawings (atomically)',
  ),
  'runs.list': op(empty, z.object({ runs: z.array(runSummarySchema) }), 'Join runs, newest first'),
  'runs.get': op(
    z.object({ id: z.string() }).strict(),
    z.object({ run: runSummarySchema, result: joinRunSchema.optional() }),
    'One run with its kept result',
  ),
  'export.save': op(
    exportSaveRequestSchema,
    z.object({ path: z.string().nullable() }),
    'Save an export through the desktop save dialog (null when the user cancels)',
  ),
} as const

export type Operations = typeof operations
export type OperationName = keyof Operations
export type OperationRequest<K extends OperationName> = z.input<Operations[K]['request']>
export type OperationResponse<K extends OperationName> = z.output<Operations[K]['response']>

export const OPERATION_NAMES = Object.keys(operations) as OperationName[]

export function isOperationName(name: unknown): name is OperationName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(operations, name)
}
