import { fail, ok, type Result } from '../../contract'
import { issuesFailure, type RawParams } from '../../contract/common/issues'
import { EMPTY_FEATURE_COLLECTION } from '../../contract/gis/geojson'
import { joinQueryValues, validateJoinRequest } from '../../contract/gis/join-params'
import { joinResultSchema, parseLayerList, type JoinOutcome, type LayerList } from '../../contract/gis/layers'
import { execute, parseJson, parseWith, type ClientContext } from './execute'
import type { CallOptions } from './places'

/** §4.5 join and §4.6 dataset list; bearer token of the spatial-analytics group. */
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
    const { fingerprint: _fingerprint, ...result } = await execute<JoinOutcome>(ctx, {
      operation: 'gis.join',
      group: 'gis',
      base: 'mgis_url',
      method: 'POST',
      path: () => ['query_apply', 'join'],
      query: joinQueryValues(p),
      body: { kind: 'json', value: checked.value.body ?? EMPTY_FEATURE_COLLECTION },
      replayable: !saves,
      fingerprint: saves,
      signal: options.signal,
      interpret: (res) => {
        const parsed = parseWith('gis.join', res, joinResultSchema)
        return parsed.ok ? ok({ response: parsed.value, partial: res.status === 206 }) : parsed
      },
      onFailure: (f) => {
        const status = f.response?.status
        if (status === 409) {
          return fail(
            'conflict',
            `${f.error.message}: conflicting parameters${saves ? ` or a dataset named ${p.newDatasetNme} already exists` : ''}; nothing was resent`,
            { status },
          )
        }
        if (status === 404) return fail('not-found', `${f.error.message}: no data found`, { status })
        return undefined
      },
    })
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

  return { layers, join }
}

export type GisClient = ReturnType<typeof gisClient>
