import { z } from 'zod'
import { datasetSchema } from '../gis/loop'
import { op, paramDocs, type InterfaceTable } from '../operation'
import type { ContractArea } from '../area'
import { autosuggestResponseSchema, autosuggestShapes, POD_VALUES } from './autosuggest'
import { savedPlaceSchema, USER_ELOC } from './my-places'
import { MAX_ADDRESS_LENGTH, standardizedAddressSchema, standardizeShapes } from './standardize'

const empty = z.object({}).strict()

/** Rows sent for batch geocoding at most (a CSV or a dataset's features). */
export const MAX_GEOCODE_ROWS = 100_000

/** The address search's request as the renderer sends it (the spec's parameters, flags as booleans). */
export const autosuggestRequestSchema = z
  .object({
    query: z.string().min(1).max(512),
    location: z.string().optional(),
    region: z.string().optional(),
    pod: z.enum(POD_VALUES).optional(),
    filter: z.string().optional(),
    tokenizeAddress: z.boolean().optional(),
    bridge: z.boolean().optional(),
    hyperLocal: z.boolean().optional(),
  })
  .strict()

/** Where a geocoded row was placed: the most specific level matched, or none. */
export const MATCH_LEVELS = [
  'sublocality',
  'locality',
  'pincode',
  'city',
  'district',
  'state',
  'none',
] as const
export type MatchLevel = (typeof MATCH_LEVELS)[number]

export const geocodeRequestSchema = z
  .object({
    /** Chosen by the caller: progress events and cancel name it. */
    jobId: z.string().min(1).max(100),
    /** Rows of a CSV (header and cells), or a dataset of the local workspace. */
    source: z.discriminatedUnion('kind', [
      z
        .object({
          kind: z.literal('rows'),
          fileName: z.string().max(255).optional(),
          fields: z.array(z.string()).min(1).max(500),
          rows: z.array(z.array(z.string())).max(MAX_GEOCODE_ROWS),
        })
        .strict(),
      z.object({ kind: z.literal('dataset'), name: z.string().min(1) }).strict(),
    ]),
    /** The field holding the address. */
    column: z.string().min(1),
    /** Save the result as this new dataset of the local workspace. */
    saveAs: z.string().min(1).optional(),
    /** Return the result as GeoJSON text too (the CLI writes it to a file). */
    returnGeojson: z.boolean().optional(),
  })
  .strict()
export type GeocodeRequest = z.infer<typeof geocodeRequestSchema>

export const geocodeSummarySchema = z.object({
  jobId: z.string(),
  total: z.number(),
  matched: z.number(),
  byLevel: z.record(z.string(), z.number()),
  cancelled: z.boolean(),
  dataset: datasetSchema.optional(),
  geojson: z.string().optional(),
})
export type GeocodeSummary = z.infer<typeof geocodeSummarySchema>

export const geocodeProgressSchema = z.object({
  jobId: z.string(),
  done: z.number(),
  total: z.number(),
  matched: z.number(),
  phase: z.enum(['geocoding', 'saving', 'done', 'cancelled', 'failed']),
})

/** The places area as the renderer calls it: search, standardization, batch geocoding, My places. */
export const placesOperations = {
  'places.standardize': op(
    z
      .object({
        address: z.string().min(1).max(MAX_ADDRESS_LENGTH),
        bias: z.number().positive().optional(),
      })
      .strict(),
    z.object({ found: z.boolean(), address: standardizedAddressSchema.optional() }),
    'Address standardization (§4.1) on the active profile',
  ),
  'places.autosuggest': op(
    autosuggestRequestSchema,
    autosuggestResponseSchema,
    'Place autosuggest (§4.2) on the active profile',
  ),
  'places.geocode': op(
    geocodeRequestSchema,
    geocodeSummarySchema,
    'Geocode a column of addresses into a point dataset with standardized and match-quality columns',
  ),
  'places.cancelGeocode': op(
    z.object({ jobId: z.string() }).strict(),
    z.object({ cancelled: z.boolean() }),
    'Cancel a running batch geocoding',
  ),
  'places.listSaved': op(
    empty,
    z.object({ places: z.array(savedPlaceSchema), notice: z.string().optional() }),
    'My places: the places the analyst saved (built-in local service)',
  ),
  'places.savePlace': op(
    z
      .object({
        placeName: z.string().min(1).max(200),
        latitude: z.number().min(-90).max(90),
        longitude: z.number().min(-180).max(180),
        placeAddress: z.string().max(500).optional(),
        type: z.string().max(32).optional(),
      })
      .strict(),
    savedPlaceSchema,
    'Save a place to My places',
  ),
  'places.deleteSaved': op(
    z.object({ eLoc: z.string().regex(USER_ELOC, 'must be an eight-character eLoc') }).strict(),
    savedPlaceSchema,
    'Remove a place from My places',
  ),
} as const

export const placesEvents = {
  'places.geocodeProgress': geocodeProgressSchema,
} as const

/** The places area's operations of the interface (spec §4.1, §4.2). */
export const placesInterface = {
  'places.standardize': {
    section: '4.1',
    summary: 'Address standardization: the tagged parts of an address',
    params: paramDocs(standardizeShapes, ['address']),
  },
  'places.autosuggest': {
    section: '4.2',
    summary: 'Place autosuggest (flags tokenizeAddress, bridge, hyperLocal are valueless: pass name=true)',
    params: paramDocs(autosuggestShapes, ['query']),
  },
} as const satisfies InterfaceTable

/** The places area's part of the contract, listed in `electron/contract/area-list.ts`. */
export const placesContract = {
  operations: placesOperations,
  interface: placesInterface,
  events: placesEvents,
} as const satisfies ContractArea
