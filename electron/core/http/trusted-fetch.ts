import { createHash } from 'node:crypto'
import { rootCertificates } from 'node:tls'
import { Agent, fetch as undiciFetch } from 'undici'

/** Profiles with their own CA seldom number more than a few; past this the least recently used agent closes. */
const MAX_AGENTS = 8

const agents = new Map<string, Agent>()

function agentFor(caCertificate: string): Agent {
  const key = createHash('sha256').update(caCertificate).digest('hex')
  let agent = agents.get(key)
  if (agent) {
    agents.delete(key)
  } else {
    // The profile's CA on top of the system's: its base URLs may also name public services.
    agent = new Agent({ connect: { ca: [...rootCertificates, caCertificate] } })
  }
  agents.set(key, agent)
  if (agents.size > MAX_AGENTS) {
    const [oldest, stale] = agents.entries().next().value as [string, Agent]
    agents.delete(oldest)
    void stale.close().catch(() => undefined)
  }
  return agent
}

/**
 * A fetch that trusts `caCertificate` (PEM) besides the system's CAs, for one profile's requests only: its
 * own connection pool (HTTP/1.1 keep-alive), shared by every request with the same CA. Other profiles keep
 * the plain fetch and the system's CAs alone.
 */
export function fetchTrusting(caCertificate: string): typeof fetch {
  const dispatcher = agentFor(caCertificate)
  return ((input: string | URL, init?: RequestInit) =>
    undiciFetch(input, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher,
    })) as unknown as typeof fetch
}

/** Close every pooled connection (a host shutting down, tests). */
export async function closeTrustedAgents(): Promise<void> {
  const all = [...agents.values()]
  agents.clear()
  await Promise.all(all.map((a) => a.close().catch(() => undefined)))
}
