import { fail, ok, type Result } from '../../contract'
import { issuesFailure, type RawParams } from '../../contract/common/issues'
import { EMPTY_FEATURE_COLLECTION } from '../../contract/gis/geojson'
import { JoinBodyChecker, type RowsTap } from '../../../shared/rows/join-body'
import { RowsShapeError } from '../../../shared/rows/json-scan'
import { RowTable } from '../../../shared/rows/row-table'
import {
  joinQueryValues,
  reconcileSavedDataset,
  validateJoinRequest,
  type JoinRequest,
} from '../../contract/gis/join-params'
import type { HttpResponse } from '../http/transport'
import {
  joinEnvelopeSchema,
  parseLayerList,
  type JoinOutcome,
  type JoinResponse,
  type LayerList,
} from '../../contract/gis/layers'
import {
  buildRequest,
  execute,
  parseJson,
  providerHint,
  type BuiltRequest,
  type CallSpec,
  type ClientContext,
} from './execute'
import { noParams, type CallOptions, type CallTable } from './call-input'
import { advertisesTiles } from '../../contract/gis/tiles'
import type { gisInterface } from '../../contract/gis/operations'

/** §4.5 join and §4.6 dataset list; bearer token of the spatial-analytics group. */
/** The join's call, built once for sending (`join`) and for showing (`describeJoin`). */
function joinSpec(
  ctx: ClientContext,
  request: JoinRequest,
  signal?: AbortSignal,
  rows?: RowsTap,
): CallSpec<JoinOutcome> {
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
    // The rows are read as they arrive: a million of them are read a moment after their last byte. Those
    // of a successful answer go on to `rows` (the page) as they are read.
    reader: (status) => new JoinBodyChecker(status >= 200 && status < 300 ? rows : undefined),
    interpret: (res) => {
      const parsed = readJoinResponse(res)
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

/**
 * A join answer (§2.4): the envelope is checked with the shared schema, the rows are read in place
 * (`JoinBodyChecker`, fed by the transport while the answer arrives: one pass checks they are objects of
 * valid JSON values and counts them; nothing is parsed into objects or copied, and no offsets are kept, so a
 * million-row answer costs one scan and reaches the renderer, which reads them, as the bytes that came).
 */
export function readJoinResponse(res: HttpResponse): Result<JoinResponse> {
  const shape = (at: string, message: string) =>
    fail('unclassified', `gis.join: the provider's answer has an unexpected shape at ${at}: ${message}`, {
      status: res.status,
    })
  let body: ReturnType<JoinBodyChecker['finish']>
  try {
    // What the transport's reader read while the answer came, finished; or the whole answer read now.
    const reader = res.reader instanceof JoinBodyChecker ? res.reader : new JoinBodyChecker()
    body = reader.finish(res.body)
  } catch (error) {
    if (!(error instanceof RowsShapeError)) throw error
    if (res.body.every((b) => b === 32 || b === 10 || b === 13 || b === 9))
      return fail(
        'unclassified',
        `gis.join: the provider answered HTTP ${res.status} with an empty body where JSON was expected`,
        { status: res.status },
      )
    if (error.at === 'body' || error.at.startsWith('byte'))
      return fail(
        'unclassified',
        `gis.join: the provider's answer is not valid JSON (truncated or malformed, ${res.body.byteLength} bytes): ${error.message}`,
        { status: res.status },
      )
    return shape(error.at, error.message)
  }
  const head = joinEnvelopeSchema.safeParse(body.envelope)
  if (!head.success) {
    const issue = head.error.issues[0]
    return shape(issue?.path.map(String).join('.') || 'body', issue?.message ?? 'invalid')
  }
  return ok({ ...head.data, rows: body.rows })
}

/** How long the check of a saving join's lost answer may take (listing the datasets). */
export const RECONCILE_TIMEOUT_MS = 30_000

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
          ? ok(advertisesTiles(res.headers) ? { ...parsed.value, tiles: true } : parsed.value)
          : fail(
              'unclassified',
              `gis.layers: the provider's answer has an unexpected shape: ${parsed.reason}`,
              { status: res.status },
            )
      },
    })
  }

  /** The dataset names of the active profile, or why they could not be read; never throws. */
  async function datasetNames(signal?: AbortSignal): Promise<Result<string[]>> {
    const listed = await layers({ signal })
    return listed.ok ? ok(listed.value.layers.map((l) => l.layername)) : listed
  }

  /**
   * POST {mgis_url}/query_apply/join with the spec's query parameters and a GeoJSON body. A join that
   * saves a dataset is never resent after an ambiguous failure (a lost answer, or the caller's cancel):
   * the datasets listed before it was sent are compared with those listed afterwards, by the service's
   * name rule (letter case aside) — new → success (reconciled "found"); there before → a conflict (a taken
   * name is refused, so this run saved nothing under it); absent → the outcome stays unknown.
   */
  async function join(
    params: RawParams,
    body?: unknown,
    /** `rows`: where the rows of a successful answer go as they are read. */
    options: CallOptions & { rows?: RowsTap } = {},
  ): Promise<Result<JoinOutcome>> {
    const checked = validateJoinRequest(params, body)
    if (!checked.ok) return issuesFailure('gis.join', checked.issues)
    const p = checked.value.params
    const saves = p.saveAsNewDataset === true
    const before = saves ? await datasetNames(options.signal) : undefined
    if (options.signal?.aborted)
      return fail('timeout-network', 'gis.join: cancelled before it was sent; nothing was sent', {
        code: 'cancelled',
      })
    const { fingerprint: _fingerprint, ...result } = await execute<JoinOutcome>(
      ctx,
      joinSpec(ctx, checked.value, options.signal, options.rows),
    )
    if (result.ok || !saves || result.error.failureClass !== 'unknown-outcome')
      return result as Result<JoinOutcome>
    // The caller's signal may be the cancel that made the outcome unknown: the check has a budget of its own.
    const after = await datasetNames(AbortSignal.timeout(RECONCILE_TIMEOUT_MS))
    const reconciled = reconcileSavedDataset(
      p.newDatasetNme!,
      before?.ok ? before.value : undefined,
      after.ok ? after.value : undefined,
    )
    const why = result.error.message
    switch (reconciled.kind) {
      case 'found':
        return ok({
          response: { code: 'reconciled', rows: RowTable.of([]) },
          partial: false,
          reconciled: 'found',
        })
      case 'existed':
        return fail(
          'conflict',
          `${why}; a dataset named ${reconciled.listed} was already in the dataset list before this run, and a taken name is refused — this run saved nothing under it`,
          { code: result.error.code, field: 'newDatasetNme' },
        )
      case 'unread':
        return fail(
          'unknown-outcome',
          `${why}; the dataset list could not be read to check for ${p.newDatasetNme} (${after.ok ? '' : after.error.message})`,
          { code: result.error.code },
        )
      case 'absent':
        return fail(
          'unknown-outcome',
          `${why}; ${p.newDatasetNme} is not in the dataset list yet — it was probably not created; list the datasets again before re-running`,
          { code: result.error.code },
        )
    }
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
} satisfies CallTable<typeof gisInterface, { gis: GisClient }>

/** The gis group's part of the client, listed in `area-list.ts`: its client and its calls. */
export const gisClientArea = { client: gisClient, calls: gisCalls }
