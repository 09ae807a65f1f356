import type { IncomingMessage, ServerResponse } from 'node:http'
import { GROUPS } from '../contract/groups'
import { bearerToken, type Entitlements, type ServiceGroup } from './auth'
import { errorBody, HttpError, readJsonOrFormBody, readJsonBody, sendJson } from './http-util'
import { singleSecretCredentials, type Credentials, type CredentialScheme } from './team/credentials'
import { notePrincipal, noteRoute, noteWrite, runAs, type Principal } from './team/principal'

/**
 * How a route is authenticated (spec §5): a bearer token in the Authorization header, the licence key as a
 * named path segment (the distance matrix), or nothing (never used for the spec's operations).
 */
export type AuthScheme = { kind: 'bearer' } | { kind: 'licence-key'; segment: string } | { kind: 'none' }

export const BEARER: AuthScheme = { kind: 'bearer' }
export const licenceKeySegment = (segment: string): AuthScheme => ({ kind: 'licence-key', segment })

/**
 * What a route's body is. The router reads `json` and `json-or-form` bodies before the handler runs (under the
 * service's size limit); `multipart` and `stream` bodies are left on the request for the handler to stream.
 */
export type BodyKind = 'none' | 'json' | 'json-or-form' | 'multipart' | 'stream'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'

/** A JSON answer a handler may return instead of writing to the response itself. */
export interface Reply {
  status: number
  body: unknown
  headers?: Record<string, string>
}

export interface RouteRequest {
  req: IncomingMessage
  res: ServerResponse
  url: URL
  /** Named path segments, percent-decoded. */
  params: Readonly<Record<string, string>>
  query: URLSearchParams
  /** The parsed body for `json` and `json-or-form` routes (undefined when empty). */
  body: unknown
  /** Aborted when the client goes away before the answer is complete. */
  signal: AbortSignal
}

export interface Route {
  method: HttpMethod
  /** A path with named segments, e.g. `/advancedmaps/:key/:resource/:profile/:positions`. */
  path: string
  auth: AuthScheme
  body: BodyKind
  /**
   * Whether the request changes the workspace (saves, imports, deletes, creates a configuration): a
   * read-only user gets 403 for it. A function decides per request (a join writes only when it saves a
   * dataset); it sees the request before its body is read.
   */
  write?: boolean | ((request: WriteCheck) => boolean)
  handle(request: RouteRequest): Promise<Reply | void>
}

/** What a route's `write` function sees: the request before its body is read. */
export type WriteCheck = Pick<RouteRequest, 'req' | 'url' | 'params' | 'query'>

/** The operation groups and the path prefixes their routes live under (architecture, "Local service"). */
export interface GroupPrefix {
  prefix: string
  group: ServiceGroup
}

interface CompiledRoute {
  route: Route
  group: ServiceGroup
  /** Literal segment, or null for a named one (its name in `names` at the same index). */
  literals: Array<string | null>
  names: Array<string | null>
}

export interface RouterOptions {
  groups: readonly GroupPrefix[]
  secrets: { token: string; licenceKey: string }
  entitlements: Entitlements
  maxBodyBytes: number
  /**
   * Who may call: the users of a users file (`serve --users`). Absent: the one token and licence key of
   * `secrets`, acting as the local principal.
   */
  credentials?: Credentials
}

/** Percent-decode every segment of a path; null when an escape is malformed (`%ZZ`, a cut UTF-8 sequence). */
export function decodeSegments(pathname: string): string[] | null {
  const raw = pathname.split('/').slice(1)
  if (raw.length > 0 && raw[raw.length - 1] === '') raw.pop()
  try {
    return raw.map((s) => decodeURIComponent(s))
  } catch {
    return null
  }
}

