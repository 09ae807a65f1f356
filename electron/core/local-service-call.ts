import type { LocalServiceHandle } from './area'
import { failureOf } from './gis/http-workspace-port'
import { GeoFailure } from '../base/geo-failure'

/**
 * Calls to the built-in local service's own extensions (paths outside the interface, e.g.
 * `/local/road-networks`, `/telematics/local/fleet`), with its bearer token. A refusal becomes a
 * `GeoFailure` classified by its status, with the message and field the service gave.
 */
export function localServiceCall(service: () => Promise<LocalServiceHandle | null>) {
  return async (operation: string, pathname: string, init: RequestInit = {}): Promise<Response> => {
    const handle = await service()
    if (!handle) throw new GeoFailure('local-configuration', `${operation}: this host has no local service`)
    let response: Response
    try {
      response = await fetch(new URL(handle.urls.mgis_url).origin + pathname, {
        ...init,
        headers: {
          'content-type': 'application/json',
          ...init.headers,
          authorization: `Bearer ${handle.token}`,
        },
      })
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error
      throw new GeoFailure(
        'provider-unavailable',
        `${operation}: the built-in local service did not answer (${(error as Error).message})`,
      )
    }
    if (!response.ok) throw await failureOf(response, operation)
    return response
  }
}
