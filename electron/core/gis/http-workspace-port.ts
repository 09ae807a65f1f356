import { classifyStatus } from '../../contract/failure'
import type { LocalServiceHandle } from '../area'
import { GeoFailure } from '../../base/geo-failure'
import { withStagedUpload } from '../../base/upload-staging'
import type { LocalDatasetInfo, LocalWorkspacePort } from '../../base/local-workspace-port'

/** The failure an error answer of the local service means: its class by status, its message and field. */
export async function failureOf(response: Response, operation: string): Promise<GeoFailure> {
  let message = `HTTP ${response.status}`
  let field: string | undefined
  let code: string | undefined
  try {
    const body = (await response.json()) as { message?: unknown; field?: unknown; code?: unknown }
    if (typeof body.message === 'string') message = body.message
    if (typeof body.field === 'string') field = body.field
    if (typeof body.code === 'string') code = body.code
  } catch {
    // Not JSON: the status says enough.
  }
  const failureClass = classifyStatus(response.status) ?? 'unclassified'
  return new GeoFailure(failureClass, message.startsWith(operation) ? message : `${operation}: ${message}`, {
    status: response.status,
    ...(field ? { field } : {}),
    ...(code ? { code } : {}),
  })
}

/**
 * The core's `LocalWorkspacePort` over HTTP to the built-in local service (its `/local/datasets` extension),
 * so reading and importing datasets happens in the service's process and worker threads, never in the host's.
 */
export function httpWorkspacePort(service: () => Promise<LocalServiceHandle | null>): LocalWorkspacePort {
  async function request(operation: string, pathname: string, init: RequestInit = {}): Promise<Response> {
    const handle = await service()
    if (!handle) throw new GeoFailure('local-configuration', `${operation}: this host has no local service`)
    const origin = new URL(handle.urls.mgis_url).origin
    let response: Response
    try {
      response = await fetch(origin + pathname, {
        ...init,
        headers: { ...init.headers, authorization: `Bearer ${handle.token}` },
      })
    } catch (error) {
      throw new GeoFailure(
        'provider-unavailable',
        `${operation}: the built-in local service did not answer (${(error as Error).message})`,
      )
    }
    if (!response.ok) throw await failureOf(response, operation)
    return response
  }

  const port: LocalWorkspacePort = {
    async features(name) {
      const response = await request(
        'datasets.features',
        `/local/datasets/${encodeURIComponent(name)}/features`,
      )
      const geojson = await response.text()
      return {
        name: decodeURIComponent(response.headers.get('x-dataset-name') ?? encodeURIComponent(name)),
        geojson,
        featureCount: Number(response.headers.get('x-feature-count') ?? 0),
      }
    },
    async importPath(input) {
      const response = await request('datasets.import', '/local/datasets/import', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input),
      })
      return (await response.json()) as LocalDatasetInfo
    },
    importFile({ fileName, bytes, name, skipInvalid }) {
      // Staged for the service to read (it reads files); the service's start-up sweep removes the copy if
      // this process dies first.
      return withStagedUpload('upload', fileName, bytes, (file, original) =>
        port.importPath({
          path: file,
          fileName: original,
          ...(name ? { name } : {}),
          ...(skipInvalid ? { skipInvalid } : {}),
        }),
      )
    },
  }
  return port
}
