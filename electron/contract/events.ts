import type { z } from 'zod'
import { appEvents } from './app/operations'
import { gisEvents } from './gis/operations'
import { unionOf } from './operation'
import { placesEvents } from './places/operations'
import { routingEvents } from './routing/operations'

/** The typed table of events the core pushes to the renderer: the union of the areas' events, one line per area. */
// prettier-ignore
export const events = unionOf(
  appEvents,
  placesEvents,
  routingEvents,
  gisEvents,
)

export type Events = typeof events
export type EventName = keyof Events
export type EventPayload<K extends EventName> = z.output<Events[K]>

export const EVENT_NAMES = Object.keys(events) as EventName[]

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name)
}
