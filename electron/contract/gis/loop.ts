import { z } from 'zod'
import { FAILURE_CLASSES } from '../failure'

/**
 * Schemas of the analyst's loop as the renderer sees it: datasets, the join run, drawings, run history
 * and export. The wire forms of the interface itself live in `gis/`; these are what crosses the
 * renderer boundary.
 */

/** A GeoJSON FeatureCollection crossing the boundary; the deep RFC 7946 checks are `gis/geojson.ts`. */
export const featureCollectionSchema = z.object({
  type: z.literal('FeatureCollection'),
  features: z.array(
    z.looseObject({
      type: z.literal('Feature'),
      id: z.union([z.string(), z.number()]).optional(),
      properties: z.record(z.string(), z.unknown()).nullable(),
      geometry: z.looseObject({ type: z.string() }).nullable(),
    }),
  ),
})

export const fieldSchema = z.object({ name: z.string(), type: z.string() })

/** A dataset of the active profile's list (§2.5), with what the service tells beyond it. */
export const datasetSchema = z.object({
  layername: z.string(),
  geometrytype: z.string().optional(),
  source: z.string().optional(),
  fields: z.array(fieldSchema).optional(),
  featureCount: z.number().optional(),
  extent: z.tuple([z.number(), z.number(), z.number(), z.number()]).optional(),
  /** True when the dataset lives in the built-in local workspace and can be shown or exported. */
  local: z.boolean(),
  /**
   * True when the built-in service's workspace is a database that cuts this dataset into vector tiles
   * (`gis.tile`): the map draws it tile by tile instead of loading its features.
   */
  tiles: z.boolean().optional(),
  /** The team server's user who saved it (the list's `owner` extension field), when the service records one. */
  owner: z.string().optional(),
})

export type Dataset = z.infer<typeof datasetSchema>

/** The join's parameters as the spec names them; values as typed in the form. */
export const joinParamsInputSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))

export const joinRunRequestSchema = z
  .object({
    /** Chosen by the renderer so it can cancel and match progress events. */
    runId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    params: joinParamsInputSchema,
    body: featureCollectionSchema.optional(),
  })
  .strict()

/** Where each result property came from, when the service says (the local service does). */
export const joinColumnSchema = z.object({
  prop: z.string(),
  table: z.enum(['source', 'ref']),
  name: z.string(),
})

/** A row of a join result: its members prop1…propN, each a string. */
export type ResultRow = Record<string, string>

export const joinRunSchema = z.object({
  runId: z.string(),
  /**
   * The rows as the provider sent them: the UTF-8 JSON of an array of objects, checked by the core and read
   * in place with `RowTable.read` (a million rows are not made into objects to cross a process boundary).
   */
  rowsJson: z.custom<Uint8Array>((v) => v instanceof Uint8Array, 'rowsJson must be bytes'),
  rowCount: z.number(),
  columns: z.array(joinColumnSchema).optional(),
  /** 206: the provider cut the result. */
  partial: z.boolean(),
  savedDataset: z.string().optional(),
  /** A saving join whose answer was lost, found afterwards by listing the datasets. */
  reconciled: z.enum(['found', 'absent']).optional(),
  status: z.number().optional(),
  durationMs: z.number(),
})

export type JoinRun = z.infer<typeof joinRunSchema>

/** The exact request a join would send, for the read-only preview; credentials redacted. */
export const requestPreviewSchema = z.object({
  method: z.string(),
  url: z.string(),
  query: z.array(z.tuple([z.string(), z.string()])),
  headers: z.array(z.tuple([z.string(), z.string()])),
  body: z.string().optional(),
  curl: z.string(),
  cli: z.string(),
})

export type RequestPreview = z.infer<typeof requestPreviewSchema>

/** Features of a local dataset for the map. */
export const datasetFeaturesSchema = z.object({
  name: z.string(),
  /** GeoJSON FeatureCollection text (see docs/decisions on the binary form). */
  geojson: z.string(),
  featureCount: z.number(),
})

/**
 * An opaque reference to a file the host holds for an import, never a path: in the desktop app a grant
 * for a file the user chose or dropped, in the browser host an upload (`POST /api/upload`). Used once.
 */
export const fileRefSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16,64}$/, 'must be the reference of a file chosen, dropped or uploaded for import')

/** What a host answers for a file offered for import. */
export const importFileRefSchema = z.object({
  file: fileRefSchema,
  /** The file's own name (no folder): it tells the format and the default dataset name. */
  fileName: z.string(),
  size: z.number().int().nonnegative(),
})

export type ImportFileRef = z.infer<typeof importFileRefSchema>

export const importRequestSchema = z
  .object({
    file: fileRefSchema,
    /** The dataset's name; from the file name when absent. */
    name: z.string().optional(),
    /** Leave out features that fail the RFC 7946 checks (counted in the answer) instead of refusing the file. */
    skipInvalid: z.boolean().optional(),
  })
  .strict()

/** What an import answers: the new dataset, and how many invalid features were left out. */
export const importedDatasetSchema = datasetSchema.extend({ skippedInvalid: z.number().int().optional() })

export const drawingsSchema = z.object({
  collection: featureCollectionSchema,
  savedAt: z.string().optional(),
  /** Set when the saved drawings could not be read: what happened, where the damaged file went, what was restored. */
  notice: z.string().optional(),
})

export const runSummarySchema = z.object({
  id: z.string(),
  time: z.string(),
  profile: z.string(),
  params: joinParamsInputSchema,
  body: featureCollectionSchema.optional(),
  status: z.number().optional(),
  failureClass: z.enum(FAILURE_CLASSES).optional(),
  message: z.string().optional(),
  durationMs: z.number(),
  rowCount: z.number().optional(),
  /** Whether the rows were kept and can be reopened. */
  hasResult: z.boolean(),
})

export type RunSummary = z.infer<typeof runSummarySchema>

export const jobProgressSchema = z.object({
  runId: z.string(),
  phase: z.enum(['queued', 'sending', 'waiting', 'receiving', 'done', 'cancelled', 'failed']),
  elapsedMs: z.number(),
  bytes: z.number().optional(),
})
