import { timingSafeEqual } from 'node:crypto'

export const SESSION_HEADER = 'x-geo-session'

export interface RequestFacts {
  host: string | undefined
  origin: string | undefined
  secFetchSite: string | undefined
  session: string | undefined
}

export type GuardDecision = { allow: true } | { allow: false; status: number; reason: string }

/** The origins the browser host's own page has. */
export function ownOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`]
}

/**
 * Every request: the Host header must name this loopback server (no DNS rebinding). API requests also
 * need the per-run secret, and a browser request must come from the host's own origin.
 */
export function guardRequest(facts: RequestFacts, port: number, secret: string, api: boolean): GuardDecision {
  const hosts = ownOrigins(port).map((o) => o.slice('http://'.length))
  if (!facts.host || !hosts.includes(facts.host.toLowerCase())) {
    return {
      allow: false,
      status: 421,
      reason: 'This server answers only as 127.0.0.1 or localhost on its own port.',
    }
  }
  if (!api) return { allow: true }
  if (facts.origin !== undefined && !ownOrigins(port).includes(facts.origin)) {
    return { allow: false, status: 403, reason: 'Refused: request from a foreign origin.' }
  }
  if (facts.secFetchSite !== undefined && !['same-origin', 'none'].includes(facts.secFetchSite)) {
    return { allow: false, status: 403, reason: 'Refused: cross-site request.' }
  }
  if (!facts.session || !sameSecret(facts.session, secret)) {
    return {
      allow: false,
      status: 401,
      reason: 'Refused: missing or wrong session secret; open the URL the host printed.',
    }
  }
  return { allow: true }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}
