import { AsyncLocalStorage } from 'node:async_hooks'
import type { IncomingMessage } from 'node:http'
import type { ServiceGroup } from '../auth'

/**
 * Who a request acts for. A service started with one token (the desktop app's loopback service) has one
 * principal, `LOCAL_PRINCIPAL`; a team server (`serve --users FILE`) has one per user of its users file.
 * The router decides it once per request (after authentication) and the rest of the service reads it from
 * here: the worker pool (per-user fairness), writes (owner attribution) and the audit log.
 */
export interface Principal {
  /** The user's name in the users file; `local` for the single-token service. */
  user: string
  /** The operation groups the user may call; `all` for the single-token service. */
  groups: readonly ServiceGroup[] | 'all'
  /** A read-only user gets 403 for every write (save as dataset, import, alarm creation, …). */
  readOnly: boolean
}

export const LOCAL_PRINCIPAL: Principal = Object.freeze({ user: 'local', groups: 'all', readOnly: false })

const current = new AsyncLocalStorage<Principal>()
const byRequest = new WeakMap<IncomingMessage, Principal>()

/** Run `work` (and everything it awaits) as `principal`, and remember it for the request. */
export function runAs<T>(principal: Principal, req: IncomingMessage | null, work: () => T): T {
  if (req) byRequest.set(req, principal)
  return current.run(principal, work)
}

/** The principal of the request being handled (undefined outside a request, e.g. at start-up). */
export function currentPrincipal(): Principal | undefined {
  return current.getStore()
}

/** Remember who a request was authenticated as before it runs (a 403 for it names them in the audit log). */
export function notePrincipal(req: IncomingMessage, principal: Principal): void {
  byRequest.set(req, principal)
}

/** The principal a request was authenticated as, once the router has decided it (for the audit log). */
export function principalOf(req: IncomingMessage): Principal | undefined {
  return byRequest.get(req)
}

/**
 * What the router found for a request, for the audit log: the route's method and path pattern (never the
 * raw path: a path segment may be the licence key), whether it writes, and its named path segments.
 */
export interface RouteInfo {
  /** `POST /mgis/query_apply/join`: the method and the route's path pattern. */
  pattern: string
  /** Whether the request changes the workspace; undefined when the router does not know (then: not GET). */
  write?: boolean
  /** The named path segments, percent-decoded (the audit picks only names it knows, never `key`). */
  params?: Readonly<Record<string, string>>
}

const routes = new WeakMap<IncomingMessage, RouteInfo>()

/** Remember the route a request was matched to (the router calls it once it has found the route). */
export function noteRoute(req: IncomingMessage, info: RouteInfo): void {
  routes.set(req, info)
}

/** Say whether the request is a write, once known (e.g. a join is one only when it saves a dataset). */
export function noteWrite(req: IncomingMessage, write: boolean): void {
  const info = routes.get(req)
  if (info) routes.set(req, { ...info, write })
}

/** The route a request was matched to; undefined before the router found one (or when none matched). */
export function routeOf(req: IncomingMessage): RouteInfo | undefined {
  return routes.get(req)
}

/**
 * The user a dataset saved now is recorded as owned by: the request's user on a team server; undefined
 * for the single-token service (`LOCAL_PRINCIPAL`: one user, nothing to tell apart) and outside a request.
 */
export function currentOwner(): string | undefined {
  const principal = current.getStore()
  return principal && principal !== LOCAL_PRINCIPAL && principal.user !== LOCAL_PRINCIPAL.user
    ? principal.user
    : undefined
}
