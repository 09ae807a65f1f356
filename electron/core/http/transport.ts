import { geoError, type FailureClass, type GeoError } from '../../contract'
import { classifyOutcome, outcomeOfFetchError, type AttemptOutcome } from './classify'
import type { Redactor } from './redactor'
import { parseRetryAfter } from './retry-after'
import { fetchTrusting } from './trusted-fetch'
import { DEFAULT_RETRY_POLICY, RetryPolicy, type RetryPolicyOptions } from './retry-policy'

/** One request as the client builds it; the transport adds nothing but timing and retries. */
export interface HttpRequest {
  /** The operation, e.g. `gis.join`, for messages and history. */
  operation: string
  method: 'GET' | 'POST'
  url: string
  headers?: Record<string, string>
  body?: string | Uint8Array | FormData
  /**
   * Whether the request may be sent again after an ambiguous failure: true for reads; false for state
   * changes (alarm creation, a join that saves a dataset, uploads), which are resent only when they
   * certainly never left (connection refused) or the provider explicitly refused them (429).
   */
  replayable: boolean
  signal?: AbortSignal
  /**
   * A reader of the answer as it arrives (a join's rows), one per attempt: given the bytes so far as they
   * come, so that reading them overlaps the provider's writing and the answer is read soon after its last
   * byte. Its work is kept on the response (`HttpResponse.reader`) for `interpret` to finish. Made with
   * the attempt's HTTP status, once its headers have come.
   */
  reader?: (status: number) => BodyReader
  /** The profile's server CA certificate (PEM): trusted for this request besides the system's CAs. */
  caCertificate?: string
}

/** Reads an answer while it arrives (see `HttpRequest.reader`). */
export interface BodyReader {
  /** The answer's bytes received so far, from its first: the same bytes again, and more, at each call. */
  feed(bytes: Uint8Array): void
  /** The answer's expected size in bytes, once the reader can tell (it sizes the buffer once), else undefined. */
  expectedBytes?(): number | undefined
}

export interface HttpResponse {
  status: number
  headers: Headers
  body: Uint8Array
  /** The request's reader, having been fed the whole body (absent when the request had none). */
  reader?: BodyReader
}

export interface TransportFailure {
  error: GeoError
  /** The provider may have acted on the request although no clear answer came back. */
  ambiguous: boolean
  /** The last answer, when there was one (its body helps to explain the error). */
  response?: HttpResponse
}

export interface CallStats {
  attempts: number
  durationMs: number
}

export type TransportResult = (
  { ok: true; response: HttpResponse } | { ok: false; failure: TransportFailure }
) &
  CallStats

export interface TransportOptions {
  retry?: Partial<RetryPolicyOptions>
  /** Answers larger than this are refused (default 32 MiB): a hostile or broken provider cannot exhaust memory. */
  maxResponseBytes?: number
  fetch?: typeof fetch
  now?: () => number
  random?: () => number
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  /** One redacted line per attempt, for the app log. */
  log?: (line: string) => void
}

export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CancelledError())
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(new CancelledError())
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

class CancelledError extends Error {
  constructor() {
    super('cancelled')
  }
}

class TooLargeError extends Error {
  constructor(readonly limit: number) {
    super('too large')
  }
}

async function readCapped(response: Response, limit: number, reader?: BodyReader): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined)
    throw new TooLargeError(limit)
  }
  if (!response.body) return new Uint8Array()
  const stream = response.body.getReader()
  if (reader) return readInto(stream, limit, reader, Number.isFinite(declared) ? declared : 0)
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await stream.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await stream.cancel().catch(() => undefined)
      throw new TooLargeError(limit)
    }
    chunks.push(value)
  }
  const out = new Uint8Array(size)
  let offset = 0
  for (const c of chunks) {
    out.set(c, offset)
    offset += c.byteLength
  }
  return out
}

/** Bytes received between two feeds of a reader: often enough to keep up, seldom enough to cost nothing. */
const FEED_BYTES = 1 << 20

/**
 * The answer into one buffer as it arrives, the reader fed the bytes so far after each megabyte. The buffer
 * starts at the declared length (or 1 MiB), grows past the reader's estimate of the whole once it has one
 * (by an eighth, or by half of itself when more), and doubles when a piece does not fit; the body is a view of it unless a quarter of it or more stayed unused.
 */
