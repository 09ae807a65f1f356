import type { z } from 'zod'
import { inAreaOrder } from './area'
import * as AREAS from './area-list'
import { unionOf } from './operation'

type Area = (typeof AREAS)[keyof typeof AREAS]

/** The typed table of events the core pushes to the renderer: the union of the areas' events (`area-list.ts`). */
export const events = unionOf(...inAreaOrder<Area>(AREAS).map(([, area]) => area.events))

export type Events = typeof events
export type EventName = keyof Events
export type EventPayload<K extends EventName> = z.output<Events[K]>

export const EVENT_NAMES = Object.keys(events) as EventName[]

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name)
}
