import { z } from 'zod'
import { op, paramDocs, type InterfaceTable } from '../operation'
import type { ContractArea } from '../area'
import { joinParamShapes, REQUIRED_JOIN_PARAMS } from './join-params'
import {
  datasetFeaturesSchema,
  datasetSchema,
  drawingsSchema,
  featureCollectionSchema,
  importedDatasetSchema,
  importRequestSchema,
  joinParamsInputSchema,
  joinRunRequestSchema,
  joinRunSchema,
  jobProgressSchema,
  requestPreviewSchema,
  runSummarySchema,
} from './loop'

const empty = z.object({}).strict()

/** The spatial-analytics area as the renderer calls it: the analyst's loop. */
export const gisOperations = {
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
  'gis.tile': op(
    z
      .object({
        dataset: z.string().min(1),
        z: z.number().int().min(0).max(24),
        x: z.number().int().min(0),
        y: z.number().int().min(0),
      })
      .strict(),
    z.object({
      /** The Mapbox vector tile; empty when no feature is in it. */
      bytes: z.custom<Uint8Array>((v) => v instanceof Uint8Array, 'bytes must be bytes'),
      /** How the service cut it: every feature, thinned by the pixel grid, or from an overview. */
      thinning: z.string().optional(),
    }),
    'One vector tile of a database dataset of the built-in workspace (the /tiles local extension)',
  ),
  'datasets.import': op(importRequestSchema, importedDatasetSchema, 'Import a file into the local workspace'),
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
} as const

export const gisEvents = {
  'job.progress': jobProgressSchema,
  'datasets.changed': z.object({ reason: z.string() }),
} as const

/** The area's operations of the interface (spec §4.5, §4.6). */
export const gisInterface = {
  'gis.layers': { section: '4.6', summary: 'List the datasets of the workspace', params: [] },
  'gis.join': {
    section: '4.5',
    summary: 'Spatial or non-spatial join; a GeoJSON body with userGeom=true',
    params: paramDocs(joinParamShapes, REQUIRED_JOIN_PARAMS, [
      'datasetRef',
      'refProperty',
      'distance',
      'comparisonFunction',
      'comparisonOperator',
      'comparisonValue',
      'newDatasetNme',
    ]),
    body: 'json',
  },
} as const satisfies InterfaceTable

/** The gis area's part of the contract, listed in `electron/contract/area-list.ts`. */
export const gisContract = {
  operations: gisOperations,
  interface: gisInterface,
  events: gisEvents,
} as const satisfies ContractArea
