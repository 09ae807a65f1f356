/**
 * The only file that touches `window.geo`. In Electron the preload provides it; in the browser host the
 * same API is built here over HTTP from the one contract table, so the renderer cannot tell them apart.
 */
import {
  decodeFrames,
  FRAMES_CONTENT_TYPE,
  FRAMES_LEAD_HEADER,
  FramesReceiver,
  readLead,
  type PartReaders,
} from '@contract/frames'
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
import { rowsPartReader } from './features/gis/results/rows-on-arrival'

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

/**
 * An answer of byte parts (`FRAMES_CONTENT_TYPE`): received piece by piece into one buffer (of its stated
 * length, when it has one: a join's rows forwarded while they arrive come without), its first part read
 * while it arrives when the lead header names it and `readers` has a reader for it.
 */
async function receiveFrames(response: Response, readers: PartReaders): Promise<unknown> {
  if (!response.body) return decodeFrames(await response.arrayBuffer())
  const stated = Number(response.headers.get('content-length') ?? NaN)
  const receiver = new FramesReceiver({
    ...(Number.isSafeInteger(stated) && stated > 0 ? { length: stated } : {}),
    lead: readLead(response.headers.get(FRAMES_LEAD_HEADER)),
    readers,
  })
  let byob: ReadableStreamBYOBReader | null = null
  try {
    byob = response.body.getReader({ mode: 'byob' })
  } catch {
    // Not a byte stream: its pieces are copied in.
  }
  if (byob) {
    // The browser writes each piece straight into the answer's buffer: no piece of its own to copy.
    for (;;) {
      const room = receiver.room()
      if (room.byteLength === 0) {
        const { done } = await byob.read(new Uint8Array(1))
        if (!done) throw new Error('the answer is longer than its stated length')
        break
      }
      const { done, value } = await byob.read(room)
      if (value) receiver.filled(value)
      if (done) break
    }
    return receiver.finish()
  }
  const reader = response.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    receiver.push(value)
  }
  return receiver.finish()
}

export function createHttpGeoApi(
  secret: string | null,
  fetchImpl: typeof fetch = fetch,
  /** Byte parts of answers read as they arrive (a join's rows), by their key. */
  partReaders: PartReaders = {},
): GeoApi {
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
      if (response.headers.get('content-type') === FRAMES_CONTENT_TYPE)
        return (await receiveFrames(response, partReaders)) as Result<unknown>
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

export type EventsConnectionState = 'connecting' | 'connected' | 'disconnected'

/**
 * The state of the live event stream, for the status bar: the browser host's stream reconnects by itself a
 * bounded number of times, then says "disconnected" and waits for `retry()` — never silence.
 */
export interface EventsConnection {
  readonly state: EventsConnectionState
  /** Why the stream is disconnected (the last failure), when it is. */
  readonly reason: string | null
  subscribe(listener: () => void): () => void
  retry(): void
}

export interface EventStreamOptions {
  /** Consecutive failed connections before the stream is shown as disconnected. */
  maxAttempts?: number
  /** Pause before reconnection number `attempt` (1-based), ms. */
  delay?: (attempt: number) => number
  sleep?: (ms: number) => Promise<void>
}

/** Events from the browser host: one long-lived response carrying newline-delimited JSON. */
export function createHttpGeoEvents(
  secret: string | null,
  fetchImpl: typeof fetch = fetch,
  options: EventStreamOptions = {},
): GeoEventsApi & { connection: EventsConnection } {
  const maxAttempts = options.maxAttempts ?? 8
  const delay = options.delay ?? ((attempt: number) => Math.min(30_000, 500 * 2 ** attempt))
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const listeners = new Map<EventName, Set<AnyListener>>()
  const watchers = new Set<() => void>()
  let state: EventsConnectionState = 'connecting'
  let reason: string | null = null
  let running = false
  const setState = (next: EventsConnectionState, why: string | null = null) => {
    state = next
    reason = why
    watchers.forEach((w) => w())
  }

  /** One connection, read to its end; returns why it ended. */
  const readStream = async (): Promise<string> => {
    const response = await fetchImpl('/api/events', { headers: { [SESSION_HEADER]: secret ?? '' } })
    if (response.status === 401 || response.status === 403) {
      throw new StreamRefused('the browser host refused this page; open the URL that `npm run web` printed')
    }
    if (!response.ok || !response.body) return `the browser host answered ${response.status}`
    setState('connected')
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
    let buffer = ''
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return 'the browser host closed the stream'
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
  }

  const run = async () => {
    if (running || !secret) return
    running = true
    let failures = 0
    try {
      for (;;) {
        let why: string
        try {
          why = await readStream()
        } catch (error) {
          if (error instanceof StreamRefused) {
            setState('disconnected', error.message)
            return
          }
          why = `the browser host did not answer (${(error as Error).message})`
        }
        // A stream that was up counts as a fresh start; only consecutive failures give up.
        failures = state === 'connected' ? 1 : failures + 1
        if (failures >= maxAttempts) {
          setState('disconnected', why)
          return
        }
        setState('connecting', why)
        await sleep(delay(failures))
      }
    } finally {
      running = false
    }
  }

  const connection: EventsConnection = {
    get state() {
      return state
    },
    get reason() {
      return reason
    },
    subscribe(listener) {
      watchers.add(listener)
      return () => watchers.delete(listener)
    },
    retry() {
      if (state !== 'disconnected') return
      setState('connecting')
      void run()
    },
  }
  return {
    connection,
    on<K extends EventName>(name: K, listener: (payload: EventPayload<K>) => void) {
      const set = listeners.get(name) ?? new Set<AnyListener>()
      set.add(listener as AnyListener)
      listeners.set(name, set)
      void run()
      return () => set.delete(listener as AnyListener)
    },
  }
}

class StreamRefused extends Error {}

/** Electron's events come through the preload, which has no stream to lose. */
const alwaysConnected: EventsConnection = {
  state: 'connected',
  reason: null,
  subscribe: () => () => undefined,
  retry: () => undefined,
}

function resolveBridge(): {
  geo: GeoApi
  geoEvents: GeoEventsApi
  geoFiles: GeoFilesApi
  eventsConnection: EventsConnection
} {
  if (typeof window !== 'undefined' && window.geo && window.geoEvents && window.geoFiles) {
    return {
      geo: window.geo,
      geoEvents: window.geoEvents,
      geoFiles: window.geoFiles,
      eventsConnection: alwaysConnected,
    }
  }
  const secret =
    typeof window === 'undefined'
      ? null
      : takeSessionSecret(window.location, window.sessionStorage, window.history)
  const geoEvents = createHttpGeoEvents(secret)
  return {
    // A join's rows (and their points) are read while they arrive.
    geo: createHttpGeoApi(secret, fetch, { rowsJson: rowsPartReader }),
    geoEvents,
    geoFiles: createHttpGeoFiles(secret),
    eventsConnection: geoEvents.connection,
  }
}

const bridge = resolveBridge()

export const geo: GeoApi = bridge.geo
export const geoEvents: GeoEventsApi = bridge.geoEvents
export const geoFiles: GeoFilesApi = bridge.geoFiles
export const eventsConnection: EventsConnection = bridge.eventsConnection
