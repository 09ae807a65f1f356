import type { CheckedRows } from './checked-rows'
import { z } from 'zod'
import { toBoolean, toNumber } from '../common/issues'

/** §4.6 GET {mgis_v2_url}/getLayersList → §2.5, parsed tolerantly. */

export interface Layer {
  layername: string
  geometrytype?: string
  source?: string
  /** Kept when the provider (e.g. the local service) sends them. */
  fields?: unknown[]
  featureCount?: number
  extent?: number[]
  [member: string]: unknown
}

export interface LayerList {
  code?: string
  success?: boolean
  message?: string
  layers: Layer[]
  /** The answer advertised the vector tiles extension (`X-Geo-Local-Extensions`): a database workspace. */
  tiles?: boolean
}

const entrySchema = z.looseObject({
  layername: z.unknown().transform((v, ctx) => {
    if (typeof v === 'string' && v.length > 0) return v
    if (typeof v === 'number') return String(v)
    ctx.addIssue({ code: 'custom', message: 'layername must be a non-empty string' })
    return z.NEVER
  }),
})

/**
 * The list's `data` may be one object or an array of them; success may be a boolean or its text;
 * featureCount may be text; extent is kept when it is four finite numbers. Unknown members are kept.
 */
export function parseLayerList(
  body: unknown,
): { ok: true; value: LayerList } | { ok: false; reason: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, reason: 'the response is not a JSON object' }
  }
  const raw = body as Record<string, unknown>
  const data = raw.data
  const items: unknown[] = data === undefined || data === null ? [] : Array.isArray(data) ? data : [data]
  const layers: Layer[] = []
  for (const [i, item] of items.entries()) {
    if (typeof item === 'string' && item) {
      layers.push({ layername: item })
      continue
    }
    const parsed = entrySchema.safeParse(item)
    if (!parsed.success)
      return { ok: false, reason: `data[${i}]: ${parsed.error.issues[0]?.message ?? 'invalid'}` }
    const layer: Layer = { ...(parsed.data as Record<string, unknown>), layername: parsed.data.layername }
    for (const key of ['geometrytype', 'source'] as const) {
      if (layer[key] !== undefined && typeof layer[key] !== 'string') layer[key] = String(layer[key])
    }
    if (layer.featureCount !== undefined) {
      const n = toNumber(layer.featureCount)
      if (n === undefined) delete layer.featureCount
      else layer.featureCount = n
    }
    if (layer.extent !== undefined) {
      const e = layer.extent
      if (!(
        Array.isArray(e) &&
        e.length === 4 &&
        e.every((n) => typeof n === 'number' && Number.isFinite(n))
      )) {
        delete layer.extent
      }
    }
    if (layer.fields !== undefined && !Array.isArray(layer.fields)) delete layer.fields
    layers.push(layer)
  }
  const value: LayerList = { layers }
  if (raw.code !== undefined && raw.code !== null) value.code = String(raw.code)
  const success = toBoolean(raw.success)
  if (success !== undefined) value.success = success
  if (typeof raw.message === 'string') value.message = raw.message
  return { ok: true, value }
}

/**
 * §2.4 join result, all but its rows: the code (more members kept as they come). The rows (`result`, string
 * members prop1..prop8) are read in place by `readJoinBody` (shared/rows/join-body.ts), not by a schema.
 */
export const joinEnvelopeSchema = z.looseObject({
  code: z
    .unknown()
    .transform((v) => (v === undefined || v === null ? undefined : String(v)))
    .optional(),
})

export type JoinResponse = z.output<typeof joinEnvelopeSchema> & { rows: CheckedRows }

export interface JoinOutcome {
  response: JoinResponse
  /** 206: the provider returned a partial result. */
  partial: boolean
  /** When the join saved a dataset and the answer was lost, whether the dataset was found by listing. */
  reconciled?: 'found' | 'absent'
}
