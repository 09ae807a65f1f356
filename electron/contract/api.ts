import type { ImportFileRef } from './gis/loop'
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

/**
 * What `window.geoFiles` offers: a file the user chose (`<input type=file>`) or dropped, offered for
 * import. The answer is the reference `datasets.import` names; the renderer never names a path.
 */
export interface GeoFilesApi {
  offerForImport(file: File): Promise<Result<ImportFileRef>>
}

/** The one IPC channel of every operation: `invoke(INVOKE_CHANNEL, name, request)`. */
export const INVOKE_CHANNEL = 'geo:invoke'
export const EVENT_CHANNEL_PREFIX = 'geo:event:'
/** The IPC channel on which the desktop preload offers a chosen or dropped file's path for import. */
export const OFFER_FILE_CHANNEL = 'geo:offer-file'

export function eventChannel(name: EventName): string {
  return EVENT_CHANNEL_PREFIX + name
}
