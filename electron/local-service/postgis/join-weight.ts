import type { Feature } from 'geojson'
import type { JoinParams } from '../../contract/gis/join-params'
import type { ResolvedDataset } from './resolve'
import { quoteIdent } from './sql'
import type { PostgisWorkspace } from './workspace'
import { geometryBBox, type BBox } from '../workspace/features'

/**
 * A PostGIS join's weight for the fair gate (`join-route.ts`, decision 034): the rows the database expects it
 * to return, from the planner's statistics, asked in one short statement when the gate must choose. At most
 * the pool's `smallWeight` the join may take the place kept for small joins; above, it is large (on a team
 * server, one at a time for its user).
 *
 * - against the user geometry: the source's rows × the share of them whose boxes meet the geometries' box
 *   (PostGIS' `_postgis_selectivity`, its box widened by the DWithin distance);
 * - against a reference dataset: source rows × reference rows × PostGIS' join selectivity of their boxes;
 * - otherwise (or where a table has no statistics): every row of the source.
 *
 * What has no estimate — a view, a table never analysed, statistics PostGIS cannot read — weighs
 * `UNKNOWN`: large, since nothing says it is small.
 */
export const UNKNOWN_WEIGHT = Number.MAX_SAFE_INTEGER

/** Metres in a degree of latitude (the DWithin distance as a box margin in degrees; generous at any latitude). */
const METRES_PER_DEGREE = 111_000

/** [minX, minY, maxX, maxY] of the features' coordinates (GeoJSON: longitude, latitude); undefined when none. */
function featuresBox(features: readonly Feature[]): BBox | undefined {
  let box: BBox | undefined
  for (const f of features) {
    const b = geometryBBox(f?.geometry ?? null)
    if (b)
      box = box
        ? [Math.min(box[0], b[0]), Math.min(box[1], b[1]), Math.max(box[2], b[2]), Math.max(box[3], b[3])]
        : b
  }
  return box
}

const relation = (d: ResolvedDataset) => `${quoteIdent(d.schema)}.${quoteIdent(d.table)}`

/**
 * The most rows a join can return by the tables' own row estimates (kept with the resolved datasets, so
 * asked of no one): the source's rows, times the reference's when there is one (pairs); undefined when a
 * dataset has no estimate (a view).
 */
export function joinRowsBound(source: ResolvedDataset, ref: ResolvedDataset | undefined): number | undefined {
  if (source.rows === undefined) return undefined
  if (!ref) return source.rows
  return ref.rows === undefined ? undefined : source.rows * ref.rows
}

/**
 * The expected rows of a join (see above), `UNKNOWN_WEIGHT` when the statistics do not say. A join whose
 * bound (`joinRowsBound`) is already within `small` is weighed by it without a statement.
 */
export async function estimateJoinRows(
  ws: PostgisWorkspace,
  params: JoinParams,
  source: ResolvedDataset,
  ref: ResolvedDataset | undefined,
  features: readonly Feature[] | undefined,
  small = 0,
): Promise<number> {
  const bound = joinRowsBound(source, features ? undefined : ref)
  if (bound !== undefined && bound <= small) return bound
  const pgis = quoteIdent((await ws.checked()).postgisSchema)
  const rows = `(SELECT CASE WHEN c.relkind IN ('r', 'm', 'p') AND c.reltuples >= 0 THEN c.reltuples END
                   FROM pg_class c WHERE c.oid = to_regclass($1))`
  const spatial = params.queryType === 'spatialOperation' && source.geometryKind === 'geometry'
  const margin = params.operator === 'DWithin' ? (params.distance ?? 0) / METRES_PER_DEGREE : 0
  const box = features ? featuresBox(features) : undefined
  try {
    if (spatial && features && box) {
      // The box in the source's SRID (a column without one takes the box as it is).
      const envelope = `ST_MakeEnvelope($3, $4, $5, $6, 4326)`
      const inSrid = source.srid > 0 && source.srid !== 4326 ? `ST_Transform(${envelope}, $7)` : envelope
      const { rows: found } = await ws.db.query(
        `SELECT ${rows} * ${pgis}._postgis_selectivity(to_regclass($1), $2, ${inSrid}) AS n`,
        [
          relation(source),
          source.geometryColumn,
          box[0] - margin,
          Math.max(-90, box[1] - margin),
          box[2] + margin,
          Math.min(90, box[3] + margin),
          ...(inSrid === envelope ? [] : [source.srid]),
        ],
      )
      return countOf(found[0]?.n)
    }
    if (spatial && ref && ref.geometryKind === 'geometry') {
      const { rows: found } = await ws.db.query(
        `SELECT ${rows} * (SELECT CASE WHEN c.relkind IN ('r', 'm', 'p') AND c.reltuples >= 0 THEN c.reltuples END
                             FROM pg_class c WHERE c.oid = to_regclass($3))
                * ${pgis}._postgis_join_selectivity(to_regclass($1), $2, to_regclass($3), $4) AS n`,
        [relation(source), source.geometryColumn, relation(ref), ref.geometryColumn],
      )
      return countOf(found[0]?.n)
    }
    const { rows: found } = await ws.db.query(`SELECT ${rows} AS n`, [relation(source)])
    return countOf(found[0]?.n)
  } catch {
    // No statistics to read (PostGIS says so with an error): nothing says the join is small.
    return UNKNOWN_WEIGHT
  }
}

function countOf(value: unknown): number {
  if (value === null || value === undefined) return UNKNOWN_WEIGHT
  const n = Number(value)
  return Number.isFinite(n) && n >= 0 ? Math.ceil(n) : UNKNOWN_WEIGHT
}
