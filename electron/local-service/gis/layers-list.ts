import type { BBox } from 'geojson'
import type { FieldInfo } from '../workspace/features'

/** One dataset as a workspace lists it: a file workspace's manifest, or a PostGIS table's catalog entry. */
export interface ListedDataset {
  name: string
  geometryType: string
  source: string
  fields: FieldInfo[]
  /** Exact for files; the planner's estimate (`featureCountEstimated`) for PostGIS, null when it has none. */
  featureCount: number | null
  featureCountEstimated?: boolean
  extent: BBox | null
  geometryColumn: string
  created: string | null
  /** The team server's user who saved it (issue 32), when recorded. */
  owner?: string
}

/** Spec §4.6 / §2.5: GET {mgis_v2_url}/getLayersList; `data` is an array, one entry per dataset. */
export async function layersList(
  workspace: { list(): Promise<ListedDataset[]> },
  /** Local extensions this workspace offers, advertised in `X-Geo-Local-Extensions` (e.g. vector tiles). */
  extensions: readonly string[] = [],
): Promise<{ status: number; body: Record<string, unknown>; headers?: Record<string, string> }> {
  const headers =
    extensions.length > 0 ? { headers: { 'x-geo-local-extensions': extensions.join(', ') } } : {}
  const listed = await workspace.list()
  const data = listed.map((m) => ({
    layername: m.name,
    geometrytype: m.geometryType,
    source: m.source,
    fields: m.fields,
    featureCount: m.featureCount,
    ...(m.featureCountEstimated ? { featureCountEstimated: true } : {}),
    extent: m.extent,
    geometryColumn: m.geometryColumn,
    created: m.created,
    // Extension field (issue 32): who saved it, on a team server; absent when nobody is recorded.
    ...(m.owner ? { owner: m.owner } : {}),
  }))
  if (data.length === 0) {
    return {
      status: 404,
      body: { code: '404', success: false, message: 'no data found: the workspace has no datasets', data },
    }
  }
  return {
    status: 200,
    ...headers,
    body: {
      code: '200',
      success: true,
      message: `${data.length} dataset${data.length === 1 ? '' : 's'}`,
      data,
    },
  }
}
