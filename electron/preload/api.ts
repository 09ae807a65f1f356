import {
  INVOKE_CHANNEL,
  OPERATION_NAMES,
  eventChannel,
  isEventName,
  type EventName,
  type GeoApi,
  type GeoEventsApi,
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
