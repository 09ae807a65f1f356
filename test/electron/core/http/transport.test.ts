import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RETRY_BY_CLASS, classifyStatus } from '../../../../electron/contract'
import { Redactor } from '../../../../electron/core/http/redactor'
import { Transport, type HttpRequest, type TransportOptions } from '../../../../electron/core/http/transport'
import { FakeProvider } from '../../../support/fake-provider'

let fake: FakeProvider
let delays: number[]

beforeEach(async () => {
  fake = await new FakeProvider().start()
  delays = []
})
afterEach(() => fake.stop())

function transport(options: TransportOptions = {}) {
  return new Transport(new Redactor(), {
    random: () => 0.5,
    sleep: async (ms) => {
      delays.push(ms)
    },
    ...options,
    retry: { attemptTimeoutMs: 2_000, ...options.retry },
  })
}

const read = (path = '/r'): HttpRequest => ({
  operation: 'test.read',
  method: 'GET',
  url: `${fake.base}${path}`,
  replayable: true,
})
const write = (path = '/w'): HttpRequest => ({
  operation: 'test.write',
  method: 'POST',
  url: `${fake.base}${path}`,
  body: '{"a":1}',
  replayable: false,
})

describe('Transport: the §7 failure-class table, each class with its retry behaviour', () => {
  const statuses = [
    400, 405, 411, 413, 415, 422, 401, 403, 404, 410, 409, 412, 428, 429, 408, 504, 500, 502, 503, 507, 202,
    418,
  ]
  for (const status of statuses) {
    const cls = classifyStatus(status)!
    const retries = ['bounded-retry', 'retry-after'].includes(RETRY_BY_CLASS[cls])
    it(`${status} is ${cls} and a read is ${retries ? 'retried' : 'not retried'}`, async () => {
      fake.on('/r', { status, json: { message: 'no' } }, { status: 200, json: { fine: true } })
      const r = await transport().send(read())
      expect(fake.to('/r')).toHaveLength(retries ? 2 : 1)
      if (retries) expect(r.ok).toBe(true)
      else
        expect(r.ok ? null : r.failure.error).toMatchObject({
          failureClass: cls,
          status,
          retry: RETRY_BY_CLASS[cls],
        })
    })
  }
})

