import type { EventName, EventPayload } from '../contract'

type Listener = (name: EventName, payload: unknown) => void

/** The core's typed event bus; each host forwards it to its renderer transport. */
export class EventBus {
  private readonly listeners = new Set<Listener>()

  emit<K extends EventName>(name: K, payload: EventPayload<K>): void {
    for (const listener of this.listeners) listener(name, payload)
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}
