import { TILE_THINNING_HEADER, tilePath } from '../../contract/gis/tiles'
import { GeoFailure } from '../../base/geo-failure'
import type { LocalServiceHandle } from '../area'
import { failureOf } from './http-workspace-port'

/** How long one tile may take before the map is told it failed (the map asks again when it is shown). */
export const TILE_TIMEOUT_MS = 30_000

/**
 * One vector tile from the built-in local service (`GET /tiles/…`, its bearer token added here: the
 * renderer never holds it). An empty tile (204) is zero bytes.
 */
export async function fetchTile(
  service: () => Promise<LocalServiceHandle | null>,
  request: { dataset: string; z: number; x: number; y: number },
): Promise<{ bytes: Uint8Array; thinning?: string }> {
  const handle = await service()
  if (!handle) throw new GeoFailure('local-configuration', 'gis.tile: this host has no local service')
  const origin = new URL(handle.urls.mgis_url).origin
  let response: Response
  try {
    response = await fetch(origin + tilePath(request.dataset, request.z, request.x, request.y), {
      headers: { authorization: `Bearer ${handle.token}` },
      signal: AbortSignal.timeout(TILE_TIMEOUT_MS),
    })
  } catch (error) {
    throw new GeoFailure(
      'provider-unavailable',
      `gis.tile: the built-in local service did not answer (${(error as Error).message})`,
    )
  }
  if (!response.ok) throw await failureOf(response, 'gis.tile')
  const bytes = new Uint8Array(await response.arrayBuffer())
  const thinning = response.headers.get(TILE_THINNING_HEADER)
  return { bytes, ...(thinning ? { thinning } : {}) }
}
