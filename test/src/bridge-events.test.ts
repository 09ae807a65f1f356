import { render, screen } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { createHttpGeoEvents } from '../../src/bridge'

/** A fetch that fails `failures` times, then answers one stream holding `lines` and keeps it open. */
function flakyHost(failures: number, lines: string[]) {
  let calls = 0
  const fetchImpl = (async () => {
    calls++
    if (calls <= failures) throw new TypeError('Failed to fetch')
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(lines.join('\n') + '\n'))
      },
    })
    return new Response(body, { status: 200 })
  }) as unknown as typeof fetch
  return { fetchImpl, calls: () => calls }
}

const immediate = { sleep: () => Promise.resolve(), maxAttempts: 3 }

describe('the browser host event stream', () => {
  it('says "disconnected" with the reason after the last reconnection fails, then reconnects on retry', async () => {
    const host = flakyHost(3, [JSON.stringify({ name: 'datasets.changed', payload: { reason: 'import' } })])
    const events = createHttpGeoEvents('secret', host.fetchImpl, immediate)
    const seen: unknown[] = []
    const states: string[] = []
    events.connection.subscribe(() => states.push(events.connection.state))
    events.on('datasets.changed', (p) => seen.push(p))
    await vi.waitFor(() => expect(events.connection.state).toBe('disconnected'))
    expect(host.calls()).toBe(3)
    expect(events.connection.reason).toMatch(/did not answer \(Failed to fetch\)/)
    expect(seen).toEqual([])

    events.connection.retry()
    await vi.waitFor(() => expect(events.connection.state).toBe('connected'))
    await vi.waitFor(() => expect(seen).toHaveLength(1))
    expect(states).toEqual(['connecting', 'connecting', 'disconnected', 'connecting', 'connected'])
  })

  it('stops at once, saying why, when the host refuses the page', async () => {
    const fetchImpl = (async () => new Response('', { status: 403 })) as unknown as typeof fetch
    const events = createHttpGeoEvents('secret', fetchImpl, immediate)
    events.on('datasets.changed', () => undefined)
    await vi.waitFor(() => expect(events.connection.state).toBe('disconnected'))
    expect(events.connection.reason).toMatch(/refused this page/)
  })
})

describe('the status bar notice', () => {
  it('shows a disconnected stream as an alert with a button that reconnects', async () => {
    const host = flakyHost(3, [])
    const events = createHttpGeoEvents('secret', host.fetchImpl, immediate)
    vi.doMock('../../src/bridge', () => ({ eventsConnection: events.connection }))
    const { default: Notice } = await import('../../src/features/shell/EventsConnectionNotice.vue')
    render(Notice)
    events.on('datasets.changed', () => undefined)
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toMatch(/Live updates disconnected: the browser host did not answer/)
    await userEvent.setup().click(screen.getByRole('button', { name: 'Reconnect live updates' }))
    await vi.waitFor(() => expect(screen.queryByRole('alert')).toBeNull())
    expect(events.connection.state).toBe('connected')
  })
})