async function readInto(
  stream: ReadableStreamDefaultReader<Uint8Array>,
  limit: number,
  reader: BodyReader,
  declared: number,
): Promise<Uint8Array> {
  let buffer = new Uint8Array(Math.min(limit, declared || 1 << 20))
  let size = 0
  let fed = 0
  const grow = (to: number) => {
    const next = new Uint8Array(Math.min(limit, to))
    next.set(buffer.subarray(0, size))
    buffer = next
  }
  for (;;) {
    const { done, value } = await stream.read()
    if (done) break
    if (size + value.byteLength > limit) {
      await stream.cancel().catch(() => undefined)
      throw new TooLargeError(limit)
    }
    if (size + value.byteLength > buffer.length) grow(Math.max(size + value.byteLength, buffer.length * 2))
    buffer.set(value, size)
    size += value.byteLength
    if (size - fed >= FEED_BYTES) {
      reader.feed(buffer.subarray(0, size))
      fed = size
      // An estimate creeps up as rows grow longer: grow with room to spare, so it is not copied at every feed.
      const expected = reader.expectedBytes?.()
      if (expected !== undefined && expected > buffer.length)
        grow(Math.max(expected + (expected >> 3), buffer.length + (buffer.length >> 1)))
    }
  }
  if (size < buffer.length - (buffer.length >> 2)) return buffer.slice(0, size)
  return buffer.subarray(0, size)
}

function describe(outcome: AttemptOutcome, timeoutMs: number): string {
  switch (outcome.kind) {
    case 'response':
      return `HTTP ${outcome.status}`
    case 'unreachable':
      return `could not connect (${outcome.code})`
    case 'network':
      return `the connection failed (${outcome.code})`
    case 'timeout':
      return `no answer within ${timeoutMs / 1000} s`
    case 'cancelled':
      return 'cancelled by the caller'
    case 'too-large':
      return `the answer exceeded ${outcome.limit} bytes and was refused`
    case 'invalid-target':
      return `the address cannot be used (${outcome.reason}); check the profile's base URL`
    case 'untrusted-certificate':
      return `the server's TLS certificate is not trusted (${outcome.code}); if the server has its own CA, add its CA certificate to the profile (Settings, "Server CA certificate", or profile set NAME --ca-cert FILE)`
    case 'redirect':
      return `the provider redirected (HTTP ${outcome.status}); redirects are not followed so credentials never leave for another address`
  }
}

/**
 * fetch with a timeout per attempt, an overall time budget, classification of every outcome into the
 * §7 failure classes, retries of reads with backoff and full jitter (Retry-After honoured, capped),
 * caller cancellation, and a cap on the answer's size. Never throws for a network or HTTP failure.
 */
export class Transport {
  readonly policy: RetryPolicy
  private readonly maxResponseBytes: number
  private readonly fetchImpl: typeof fetch
  /** Whether `fetch` was given: then it serves every request, a profile's CA or not (tests). */
  private readonly fetchGiven: boolean
  private readonly now: () => number
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>
  private readonly log: (line: string) => void

  constructor(
    private readonly redactor: Redactor,
    options: TransportOptions = {},
  ) {
    this.policy = new RetryPolicy({ ...DEFAULT_RETRY_POLICY, ...options.retry }, options.random)
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES
    this.fetchImpl = options.fetch ?? ((...args) => fetch(...args))
    this.fetchGiven = options.fetch !== undefined
    this.now = options.now ?? Date.now
    this.sleep = options.sleep ?? abortableSleep
    this.log = options.log ?? (() => undefined)
  }

