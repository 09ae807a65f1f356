import { fail, ok, type Result } from '../../contract'
import type { RawParams } from '../../contract/common/issues'
import { issuesFailure } from '../../contract/common/issues'
import {
  autosuggestResponseSchema,
  validateAutosuggest,
  AUTOSUGGEST_FLAGS,
  type AutosuggestResponse,
} from '../../contract/places/autosuggest'
import {
  standardizedAddressSchema,
  validateStandardize,
  type StandardizeResult,
} from '../../contract/places/standardize'
import { execute, parseWith, type ClientContext, type Query } from './execute'
import type { CallOptions, CallTable } from './call-input'
import type { placesInterface } from '../../contract/places/operations'

/** §4.1 and §4.2: address standardization and autosuggest, bearer token of the places group. */
export function placesClient(ctx: ClientContext) {
  return {
    /** GET {atlas_url}/api/places/woodpecker?address=…&bias=… ; 204 means not found. */
    async standardize(params: RawParams, options: CallOptions = {}): Promise<Result<StandardizeResult>> {
      const checked = validateStandardize(params)
      if (!checked.ok) return issuesFailure('places.standardize', checked.issues)
      const p = checked.value
      const query: Query = [['address', p.address]]
      if (p.bias !== undefined) query.push(['bias', String(p.bias)])
      return execute<StandardizeResult>(ctx, {
        operation: 'places.standardize',
        group: 'places',
        base: 'atlas_url',
        method: 'GET',
        path: () => ['api', 'places', 'woodpecker'],
        query,
        replayable: true,
        signal: options.signal,
        interpret: (res) => {
          if (res.status === 204) return ok({ found: false })
          const parsed = parseWith('places.standardize', res, standardizedAddressSchema)
          return parsed.ok ? ok({ found: true, address: parsed.value }) : parsed
        },
      })
    },

    /** GET {atlas_url}/api/places/search/json ; flags sent as bare keys; 204 is an empty result. */
    async autosuggest(params: RawParams, options: CallOptions = {}): Promise<Result<AutosuggestResponse>> {
      const checked = validateAutosuggest(params)
      if (!checked.ok) return issuesFailure('places.autosuggest', checked.issues)
      const p = checked.value
      const query: Query = [['query', p.query]]
      for (const name of ['location', 'region', 'pod', 'filter'] as const) {
        const v = p[name]
        if (v !== undefined) query.push([name, v])
      }
      for (const name of AUTOSUGGEST_FLAGS) if (p[name] === true) query.push([name, null])
      return execute<AutosuggestResponse>(ctx, {
        operation: 'places.autosuggest',
        group: 'places',
        base: 'atlas_url',
        method: 'GET',
        path: () => ['api', 'places', 'search', 'json'],
        query,
        replayable: true,
        signal: options.signal,
        interpret: (res) => {
          if (res.status === 204)
            return ok({ suggestedLocations: [], userAddedLocation: [], suggestedSearches: [], lang: 'en' })
          if (res.status !== 200)
            return fail('unclassified', `places.autosuggest: unexpected HTTP ${res.status}`, {
              status: res.status,
            })
          return parseWith('places.autosuggest', res, autosuggestResponseSchema)
        },
      })
    },
  }
}

export type PlacesClient = ReturnType<typeof placesClient>

/** The area's interface operations for callers such as `geo-analyst call`. */
export const placesCalls = {
  'places.standardize': (client, { params, signal }) => client.places.standardize(params, { signal }),
  'places.autosuggest': (client, { params, signal }) => client.places.autosuggest(params, { signal }),
} satisfies CallTable<typeof placesInterface, { places: PlacesClient }>

/** The places group's part of the client, listed in `area-list.ts`: its client and its calls. */
export const placesClientArea = { client: placesClient, calls: placesCalls }
