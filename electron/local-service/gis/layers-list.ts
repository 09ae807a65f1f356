import type { Workspace } from '../workspace/workspace'

/** Spec §4.6 / §2.5: GET {mgis_v2_url}/getLayersList; `data` is an array, one entry per dataset. */
export async function layersList(
  workspace: Workspace,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const manifests = await workspace.list()
  const data = manifests.map((m) => ({
    layername: m.name,
    geometrytype: m.geometryType,
    source: m.source,
    fields: m.fields,
    featureCount: m.featureCount,
    extent: m.extent,
    geometryColumn: m.geometryColumn,
    created: m.created,
  }))
  if (data.length === 0) {
    return {
      status: 404,
      body: { code: '404', success: false, message: 'no data found: the workspace has no datasets', data },
    }
  }
  return {
    status: 200,
    body: {
      code: '200',
      success: true,
      message: `${data.length} dataset${data.length === 1 ? '' : 's'}`,
      data,
    },
  }
}
