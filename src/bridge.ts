/**
 * The only file that touches `window.geo`. In Electron the preload provides it; in the browser host the
 * same API is built here over HTTP from the one contract table, so the renderer cannot tell them apart.
 */
import {
  OPERATION_NAMES,
  fail,
  isEventName,
  type EventName,
  type EventPayload,
  type GeoApi,
  type GeoEventsApi,
  type GeoFilesApi,
  type ImportFileRef,
  type Result,
} from '@contract/index'

declare global {
  interface Window {
    geo?: GeoApi
    geoEvents?: GeoEventsApi
    geoFiles?: GeoFilesApi
  }
}

export const SESSION_HEADER = 'x-geo-session'
const SESSION_KEY = 'geo-analyst.session'

/** Take the browser host's per-run secret from `#session=...`, keep it for reloads, and drop it from the URL. */
export function takeSessionSecret(location: Location, storage: Storage, history: History): string | null {
  const match = /(?:^#|&)session=([A-Za-z0-9_-]+)/.exec(location.hash)
  if (match?.[1]) {
    storage.setItem(SESSION_KEY, match[1])
    history.replaceState(null, '', location.pathname + location.search)
  }
  return storage.getItem(SESSION_KEY)
}

export function createHttpGeoApi(secret: string | null, fetchImpl: typeof fetch = fetch): GeoApi {
  const call = async (name: string, request: unknown): Promise<Result<unknown>> => {
    if (!secret) {
      return fail(
        'local-configuration',
        'This page was opened without the browser host session; open the URL that `npm run web` printed.',
      )
    }
    try {
      const response = await fetchImpl(`/api/op/${encodeURIComponent(name)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SESSION_HEADER]: secret },
        body: JSON.stringify(request ?? {}),
      })
      if (response.status === 401 || response.status === 403) {
        return fail(
          'authentication',
          'The browser host refused this page; open the URL that `npm run web` printed.',
          {
            status: response.status,
          },
        )
      }
      return (await response.json()) as Result<unknown>
    } catch (error) {
      return fail('timeout-network', `The browser host did not answer: ${(error as Error).message}`)
    }
  }
  return Object.fromEntries(
    OPERATION_NAMES.map((name) => [name, (request: unknown) => call(name, request)]),
  ) as GeoApi
}

/**
 * Files for import in the browser host: the file is streamed to `POST /api/upload` (never read into
 * memory here) and the host answers the reference `datasets.import` names.
 */
export function createHttpGeoFiles(secret: string | null, fetchImpl: typeof fetch = fetch): GeoFilesApi {
  return {
    async offerForImport(file: File): Promise<Result<ImportFileRef>> {
      if (!secret) {
        return fail(
          'local-configuration',
          'This page was opened without the browser host session; open the URL that `npm run web` printed.',
        )
      }
      try {
        const response = await fetchImpl('/api/upload', {
          method: 'POST',
          headers: {
            'content-type': 'application/octet-stream',
            'x-file-name': encodeURIComponent(file.name),
            [SESSION_HEADER]: secret,
          },
          body: file,
        })
        return (await response.json()) as Result<ImportFileRef>
      } catch (error) {
        return fail('timeout-network', `The browser host did not take the file: ${(error as Error).message}`)
      }
    },
  }
}

type AnyListener = (payload: unknown) => void

/** Events from the browser host: one long-lived response carrying newline-delimited JSON. */
export function createHttpGeoEvents(secret: string | null, fetchImpl: typeof fetch = fetch): GeoEventsApi {
  const listeners = new Map<EventName, Set<AnyListener>>()
  let started = false
  const start = async () => {
    if (started || !secret) return
    started = true
    for (let attempt = 0; attempt < 1000; attempt++) {
      try {
        const response = await fetchImpl('/api/events', { headers: { [SESSION_HEADER]: secret } })
        if (!response.ok || !response.body) break
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
        let buffer = ''
        for (;;) {
          const { value, done } = await reader.read()
          if (done) break
          buffer += value
          let newline: number
          while ((newline = buffer.indexOf('\n')) >= 0) {
            const line = buffer.slice(0, newline)
            buffer = buffer.slice(newline + 1)
            if (!line.trim()) continue
            const message = JSON.parse(line) as { name: unknown; payload: unknown }
            if (isEventName(message.name)) listeners.get(message.name)?.forEach((l) => l(message.payload))
          }
        }
      } catch {
        // The host went away or the page is unloading; reconnect after a pause.
      }
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
  }
  return {
    on<K extends EventName>(name: K, listener: (payload: EventPayload<K>) => void) {
      const set = listeners.get(name) ?? new Set<AnyListener>()
      set.add(listener as AnyListener)
      listeners.set(name, set)
      void start()
      return () => set.delete(listener as AnyListener)
    },
  }
}

function resolveBridge(): { geo: GeoApi; geoEvents: GeoEventsApi; geoFiles: GeoFilesApi } {
  if (typeof window !== 'undefined' && window.geo && window.geoEvents && window.geoFiles) {
    return { geo: window.geo, geoEvents: window.geoEvents, geoFiles: window.geoFiles }
  }
  const secret =
    typeof window === 'undefined'
      ? null
      : takeSessionSecret(window.location, window.sessionStorage, window.history)
  return {
    geo: createHttpGeoApi(secret),
    geoEvents: createHttpGeoEvents(secret),
    geoFiles: createHttpGeoFiles(secret),
  }
}

const bridge = resolveBridge()

export const geo: GeoApi = bridge.geo
export const geoEvents: GeoEventsApi = bridge.geoEvents
export const geoFiles: GeoFilesApi = bridge.geoFiles