  async send(request: HttpRequest): Promise<TransportResult> {
    const started = this.now()
    const { attemptTimeoutMs, totalBudgetMs } = this.policy.options
    const where = `${request.operation} ${request.method} ${this.redactor.redact(request.url)}`
    let attempt = 0
    for (;;) {
      attempt++
      const elapsed = this.now() - started
      const timeoutMs = Math.max(1, Math.min(attemptTimeoutMs, totalBudgetMs - elapsed))
      const { outcome, response } = await this.attempt(request, timeoutMs)
      const stats = () => ({ attempts: attempt, durationMs: this.now() - started })
      const { failureClass, ambiguous, notSent } = classifyOutcome(outcome)
      this.log(`${where} attempt ${attempt}: ${describe(outcome, timeoutMs)}`)
      if (failureClass === null && response) return { ok: true, response, ...stats() }
      const cls = failureClass ?? 'unclassified'
      if (outcome.kind === 'cancelled') {
        return {
          ok: false,
          failure: this.failure(
            cls,
            `${where}: ${describe(outcome, timeoutMs)}`,
            ambiguous && !request.replayable,
            response,
            'cancelled',
          ),
          ...stats(),
        }
      }
      const retryAfterMs = response
        ? parseRetryAfter(response.headers.get('retry-after'), this.now())
        : undefined
      const explicitRefusal = outcome.kind === 'response' && outcome.status === 429
      const decision = this.policy.decide({
        failureClass: cls,
        attempt,
        elapsedMs: this.now() - started,
        replayable: request.replayable || notSent || explicitRefusal,
        retryAfterMs,
      })
      if (decision.retry) {
        try {
          await this.sleep(decision.delayMs, request.signal)
        } catch {
          return {
            ok: false,
            failure: this.failure(
              cls,
              `${where}: cancelled by the caller while waiting to retry`,
              false,
              response,
              'cancelled',
            ),
            ...stats(),
          }
        }
        continue
      }
      let message = `${where}: ${describe(outcome, timeoutMs)}`
      if (attempt > 1) message += ` after ${attempt} attempts`
      if (decision.reason === 'retry-after-too-long' && retryAfterMs !== undefined) {
        message += `; the provider asked to wait ${Math.ceil(retryAfterMs / 1000)} s, longer than the ${this.policy.options.retryAfterCapMs / 1000} s this app waits by itself`
      }
      if (decision.reason === 'not-replayable' && ambiguous)
        message += '; not resent automatically because it changes state'
      const failure = this.failure(cls, message, ambiguous && !request.replayable, response)
      if (retryAfterMs !== undefined) failure.error.retryAfterSeconds = Math.ceil(retryAfterMs / 1000)
      return { ok: false, failure, ...stats() }
    }
  }

  private failure(
    failureClass: FailureClass,
    message: string,
    ambiguous: boolean,
    response: HttpResponse | undefined,
    code?: string,
  ): TransportFailure {
    const extra: Partial<GeoError> = {}
    if (response) extra.status = response.status
    if (code) extra.code = code
    return { error: geoError(failureClass, this.redactor.redact(message), extra), ambiguous, response }
  }

  private async attempt(
    request: HttpRequest,
    timeoutMs: number,
  ): Promise<{ outcome: AttemptOutcome; response?: HttpResponse }> {
    if (request.signal?.aborted) return { outcome: { kind: 'cancelled' } }
    const controller = new AbortController()
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      controller.abort()
    }, timeoutMs)
    const onCallerAbort = () => controller.abort()
    request.signal?.addEventListener('abort', onCallerAbort, { once: true })
    try {
      const fetchImpl =
        request.caCertificate && !this.fetchGiven ? fetchTrusting(request.caCertificate) : this.fetchImpl
      const res = await fetchImpl(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body as RequestInit['body'],
        signal: controller.signal,
        redirect: 'manual',
      })
      if (res.status >= 300 && res.status < 400) {
        await res.body?.cancel().catch(() => undefined)
        return { outcome: { kind: 'redirect', status: res.status } }
      }
      const reader = request.reader?.(res.status)
      const body = await readCapped(res, this.maxResponseBytes, reader)
      return {
        outcome: { kind: 'response', status: res.status },
        response: { status: res.status, headers: res.headers, body, ...(reader ? { reader } : {}) },
      }
    } catch (error) {
      if (error instanceof TooLargeError) return { outcome: { kind: 'too-large', limit: error.limit } }
      if (request.signal?.aborted) return { outcome: { kind: 'cancelled' } }
      if (timedOut) return { outcome: { kind: 'timeout' } }
      return { outcome: outcomeOfFetchError(error) }
    } finally {
      clearTimeout(timer)
      request.signal?.removeEventListener('abort', onCallerAbort)
    }
  }
}
