import type { SavedPlace, SavePlaceParams } from '../../contract/places/my-places'
import type { LocalServiceHandle } from '../area'
import { GeoFailure } from '../../base/geo-failure'
import { classifyStatus } from '../../contract'

/**
 * My places over HTTP to the built-in local service (its `/atlas/local/places/saved` extension): the
 * places live in the local workspace, whatever profile is active.
 */
export interface MyPlacesPort {
  list(): Promise<{ places: SavedPlace[]; notice?: string }>
  save(place: SavePlaceParams): Promise<SavedPlace>
  remove(eLoc: string): Promise<SavedPlace>
}

export function httpPlacesPort(service: () => Promise<LocalServiceHandle | null>): MyPlacesPort {
  async function request<T>(operation: string, suffix: string, init: RequestInit = {}): Promise<T> {
    const handle = await service()
    if (!handle) throw new GeoFailure('local-configuration', `${operation}: this host has no local service`)
    let response: Response
    try {
      response = await fetch(`${handle.urls.atlas_url}/local/places/saved${suffix}`, {
        ...init,
        headers: { ...init.headers, authorization: `Bearer ${handle.token}` },
      })
    } catch (error) {
      throw new GeoFailure(
        'provider-unavailable',
        `${operation}: the built-in local service did not answer (${(error as Error).message})`,
      )
    }
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>
    if (!response.ok) {
      const message = typeof body.message === 'string' ? body.message : `HTTP ${response.status}`
      throw new GeoFailure(classifyStatus(response.status) ?? 'unclassified', `${operation}: ${message}`, {
        status: response.status,
        ...(typeof body.field === 'string' ? { field: body.field } : {}),
      })
    }
    return body as T
  }
  return {
    list: () => request('places.listSaved', ''),
    save: (place) =>
      request('places.savePlace', '', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(place),
      }),
    remove: (eLoc) => request('places.deleteSaved', `/${encodeURIComponent(eLoc)}`, { method: 'DELETE' }),
  }
}
