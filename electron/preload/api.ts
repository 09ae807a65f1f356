import {
  INVOKE_CHANNEL,
  OFFER_FILE_CHANNEL,
  OPERATION_NAMES,
  eventChannel,
  fail,
  isEventName,
  type EventName,
  type GeoApi,
  type GeoEventsApi,
  type GeoFilesApi,
  type ImportFileRef,
  type Result,
} from '../contract'

export type Invoke = (channel: string, ...args: unknown[]) => Promise<unknown>
export type Subscribe = (channel: string, listener: (payload: unknown) => void) => () => void

/** `window.geo`: exactly one method per operation of the table, each a call through the one IPC entry. */
export function buildGeoApi(invoke: Invoke): GeoApi {
  return Object.freeze(
    Object.fromEntries(
      OPERATION_NAMES.map((name) => [
        name,
        (request: unknown) => invoke(INVOKE_CHANNEL, name, request) as Promise<Result<unknown>>,
      ]),
    ),
  ) as GeoApi
}

/** `window.geoEvents`: subscription to names of the event table only. */
export function buildGeoEvents(subscribe: Subscribe): GeoEventsApi {
  return Object.freeze({
    on(name: EventName, listener: (payload: never) => void) {
      if (!isEventName(name)) throw new Error(`Unknown event "${String(name)}"`)
      return subscribe(eventChannel(name), listener as (payload: unknown) => void)
    },
  }) as GeoEventsApi
}

/**
 * `window.geoFiles`: a `File` the user chose or dropped is offered for import by its path on disk, which
 * only Electron can tell (`webUtils.getPathForFile`; empty for files made by the page). The page never
 * sees or names the path; it gets the reference the main process grants.
 */
export function buildGeoFiles(pathOf: (file: File) => string, invoke: Invoke): GeoFilesApi {
  return Object.freeze({
    async offerForImport(file: File): Promise<Result<ImportFileRef>> {
      let filePath = ''
      try {
        filePath = pathOf(file)
      } catch {
        // Not a File at all: refused below like a file that is not on disk.
      }
      if (!filePath) {
        return fail('validation', 'Only a file chosen or dropped from disk can be imported', {
          field: 'file',
        })
      }
      return (await invoke(OFFER_FILE_CHANNEL, filePath)) as Result<ImportFileRef>
    },
  })
}
