import { fail, ok, type Result } from '../../contract'
import { issuesFailure, type RawParams } from '../../contract/common/issues'
import {
  matrixResponseSchema,
  validateMatrix,
  validatePredictive,
  type MatrixResponse,
} from '../../contract/routing/matrix'
import type { HttpResponse } from '../http/transport'
import { execute, parseWith, type ClientContext, type Query } from './execute'
import type { CallOptions, CallTable } from './call-input'
import type { routingInterface } from '../../contract/routing/operations'

/** results.code values that describe the request, not the route: a validation problem. */
const INVALID_CODES = new Set([
  'InvalidUrl',
  'InvalidService',
  'InvalidVersion',
  'InvalidOptions',
  'InvalidQuery',
])

function readMatrix(operation: string, res: HttpResponse): Result<MatrixResponse> {
  // 204 on the matrix is the provider's "database connection error" (§4.3).
  if (res.status === 204) {
    return fail(
      'provider-unavailable',
      `${operation}: the provider reported a database connection error (HTTP 204)`,
      { status: 204 },
    )
  }
  const parsed = parseWith(operation, res, matrixResponseSchema)
  if (!parsed.ok) return parsed
  const code = parsed.value.results.code
  if (INVALID_CODES.has(code)) {
    return fail('validation', `${operation}: the provider rejected the request (results.code ${code})`, {
      status: res.status,
      code,
    })
  }
  return ok(parsed.value)
}

/** §4.3 and §4.4: the licence key is the path segment after {advancedmaps_url}; no bearer header. */
export function routingClient(ctx: ClientContext) {
  return {
    async matrix(params: RawParams, options: CallOptions = {}): Promise<Result<MatrixResponse>> {
      const checked = validateMatrix(params)
      if (!checked.ok) return issuesFailure('routing.matrix', checked.issues)
      const p = checked.value
      const query: Query = []
      for (const name of ['sources', 'destinations', 'rtype', 'region'] as const) {
        const v = p[name]
        if (v !== undefined) query.push([name, String(v)])
      }
      return execute(ctx, {
        operation: 'routing.matrix',
        group: 'routing',
        base: 'advancedmaps_url',
        method: 'GET',
        path: (key) => [key, p.resources, p.profile, p.geopositions.replace(/\s+/g, '')],
        query,
        replayable: true,
        signal: options.signal,
        interpret: (res) => readMatrix('routing.matrix', res),
      })
    },

    async predictive(params: RawParams, options: CallOptions = {}): Promise<Result<MatrixResponse>> {
      const checked = validatePredictive(params)
      if (!checked.ok) return issuesFailure('routing.predictive', checked.issues)
      const p = checked.value
      const query: Query = p.dep_time !== undefined ? [['dep_time', String(p.dep_time)]] : []
      return execute(ctx, {
        operation: 'routing.predictive',
        group: 'routing',
        base: 'advancedmaps_url',
        method: 'GET',
        path: (key) => [key, 'distance_matrix_predictive', 'driving', p.coordinates.replace(/\s+/g, '')],
        query,
        replayable: true,
        signal: options.signal,
        interpret: (res) => readMatrix('routing.predictive', res),
      })
    },
  }
}

export type RoutingClient = ReturnType<typeof routingClient>

/** The area's interface operations for callers such as `geo-analyst call`. */
export const routingCalls = {
  'routing.matrix': (client, { params, signal }) => client.routing.matrix(params, { signal }),
  'routing.predictive': (client, { params, signal }) => client.routing.predictive(params, { signal }),
} satisfies CallTable<typeof routingInterface, { routing: RoutingClient }>

/** The routing group's part of the client, listed in `area-list.ts`: its client and its calls. */
export const routingClientArea = { client: routingClient, calls: routingCalls }
