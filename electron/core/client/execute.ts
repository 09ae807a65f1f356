import {
  BASE_URLS,
  credentialsOf,
  fail,
  geoError,
  GROUP_NAMES,
  GROUPS,
  type Group,
  ok,
  type BaseUrlKey,
  type BaseUrls,
  type CredentialName,
  type Fail,
  type FailureClass,
  type Result,
} from '../../contract'
import { requestFingerprint } from '../http/fingerprint'
import type { Redactor } from '../http/redactor'
import type { HttpRequest, HttpResponse, Transport, TransportFailure } from '../http/transport'
import type { HistoryRecorder } from '../workspace/request-history'

export type { Group }

/** §5: which credential each group uses, most specific first (the groups' table). */
export const CREDENTIALS_BY_GROUP = Object.fromEntries(
  GROUP_NAMES.map((g) => [g, credentialsOf(g)]),
) as Readonly<Record<Group, readonly CredentialName[]>>

/** Everything an operation module needs; built once by `createClient`. */
export interface ClientContext {
  /** The active profile's base URLs, or null when it has none (e.g. Local before the service runs). */
  urls(): Promise<BaseUrls | null>
  /** The active profile's server CA certificate (PEM), when it has one: trusted for its requests. */
  caCertificate?(): Promise<string | undefined>
  /** The credential for a group, or null when none is set. */
  credential(group: Group): Promise<string | null>
  transport: Transport
  redactor: Redactor
  history?: HistoryRecorder
  /** Fingerprints of state changes whose outcome is unknown in this session. */
  unknownOutcomes: Set<string>
}

export type QueryValue = string | null
/** Query parameters in order; a null value is a valueless flag sent as a bare key (`&bridge`). */
export type Query = Array<[string, QueryValue]>

export type Body =
  | { kind: 'json'; value: unknown }
  | { kind: 'form'; fields: Array<[string, string]> }
  | { kind: 'multipart'; field: string; fileName: string; contentType: string; bytes: Uint8Array }

export interface CallSpec<T> {
  operation: string
  group: Group
  base: BaseUrlKey
  method: 'GET' | 'POST'
  /** Path segments after the base URL; a function when the licence key is one of them. */
  path: (credential: string) => string[]
  query?: Query
  body?: Body
  /** Headers of this operation beyond Accept, Authorization and Content-Type (e.g. Idempotency-Key). */
  headers?: Record<string, string>
  replayable: boolean
  signal?: AbortSignal
  /** A reader of the answer while it arrives (`HttpRequest.reader`), for `interpret` to finish. */
  reader?: HttpRequest['reader']
  /** Turn a success status (2xx) into the operation's result. */
  interpret: (response: HttpResponse) => Result<T>
  /** Per-endpoint reading of a failure (e.g. a 404 that means "no data found"). */
  onFailure?: (failure: TransportFailure) => Fail | undefined
  /** Compute and report the request fingerprint (state changes). */
  fingerprint?: boolean
  /**
   * What the body means, for the fingerprint: the same alarm sent as JSON or as form data is the same
   * request. Defaults to the body as sent.
   */
  identity?: unknown
  /** Refuse to send when this fingerprint's outcome is unknown in this session, unless confirmed. */
  guardUnknownOutcome?: { confirm: boolean }
}

export interface BuiltRequest {
  method: 'GET' | 'POST'
  url: string
  headers: Record<string, string>
  body?: string | Uint8Array | FormData
  /** What the body is, for fingerprints and copied commands. */
  bodyText?: string
}

/** Encode one path segment, keeping `,` and `;` literal as the spec's position lists use them. */
export function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/%2C/gi, ',').replace(/%3B/gi, ';')
}

export function buildUrl(base: string, segments: string[], query: Query = []): string {
  const root = base.replace(/\/+$/, '')
  const path = segments.map(encodeSegment).join('/')
  const search = query
    .map(([name, value]) =>
      value === null ? encodeURIComponent(name) : `${encodeURIComponent(name)}=${encodeURIComponent(value)}`,
    )
    .join('&')
  return `${root}/${path}${search ? `?${search}` : ''}`
}