/** The path and query of a request target; null when the target cannot be read as a path. */
export function requestTarget(target: string | undefined): { pathname: string; search: string } | null {
  const value = target ?? '/'
  if (!value.startsWith('/') || value.startsWith('//')) return null
  const q = value.indexOf('?')
  const pathname = q < 0 ? value : value.slice(0, q)
  const search = q < 0 ? '' : value.slice(q)
  if (/[\s#]/.test(pathname) || /\p{Cc}/u.test(pathname)) return null
  return { pathname, search }
}

function compile(route: Route, groups: readonly GroupPrefix[]): CompiledRoute {
  const group = groupOf(route.path, groups)?.group
  if (!group) throw new Error(`route ${route.method} ${route.path} is under no group prefix`)
  const parts = route.path.split('/').slice(1)
  const names = parts.map((p) => (p.startsWith(':') ? p.slice(1) : null))
  if (route.auth.kind === 'licence-key' && !names.includes(route.auth.segment)) {
    throw new Error(`route ${route.path} names no segment :${route.auth.segment} for its licence key`)
  }
  return { route, group, literals: parts.map((p) => (p.startsWith(':') ? null : p)), names }
}

function groupOf(pathname: string, groups: readonly GroupPrefix[]): GroupPrefix | undefined {
  // Longest prefix first, so /mgis/v2 wins over /mgis.
  let best: GroupPrefix | undefined
  for (const g of groups) {
    if (
      (pathname === g.prefix || pathname.startsWith(g.prefix + '/')) &&
      g.prefix.length > (best?.prefix.length ?? -1)
    )
      best = g
  }
  return best
}

function unauthorizedHeaders(status: number, scheme: 'bearer' | 'licence-key'): Record<string, string> {
  return status === 401 && scheme === 'bearer' ? { 'www-authenticate': 'Bearer' } : {}
}

function matchSegments(route: CompiledRoute, segments: readonly string[]): Record<string, string> | null {
  if (route.literals.length !== segments.length) return null
  const params: Record<string, string> = {}
  for (let i = 0; i < segments.length; i++) {
    const literal = route.literals[i]
    const segment = segments[i]!
    if (literal === null) {
      if (segment === '') return null
      params[route.names[i]!] = segment
    } else if (literal !== segment) return null
  }
  return params
}

export type Dispatch = (req: IncomingMessage, res: ServerResponse) => Promise<void>

/**
 * The local service's router: method + path patterns with named segments, grouped by operation group.
 * Order of checks: a target that cannot be read or a malformed %-escape → 400; no route for the path → 404
 * under a group whose area is implemented, 501 under one that is not, 404 elsewhere; the route's auth
 * (401/403) before anything else about it; a wrong method → 405 with Allow; the body read per its kind.
 */
export function createRouter(routes: readonly Route[], options: RouterOptions): Dispatch {
  const compiled = routes.map((r) => compile(r, options.groups))
  const credentials = options.credentials ?? singleSecretCredentials(options.secrets)

  /** 401/403 answered here (and undefined returned), or who the request acts for. */
  const authenticate = async (
    req: IncomingMessage,
    res: ServerResponse,
    group: ServiceGroup,
    presented: string | undefined,
    scheme: CredentialScheme,
  ): Promise<Principal | undefined> => {
    const auth = await credentials.authenticate(presented, scheme, req.socket.remoteAddress)
    if (auth.ok) notePrincipal(req, auth.principal)
    const refusal = auth.ok ? groupRefusal(auth.principal, group, options.entitlements) : auth.message
    if (auth.ok && refusal === undefined) return auth.principal
    const status = auth.ok ? 403 : 401
    sendJson(res, status, errorBody(status, refusal ?? ''), unauthorizedHeaders(status, scheme))
    return undefined
  }
  const implemented = new Set(compiled.map((c) => c.group))
  const prefixes = options.groups.map((g) => g.prefix)

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const target = requestTarget(req.url)
    if (!target) {
      sendJson(res, 400, errorBody(400, 'the request target is not a path'))
      return
    }
    const segments = decodeSegments(target.pathname)
    if (!segments) {
      sendJson(res, 400, errorBody(400, 'the path has a malformed percent-escape (e.g. %ZZ)'))
      return
    }
    const pathname = target.pathname.replace(/\/+$/, '') || '/'
    const groupPrefix = groupOf(pathname, options.groups)
    const group = groupPrefix?.group
    // A path that carries the licence key is never echoed back: only its prefix.
    const keyedPath =
      groupPrefix && GROUPS[groupPrefix.group].auth === 'licence-key-path'
        ? `${groupPrefix.prefix}/…`
        : undefined
    const candidates: Array<{ c: CompiledRoute; params: Record<string, string> }> = []
    for (const c of compiled) {
      const params = matchSegments(c, segments)
      if (params) candidates.push({ c, params })
    }
    if (candidates.length === 0) {
      // Under a group, the credential is checked first by the group's own scheme (the licence key is the
      // segment after /advancedmaps), so a caller without one learns nothing about which paths exist.
      if (groupPrefix) {
        const keyed = GROUPS[groupPrefix.group].auth === 'licence-key-path'
        const presented = keyed
          ? segments[groupPrefix.prefix.split('/').length - 1] || undefined
          : bearerToken(req.headers.authorization)
        const scheme = keyed ? 'licence-key' : 'bearer'
        if (!(await authenticate(req, res, groupPrefix.group, presented, scheme))) return
      }
      if (group && !implemented.has(group)) {
        const shown = keyedPath ?? pathname
        sendJson(
          res,
          501,
          errorBody(
            501,
            `not implemented by the local service yet: ${req.method} ${shown} (group ${group})`,
            {
              group,
            },
          ),
        )
        return
      }
      sendJson(
        res,
        404,
        errorBody(
          404,
          `no such path: ${keyedPath ?? pathname.slice(0, 200)}; the service answers under ${prefixes.join(', ')}`,
        ),
      )
      return
    }
    const found = candidates.find(({ c }) => c.route.method === req.method) ?? candidates[0]!
    const { route, group: routeGroup } = found.c
    noteRoute(req, { pattern: `${route.method} ${route.path}`, params: found.params })
    const presented =
      route.auth.kind === 'licence-key'
        ? found.params[route.auth.segment] || undefined
        : route.auth.kind === 'bearer'
          ? bearerToken(req.headers.authorization)
          : undefined
    let principal: Principal | undefined
    if (route.auth.kind !== 'none') {
      principal = await authenticate(req, res, routeGroup, presented, route.auth.kind)
      if (!principal) return
    }
    if (route.method !== req.method) {
      const allow = [...new Set(candidates.map(({ c }) => c.route.method))].join(', ')
      sendJson(res, 405, errorBody(405, `${req.method} is not allowed here; use ${allow}`), { allow })
      return
    }
    const url = new URL(pathname + target.search, 'http://127.0.0.1')
    const query = new URLSearchParams(target.search)
    noteWrite(req, isWrite(route, { req, url, params: found.params, query }))
    if (principal?.readOnly && isWrite(route, { req, url, params: found.params, query })) {
      const message = `user ${principal.user} is read-only: ${route.method} ${route.path} changes the workspace`
      sendJson(res, 403, errorBody(403, message))
      return
    }
    const handle = () => answer(req, res, route, { url, params: found.params, query })
    await (principal ? runAs(principal, req, handle) : handle())
  }

  const answer = async (
    req: IncomingMessage,
    res: ServerResponse,
    route: Route,
    at: Pick<RouteRequest, 'url' | 'params' | 'query'>,
  ): Promise<void> => {
    const controller = new AbortController()
    res.on('close', () => {
      if (!res.writableFinished) controller.abort()
    })
    let body: unknown
    if (route.body === 'json') body = await readJsonBody(req, options.maxBodyBytes)
    else if (route.body === 'json-or-form') body = await readJsonOrFormBody(req, options.maxBodyBytes)
    const reply = await route.handle({ req, res, ...at, body, signal: controller.signal })
    if (reply) sendJson(res, reply.status, reply.body, reply.headers)
  }
  // Nothing a request does may end the process: every failure becomes an answer, or a cut response once
  // part of one is out.
  return (req, res) =>
    route(req, res).catch((error: unknown) => {
      if (res.headersSent) res.destroy()
      else answerError(req, res, error)
    })
}

/** Why `principal` may not call `group`'s operations (403), or undefined when it may. */
function groupRefusal(
  principal: Principal,
  group: ServiceGroup,
  entitlements: Entitlements,
): string | undefined {
  if (entitlements[group] === false) return `this credential is not entitled to the ${group} operations`
  if (principal.groups !== 'all' && !principal.groups.includes(group))
    return `user ${principal.user} is not granted the ${group} operations (granted: ${principal.groups.join(', ') || 'none'})`
  return undefined
}

/**
 * A `write` that holds when the query carries `name` with any value but false (`saveAsNewDataset=true` on a
 * join): a value the route will refuse as invalid counts as a write too, so a read-only user learns nothing more.
 */
export function unlessQueryFlagFalse(name: string): (request: WriteCheck) => boolean {
  return ({ query }) => query.getAll(name).some((value) => value.trim().toLowerCase() !== 'false')
}

function isWrite(route: Route, request: WriteCheck): boolean {
  return typeof route.write === 'function' ? route.write(request) : route.write === true
}

/** Answer any error a route throws: its own status for an HttpError, else a short 500 (never a stack). */
export function answerError(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  if (error instanceof HttpError) {
    // A body refused unread: say so and close, draining what the client still sends so it reads the 413.
    const closing: Record<string, string> = error.status === 413 ? { connection: 'close' } : {}
    if (error.status === 413) req.resume()
    sendJson(res, error.status, errorBody(error.status, error.message, error.extra), {
      ...error.headers,
      ...closing,
    })
    return
  }
  const message = error instanceof Error ? error.message.slice(0, 200) : 'unknown'
  sendJson(res, 500, errorBody(500, `internal error: ${message}`))
}
