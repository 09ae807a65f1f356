import { z } from 'zod'
import { fileRefSchema } from '../gis/loop'
import { op, paramDocs, type InterfaceTable } from '../operation'
import type { ContractArea } from '../area'
import {
  MATRIX_PROFILES,
  MATRIX_RESOURCES,
  matrixShapes,
  MAX_MATRIX_POSITIONS,
  predictiveShapes,
} from './matrix'

/** The routing area's operations of the interface (spec §4.3, §4.4); the licence key is a path segment. */
export const routingInterface = {
  'routing.matrix': {
    section: '4.3',
    summary: 'Distance and duration matrix between positions (lon,lat pairs or eLocs, ;-separated)',
    params: paramDocs(matrixShapes, ['resources', 'profile', 'geopositions']),
  },
  'routing.predictive': {
    section: '4.4',
    summary: 'Predictive ETA from the first to the last coordinate, through the ones between',
    params: paramDocs(predictiveShapes, ['coordinates']),
  },
} as const satisfies InterfaceTable

const position = z.string().min(1).max(64).describe('A position: "<longitude>,<latitude>" or an eLoc')

const snappedSchema = z.object({ lon: z.number(), lat: z.number(), distance: z.number() }).nullable()
const cells = z.array(z.array(z.number().nullable()))

/** A matrix as the app shows it: §2.3 cells plus where each position was placed (local service only). */
export const matrixRunSchema = z.object({
  code: z.string(),
  distances: cells,
  durations: cells,
  /** The road network the local service used (null from the cloud or when none covers the positions). */
  network: z.string().nullable(),
  /** Where each position was placed on the network; empty from the cloud. */
  snapped: z.array(snappedSchema),
  /** The request as sent (indexes resolved to their defaults). */
  sources: z.array(z.number().int()),
  destinations: z.array(z.number().int()),
  durationMs: z.number(),
})
export type MatrixRun = z.output<typeof matrixRunSchema>

export const matrixRunRequestSchema = z
  .object({
    resources: z.enum(MATRIX_RESOURCES),
    profile: z.enum(MATRIX_PROFILES),
    positions: z.array(position).min(2).max(MAX_MATRIX_POSITIONS),
    sources: z.array(z.number().int().min(0)).min(1).optional(),
    destinations: z.array(z.number().int().min(0)).min(1).optional(),
    rtype: z.union([z.literal(0), z.literal(1)]).optional(),
  })
  .strict()
export type MatrixRunRequest = z.input<typeof matrixRunRequestSchema>

export const predictiveRunSchema = z.object({
  /** One entry per departure asked for, in order. */
  results: z.array(
    z.object({
      departure: z.number(),
      code: z.string(),
      distance: z.number().nullable(),
      duration: z.number().nullable(),
    }),
  ),
  network: z.string().nullable(),
  /** Whether the speeds are the built-in model's (true), imported profiles (false) or unknown (the cloud). */
  model: z.boolean().nullable(),
})
export type PredictiveRun = z.output<typeof predictiveRunSchema>

export const networkInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  attribution: z.string(),
  source: z.string(),
  built: z.string(),
  timeZone: z.string(),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  counts: z.object({ nodes: z.number(), edges: z.number(), coords: z.number(), ways: z.number() }),
  bundled: z.boolean(),
  bytes: z.number(),
})
export type NetworkInfo = z.output<typeof networkInfoSchema>

export const speedModelInfoSchema = z.object({ name: z.string(), model: z.boolean() })

/** Largest extract the app imports through the window (bigger ones: `geo-analyst routing import`). */

export const networkImportRequestSchema = z
  .object({
    importId: z.string().min(1).max(64),
    /** The extract, offered for import by reference (a desktop grant or a browser-host upload). */
    file: fileRefSchema,
    name: z.string().max(120).optional(),
    timeZone: z.string().max(64).optional(),
  })
  .strict()

const empty = z.object({}).strict()

/** The routing area as the renderer calls it: matrices, predictive runs, and the workspace's road networks. */
export const routingOperations = {
  'routing.matrix': op(
    matrixRunRequestSchema,
    matrixRunSchema,
    'Distance matrix (§4.3) on the active profile, with the placed positions',
  ),
  'routing.predictive': op(
    z
      .object({
        coordinates: z.array(position).min(2).max(MAX_MATRIX_POSITIONS),
        departures: z.array(z.number().int().min(0)).min(1).max(48),
      })
      .strict(),
    predictiveRunSchema,
    'Predictive ETA (§4.4) for one or more departure times (a "when to leave" curve)',
  ),
  'routing.networks': op(
    empty,
    z.object({ networks: z.array(networkInfoSchema), speedModel: speedModelInfoSchema }),
    'Road networks of the local workspace and the bundled sample',
  ),
  'routing.importNetwork': op(
    networkImportRequestSchema,
    networkInfoSchema,
    'Import an OSM extract (.osm.pbf, .osm, .geojson) as a road network of the local workspace',
  ),
  'routing.cancelImport': op(
    z.object({ importId: z.string() }).strict(),
    z.object({ cancelled: z.boolean() }),
    'Cancel a running road network import',
  ),
  'routing.removeNetwork': op(
    z.object({ id: z.string().min(1).max(64) }).strict(),
    z.object({ removed: z.string() }),
    'Remove an imported road network',
  ),
} as const

export const routingEvents = {
  'routing.importProgress': z.object({
    importId: z.string(),
    phase: z.string(),
    fraction: z.number(),
  }),
} as const

/** The routing area's part of the contract, listed in `electron/contract/area-list.ts`. */
export const routingContract = {
  operations: routingOperations,
  interface: routingInterface,
  events: routingEvents,
} as const satisfies ContractArea
