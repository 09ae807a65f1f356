import { z } from 'zod'
import { jobProgressSchema } from './loop'
import { secretsStatusSchema } from './secrets'
import { settingsViewSchema } from './settings'

/** The typed table of events the core pushes to the renderer. */
export const events = {
  'settings.changed': settingsViewSchema,
  'secrets.changed': secretsStatusSchema,
  'job.progress': jobProgressSchema,
  'datasets.changed': z.object({ reason: z.string() }),
} as const

export type Events = typeof events
export type EventName = keyof Events
export type EventPayload<K extends EventName> = z.output<Events[K]>

export const EVENT_NAMES = Object.keys(events) as EventName[]

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name)
}