describe('Transport retries', () => {
  it('retries 5xx with full-jitter backoff inside the attempt budget, then reports the last failure', async () => {
    fake.on('/r', { status: 503 })
    const r = await transport({
      random: () => 0.999,
      retry: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 250 },
    }).send(read())
    expect(fake.to('/r')).toHaveLength(4)
    expect(r).toMatchObject({
      ok: false,
      attempts: 4,
      failure: { error: { failureClass: 'provider-unavailable', status: 503 } },
    })
    // Full jitter: uniform below min(max, base·2^(n-1)) — 100, 200, then capped at 250.
    expect(delays).toEqual([99, 199, 249])
    expect(r.ok ? '' : r.failure.error.message).toMatch(/after 4 attempts/)
  })

  it('honours Retry-After in seconds', async () => {
    fake.on('/r', { status: 429, headers: { 'Retry-After': '3' } }, { status: 200, json: {} })
    const r = await transport().send(read())
    expect(r.ok).toBe(true)
    expect(delays).toEqual([3000])
  })

  it('honours Retry-After as an HTTP date', async () => {
    const now = Date.parse('2026-01-01T00:00:00Z')
    fake.on(
      '/r',
      { status: 429, headers: { 'Retry-After': 'Thu, 01 Jan 2026 00:00:07 GMT' } },
      { status: 200, json: {} },
    )
    const r = await transport({ now: () => now }).send(read())
    expect(r.ok).toBe(true)
    expect(delays).toEqual([7000])
  })

  it('does not wait longer than the cap: reports rate-limited with the time the provider asked for', async () => {
    fake.on('/r', { status: 429, headers: { 'Retry-After': '3600' } }, { status: 200, json: {} })
    const r = await transport().send(read())
    expect(fake.to('/r')).toHaveLength(1)
    expect(r.ok ? null : r.failure.error).toMatchObject({
      failureClass: 'rate-limited',
      retryAfterSeconds: 3600,
      retry: 'retry-after',
    })
    expect(delays).toEqual([])
  })

  it('stops at the time budget', async () => {
    let clock = 0
    fake.on('/r', { status: 500 })
    const t = transport({
      now: () => clock,
      sleep: async (ms) => {
        delays.push(ms)
        clock += ms
      },
      retry: { maxAttempts: 10, totalBudgetMs: 1_000, baseDelayMs: 400, maxDelayMs: 400 },
      random: () => 0.99,
    })
    const r = await t.send(read())
    expect(r.ok).toBe(false)
    expect(delays.reduce((a, b) => a + b, 0)).toBeLessThan(1_000)
    expect(fake.to('/r').length).toBeLessThan(10)
  })

  it('times out a hanging provider per attempt and retries a read within budget', async () => {
    fake.on('/r', { hang: true })
    const r = await transport({ retry: { attemptTimeoutMs: 150, maxAttempts: 2 } }).send(read())
    expect(fake.to('/r')).toHaveLength(2)
    expect(r.ok ? null : r.failure.error).toMatchObject({ failureClass: 'timeout-network' })
    expect(r.ok ? '' : r.failure.error.message).toMatch(/no answer within 0\.15 s/)
  })

  it('retries a read after a connection reset once the request was received', async () => {
    fake.on('/r', { reset: true }, { status: 200, json: { ok: 1 } })
    const r = await transport().send(read())
    expect(r).toMatchObject({ ok: true, attempts: 2 })
  })

  it('never resends a state change after a reset or a timeout, and marks it ambiguous', async () => {
    fake.on('/w', { reset: true }, { status: 200, json: {} })
    const r = await transport().send(write())
    expect(fake.to('/w')).toHaveLength(1)
    expect(r).toMatchObject({
      ok: false,
      failure: { ambiguous: true, error: { failureClass: 'timeout-network' } },
    })
    fake.on('/w2', { hang: true })
    const t = await transport({ retry: { attemptTimeoutMs: 100 } }).send(write('/w2'))
    expect(fake.to('/w2')).toHaveLength(1)
    expect(t).toMatchObject({ ok: false, failure: { ambiguous: true } })
  })

  it('resends a state change that never left (connection refused)', async () => {
    const closed = await new FakeProvider().start()
    const url = `${closed.base}/w`
    await closed.stop()
    const r = await transport({ retry: { maxAttempts: 2 } }).send({ ...write(), url })
    expect(r).toMatchObject({
      ok: false,
      attempts: 2,
      failure: { ambiguous: false, error: { failureClass: 'timeout-network' } },
    })
  })

  it('refuses an oversized answer instead of holding it', async () => {
    fake.on('/r', { oversized: 2 * 1024 * 1024 })
    const r = await transport({ maxResponseBytes: 256 * 1024 }).send(read())
    expect(r.ok ? null : r.failure.error).toMatchObject({ failureClass: 'unclassified' })
    expect(r.ok ? '' : r.failure.error.message).toMatch(/exceeded 262144 bytes/)
    expect(fake.to('/r')).toHaveLength(1)
  })

  it('feeds a reader the answer so far as it arrives and hands it over with the whole body', async () => {
    const body = Buffer.from(Array.from({ length: 200_000 }, (_, i) => `row ${i};`).join(''))
    fake.on('/r', { stream: body, piece: 64 * 1024 })
    const fed: number[] = []
    let prefixes = true
    const reader = {
      feed(bytes: Uint8Array) {
        fed.push(bytes.length)
        prefixes &&= Buffer.from(bytes).equals(body.subarray(0, bytes.length))
      },
    }
    const r = await transport().send({ ...read(), reader: () => reader })
    if (!r.ok) throw new Error(r.failure.error.message)
    expect(Buffer.from(r.response.body).equals(body)).toBe(true)
    expect(r.response.reader).toBe(reader)
    // Fed after each megabyte or so, each time the same bytes again and more, all before the end.
    expect(fed.length).toBeGreaterThanOrEqual(Math.floor(body.length / (1 << 20)) - 1)
    expect(fed.every((n, i) => n < body.length && (i === 0 || n > fed[i - 1]!))).toBe(true)
    expect(prefixes).toBe(true)
  })

  it('sizes the buffer by the reader’s estimate, and never hands over one mostly empty', async () => {
    const body = Buffer.alloc(3 * 1024 * 1024 + 17, 0x61)
    for (const estimate of [body.length + 1024, 64 * 1024 * 1024, undefined]) {
      fake.on('/r', { stream: body, piece: 64 * 1024 })
      const r = await transport().send({
        ...read(),
        reader: () => ({ feed: () => undefined, expectedBytes: () => estimate }),
      })
      if (!r.ok) throw new Error(r.failure.error.message)
      expect(Buffer.from(r.response.body).equals(body)).toBe(true)
      // The body's buffer is what crosses to the renderer: at most a quarter of it unused.
      expect(r.response.body.buffer.byteLength).toBeLessThanOrEqual(Math.ceil(body.length * 1.34))
    }
  })

  it('refuses an oversized answer read by a reader too', async () => {
    fake.on('/r', { oversized: 2 * 1024 * 1024 })
    const r = await transport({ maxResponseBytes: 256 * 1024 }).send({
      ...read(),
      reader: () => ({ feed: () => undefined, expectedBytes: () => 1 << 30 }),
    })
    expect(r.ok ? '' : r.failure.error.message).toMatch(/exceeded 262144 bytes/)
  })

  /** Abort once the fake server has received a request on `path` (polled, bounded). */
  async function abortWhenReceived(path: string, controller: AbortController): Promise<void> {
    for (let i = 0; i < 1000 && fake.to(path).length === 0; i++) await new Promise((r) => setTimeout(r, 5))
    controller.abort()
  }

  it('stops at once when the caller cancels, during an attempt or while waiting', async () => {
    fake.on('/r', { hang: true })
    const controller = new AbortController()
    // Cancel once the attempt is under way (the server has the request), however slow the machine.
    void abortWhenReceived('/r', controller)
    const started = Date.now()
    const r = await new Transport(new Redactor()).send({ ...read(), signal: controller.signal })
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(r.ok ? null : r.failure.error).toMatchObject({ code: 'cancelled' })
    expect(fake.to('/r')).toHaveLength(1)

    fake.on('/s', { status: 503 })
    const c2 = new AbortController()
    // Cancel while waiting 10 s before the retry: after the first attempt was answered.
    void abortWhenReceived('/s', c2)
    const r2 = await new Transport(new Redactor(), {
      retry: { baseDelayMs: 10_000, maxDelayMs: 10_000 },
      random: () => 0.9,
    }).send({
      ...read('/s'),
      signal: c2.signal,
    })
    expect(r2.ok ? null : r2.failure.error).toMatchObject({ code: 'cancelled' })
    expect(fake.to('/s')).toHaveLength(1)
  })

  it('does not follow redirects, so credentials never travel to another address', async () => {
    fake.on('/r', { status: 302, headers: { location: 'http://127.0.0.1:9/elsewhere' } })
    const r = await transport().send(read())
    expect(r.ok ? null : r.failure.error.message).toMatch(/redirect/)
  })
})

describe('Transport: addresses fetch refuses', () => {
  it('a blocked port is local-configuration, sent nowhere and not retried', async () => {
    const r = await transport().send({ ...read(), url: 'http://127.0.0.1:9/x' })
    expect(r).toMatchObject({
      ok: false,
      attempts: 1,
      failure: { error: { failureClass: 'local-configuration' } },
    })
    expect(r.ok ? '' : r.failure.error.message).toMatch(/bad port/)
  })
})