export function buildRequest(spec: CallSpec<unknown>, base: string, credential: string): BuiltRequest {
  const url = buildUrl(base, spec.path(credential), spec.query)
  const headers: Record<string, string> = {
    Accept: GROUPS[spec.group].accept,
  }
  if (GROUPS[spec.group].auth === 'bearer') headers.Authorization = `Bearer ${credential}`
  Object.assign(headers, spec.headers)
  const built: BuiltRequest = { method: spec.method, url, headers }
  const body = spec.body
  if (body?.kind === 'json') {
    headers['Content-Type'] = 'application/json'
    built.body = built.bodyText = JSON.stringify(body.value)
  } else if (body?.kind === 'form') {
    const form = new FormData()
    for (const [name, value] of body.fields) form.append(name, value)
    built.body = form
    built.bodyText = new URLSearchParams(body.fields).toString()
  } else if (body?.kind === 'multipart') {
    const form = new FormData()
    form.append(
      body.field,
      new Blob([body.bytes as Uint8Array<ArrayBuffer>], { type: body.contentType }),
      body.fileName,
    )
    built.body = form
  }
  return built
}

/** A short, redacted hint from an error answer's body: its message/error member or first line. */
export function providerHint(response: HttpResponse | undefined, redactor: Redactor): string {
  if (!response || response.body.byteLength === 0) return ''
  const text = new TextDecoder().decode(response.body.subarray(0, 4096))
  let hint = ''
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>
    const candidate = parsed.message ?? parsed.error ?? parsed.detail ?? parsed.error_description
    if (typeof candidate === 'string') hint = candidate
  } catch {
    if (!/^\s*</.test(text)) hint = text.split('\n')[0] ?? ''
  }
  hint = hint.trim().slice(0, 200)
  return hint ? ` — provider said: ${redactor.redact(hint)}` : ''
}

/** Parse a JSON answer; a truncated or malformed body is an error naming the operation. */
export function parseJson(operation: string, response: HttpResponse): Result<unknown> {
  const text = new TextDecoder().decode(response.body)
  if (!text.trim())
    return fail(
      'unclassified',
      `${operation}: the provider answered HTTP ${response.status} with an empty body where JSON was expected`,
      { status: response.status },
    )
  try {
    return ok(JSON.parse(text))
  } catch (error) {
    return fail(
      'unclassified',
      `${operation}: the provider's answer is not valid JSON (truncated or malformed, ${response.body.byteLength} bytes): ${(error as Error).message}`,
      { status: response.status },
    )
  }
}

/** Parse a JSON answer with a tolerant schema; a shape the schema cannot read names the operation and the field. */
export function parseWith<T>(
  operation: string,
  response: HttpResponse,
  schema: {
    safeParse(
      v: unknown,
    ):
      | { success: true; data: T }
      | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } }
  },
): Result<T> {
  const json = parseJson(operation, response)
  if (!json.ok) return json
  const parsed = schema.safeParse(json.value)
  if (parsed.success) return ok(parsed.data)
  const issue = parsed.error.issues[0]
  const at = issue?.path.map(String).join('.') || 'body'
  return fail(
    'unclassified',
    `${operation}: the provider's answer has an unexpected shape at ${at}: ${issue?.message ?? 'invalid'}`,
    {
      status: response.status,
    },
  )
}

function missingCredentialMessage(group: Group): string {
  const names = CREDENTIALS_BY_GROUP[group]
  const bearer = GROUPS[group].auth === 'bearer'
  const env = bearer ? 'GEO_ANALYST_TOKEN' : 'GEO_ANALYST_LICENCE_KEY'
  return `No ${bearer ? 'bearer token' : 'licence key'} for ${group}: set ${names.join(' or ')} for this profile (geo-analyst secret set ${names[0]}) or ${env}; nothing was sent`
}

/** The fingerprint of a built state change: method, redacted URL and what the body means. */
function fingerprintOf(spec: CallSpec<unknown>, built: BuiltRequest, redactor: Redactor): string {
  return requestFingerprint(
    {
      method: built.method,
      url: built.url,
      body: spec.identity !== undefined ? JSON.stringify(spec.identity) : built.bodyText,
    },
    redactor,
  )
}

/**
 * Whether `execute` would refuse this state change unsent: an identical one's outcome is unknown in this
 * session (and it is not confirmed).
 */
export async function refusedAsUnknown<T>(ctx: ClientContext, spec: CallSpec<T>): Promise<boolean> {
  if (!spec.fingerprint || !spec.guardUnknownOutcome || spec.guardUnknownOutcome.confirm) return false
  const base = (await ctx.urls())?.[spec.base]
  const credential = await ctx.credential(spec.group)
  if (!base || !credential) return false
  const built = buildRequest(spec as CallSpec<unknown>, base, credential)
  return ctx.unknownOutcomes.has(fingerprintOf(spec as CallSpec<unknown>, built, ctx.redactor))
}

