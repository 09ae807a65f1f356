import { fail, ok, type Result } from '../../contract'
import { issuesFailure, type RawParams } from '../../contract/common/issues'
import { EMPTY_FEATURE_COLLECTION } from '../../contract/gis/geojson'
import { joinQueryValues, validateJoinRequest, type JoinRequest } from '../../contract/gis/join-params'
import type { HttpResponse } from '../http/transport'
import { joinResultSchema, parseLayerList, type JoinOutcome, type LayerList } from '../../contract/gis/layers'
import {
  buildRequest,
  execute,
  parseJson,
  parseWith,
  providerHint,
  type BuiltRequest,
  type CallSpec,
  type ClientContext,
} from './execute'
import type { CallOptions } from './places'
import { noParams, type CallTable } from './call-input'
import type { gisInterface } from '../../contract/gis/operations'

/** §4.5 join and §4.6 dataset list; bearer token of the spatial-analytics group. */
/** The join's call, built once for sending (`join`) and for showing (`describeJoin`). */
function joinSpec(ctx: ClientContext, request: JoinRequest, signal?: AbortSignal): CallSpec<JoinOutcome> {
  const p = request.params
  const saves = p.saveAsNewDataset === true
  return {
    operation: 'gis.join',
    group: 'gis',
    base: 'mgis_url',
    method: 'POST',
    path: () => ['query_apply', 'join'],
    query: joinQueryValues(p),
    body: { kind: 'json', value: request.body ?? EMPTY_FEATURE_COLLECTION },
    replayable: !saves,
    fingerprint: saves,
    signal,
    interpret: (res) => {
      const parsed = parseWith('gis.join', res, joinResultSchema)
      return parsed.ok ? ok({ response: parsed.value, partial: res.status === 206 }) : parsed
    },
    onFailure: (f) => {
      const status = f.response?.status
      const field = providerField(f.response)
      const at = field ? { field } : {}
      if (status === 409) {
        return fail(
          'conflict',
          `${f.error.message}: conflicting parameters${saves ? ` or a dataset named ${p.newDatasetNme} already exists` : ''}; nothing was resent${providerHint(f.response, ctx.redactor)}`,
          { status, ...at },
        )
      }
      if (status === 404)
        return fail(
          'not-found',
          `${f.error.message}: no data found${providerHint(f.response, ctx.redactor)}`,
          {
            status,
            ...at,
          },
        )
      if (field && (status === 400 || status === 422)) {
        return fail(f.error.failureClass, `${f.error.message}${providerHint(f.response, ctx.redactor)}`, {
          status,
          field,
        })
      }
      return undefined
    },
  }
}

/** The request field an error answer names (`{"field": "newDatasetNme", ...}`), when it names one. */
function providerField(response: HttpResponse | undefined): string | undefined {
  if (!response || response.body.byteLength === 0 || response.body.byteLength > 65536) return undefined
  try {
    const parsed = JSON.parse(new TextDecoder().decode(response.body)) as { field?: unknown }
    return typeof parsed.field === 'string' && /^[\w.]{1,128}$/.test(parsed.field) ? parsed.field : undefined
  } catch {
    return undefined
  }
}

export function gisClient(ctx: ClientContext) {
  async function layers(options: CallOptions = {}): Promise<Result<LayerList>> {
    return execute(ctx, {
      operation: 'gis.layers',
      group: 'gis',
      base: 'mgis_v2_url',
      method: 'GET',
      path: () => ['getLayersList'],
      replayable: true,
      signal: options.signal,
      interpret: (res) => {
        const json = parseJson('gis.layers', res)
        if (!json.ok) return json
        const parsed = parseLayerList(json.value)
        return parsed.ok
          ? ok(parsed.value)
          : fail(
              'unclassified',
              `gis.layers: the provider's answer has an unexpected shape: ${parsed.reason}`,
              { status: res.status },
            )
      },
    })
  }

  /**
   * POST {mgis_url}/query_apply/join with the spec's query parameters and a GeoJSON body. A join that
   * saves a dataset is never resent after an ambiguous failure: the dataset list is read and the new
   * name looked for; found → success (reconciled), otherwise the outcome is reported unknown.
   */
  async function join(
    params: RawParams,
    body?: unknown,
    options: CallOptions = {},
  ): Promise<Result<JoinOutcome>> {
    const checked = validateJoinRequest(params, body)
    if (!checked.ok) return issuesFailure('gis.join', checked.issues)
    const p = checked.value.params
    const saves = p.saveAsNewDataset === true
    const { fingerprint: _fingerprint, ...result } = await execute<JoinOutcome>(
      ctx,
      joinSpec(ctx, checked.value, options.signal),
    )
    if (result.ok || !saves || result.error.failureClass !== 'unknown-outcome')
      return result as Result<JoinOutcome>
    const listed = await layers(options)
    if (!listed.ok) {
      return fail(
        'unknown-outcome',
        `${result.error.message}; the dataset list could not be read to check for ${p.newDatasetNme} (${listed.error.message})`,
        {
          code: result.error.code,
        },
      )
    }
    if (listed.value.layers.some((l) => l.layername === p.newDatasetNme)) {
      return ok({ response: { code: 'reconciled', result: [] }, partial: false, reconciled: 'found' })
    }
    return fail(
      'unknown-outcome',
      `${result.error.message}; ${p.newDatasetNme} is not in the dataset list yet — it was probably not created; list the datasets again before re-running`,
      { code: result.error.code },
    )
  }

  /**
   * The exact request `join` would send for these parameters — built by the same code — without sending
   * it: method, full URL with the query, headers (the real Authorization value; redact before showing)
   * and the body text. Invalid parameters fail as `join` does, naming the field; a profile without
   * {mgis_url} is a local-configuration failure. A missing token shows as a placeholder.
   */
  async function describeJoin(params: RawParams, body?: unknown): Promise<Result<BuiltRequest>> {
    const checked = validateJoinRequest(params, body)
    if (!checked.ok) return issuesFailure('gis.join', checked.issues)
    const spec = joinSpec(ctx, checked.value)
    const base = (await ctx.urls())?.[spec.base]
    if (!base) {
      return fail(
        'local-configuration',
        `gis.join: the active profile has no ${spec.base} (the {${spec.base}} base address); set it in the profile`,
        { field: spec.base },
      )
    }
    const credential = (await ctx.credential(spec.group)) ?? 'TOKEN'
    return ok(buildRequest(spec as CallSpec<unknown>, base, credential))
  }

  return { layers, join, describeJoin }
}

export type GisClient = ReturnType<typeof gisClient>

/** The area's interface operations for callers such as `geo-analyst call`. */
export const gisCalls = {
  'gis.layers': async (client, input) => {
    noParams('gis.layers', input)
    return client.gis.layers({ signal: input.signal })
  },
  'gis.join': (client, { params, body, signal }) => client.gis.join(params, body, { signal }),
} satisfies CallTable<typeof gisInterface>
