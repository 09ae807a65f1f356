import type { Result } from './result'
import type { EventName, EventPayload } from './events'
import type { OperationName, OperationRequest, OperationResponse } from './operations'

/** What `window.geo` offers: exactly one method per operation of the table. */
export type GeoApi = {
  [K in OperationName]: (request: OperationRequest<K>) => Promise<Result<OperationResponse<K>>>
}

/** What `window.geoEvents` offers: typed subscription to the event table. */
export interface GeoEventsApi {
  on<K extends EventName>(name: K, listener: (payload: EventPayload<K>) => void): () => void
}

/** IPC channel of an operation; one prefix so the main process can reject anything else. */
export const OPERATION_CHANNEL_PREFIX = 'geo:op:'
export const EVENT_CHANNEL_PREFIX = 'geo:event:'

export function operationChannel(name: OperationName): string {
  return OPERATION_CHANNEL_PREFIX + name
}

export function eventChannel(name: EventName): string {
  return EVENT_CHANNEL_PREFIX + name
}