/**
 * Run one operation: resolve URL and credential (missing → local-configuration, nothing sent), send
 * through the transport, read the answer, record the call in history. Never throws for a provider or
 * network failure; every message is redacted.
 */
export async function execute<T>(
  ctx: ClientContext,
  spec: CallSpec<T>,
): Promise<Result<T> & { fingerprint?: string }> {
  const started = Date.now()
  const note = async (
    url: string,
    result: Result<T>,
    extra: { status?: number; attempts: number; durationMs: number; fingerprint?: string },
  ) => {
    if (!ctx.history) return
    const entry = {
      time: new Date(started).toISOString(),
      operation: spec.operation,
      method: spec.method,
      url: ctx.redactor.redact(url),
      attempts: extra.attempts,
      durationMs: extra.durationMs,
      ...(extra.status !== undefined ? { status: extra.status } : {}),
      ...(result.ok
        ? {}
        : { failureClass: result.error.failureClass, message: ctx.redactor.redact(result.error.message) }),
      ...(extra.fingerprint ? { fingerprint: extra.fingerprint } : {}),
    }
    // History is best effort: a full disk must not turn a good answer into a failure.
    await ctx.history.record(entry).catch(() => undefined)
  }
  const local = async (failureClass: FailureClass, message: string, field?: string): Promise<Fail> => {
    const result = fail(failureClass, ctx.redactor.redact(message), field ? { field } : {})
    await note(spec.base, result, { attempts: 0, durationMs: 0 })
    return result
  }
  const urls = await ctx.urls()
  const base = urls?.[spec.base]
  if (!base) {
    return local(
      'local-configuration',
      `${spec.operation}: the active profile has no ${spec.base} (the {${spec.base}} base address); set it in the profile or ${BASE_URLS[spec.base].env}`,
      spec.base,
    )
  }
  const credential = await ctx.credential(spec.group)
  if (!credential)
    return local(
      'local-configuration',
      `${spec.operation}: ${missingCredentialMessage(spec.group)}`,
      CREDENTIALS_BY_GROUP[spec.group][0],
    )
  ctx.redactor.remember(credential)
  const built = buildRequest(spec as CallSpec<unknown>, base, credential)
  const fingerprint = spec.fingerprint ? fingerprintOf(spec, built, ctx.redactor) : undefined
  if (
    fingerprint &&
    spec.guardUnknownOutcome &&
    !spec.guardUnknownOutcome.confirm &&
    ctx.unknownOutcomes.has(fingerprint)
  ) {
    const result = fail(
      'unknown-outcome',
      `${spec.operation}: an identical request (fingerprint ${fingerprint}) was sent earlier in this session and its outcome is unknown; check whether it took effect, then resend with confirm to send it again`,
      { code: fingerprint },
    )
    await note(built.url, result, { attempts: 0, durationMs: 0, fingerprint })
    return { ...result, fingerprint }
  }
  const request: HttpRequest = {
    operation: spec.operation,
    method: built.method,
    url: built.url,
    headers: built.headers,
    body: built.body,
    replayable: spec.replayable,
    signal: spec.signal,
    ...(spec.reader ? { reader: spec.reader } : {}),
  }
  const caCertificate = await ctx.caCertificate?.()
  if (caCertificate) request.caCertificate = caCertificate
  const sent = await ctx.transport.send(request)
  let result: Result<T>
  let status: number | undefined
  if (sent.ok) {
    status = sent.response.status
    try {
      result = spec.interpret(sent.response)
    } catch (error) {
      result = fail(
        'unclassified',
        `${spec.operation}: could not read the provider's answer: ${(error as Error).message}`,
        { status },
      )
    }
  } else {
    const f = sent.failure
    status = f.response?.status
    const special = spec.onFailure?.(f)
    if (special) result = special
    else if (f.ambiguous && fingerprint) {
      ctx.unknownOutcomes.add(fingerprint)
      result = {
        ok: false,
        error: geoError(
          'unknown-outcome',
          `${f.error.message}; the outcome is unknown — it may or may not have taken effect (request fingerprint ${fingerprint}); it was not resent`,
          { ...(status !== undefined ? { status } : {}), code: fingerprint },
        ),
      }
    } else {
      result = {
        ok: false,
        error: { ...f.error, message: f.error.message + providerHint(f.response, ctx.redactor) },
      }
    }
  }
  if (!result.ok)
    result = { ok: false, error: { ...result.error, message: ctx.redactor.redact(result.error.message) } }
  await note(built.url, result, { status, attempts: sent.attempts, durationMs: sent.durationMs, fingerprint })
  return fingerprint ? { ...result, fingerprint } : result
}
