import { isIP } from 'node:net'

/**
 * Where `serve` binds, decided before anything starts: loopback may answer in plain HTTP with one token;
 * any other address is a team server, reachable by others on the network, so it must speak TLS and know its
 * users (a users file), or it is refused with what is missing.
 */

/** What the serve command was given (the flags as typed; absent when not given). */
export interface ListenRequest {
  /** `HOST:PORT`, `[IPv6]:PORT` or `HOST` alone (port 0: any free port). */
  listen?: string
  /** `--port N`: the port on 127.0.0.1, as before `--listen`. */
  port?: number
  tlsCert?: string
  tlsKey?: string
  users?: string
}

export interface ListenPlan {
  /** The address to bind: an IP address or `localhost`, IPv6 without brackets. */
  host: string
  port: number
  loopback: boolean
  tls?: { certFile: string; keyFile: string }
  usersFile?: string
}

export class ListenPolicyError extends Error {
  constructor(
    message: string,
    /** The flag to fix. */
    readonly field: 'listen' | 'port' | 'tls-cert' | 'tls-key' | 'users',
  ) {
    super(message)
    this.name = 'ListenPolicyError'
  }
}

const HOST_NAME =
  /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/

/** 127.0.0.0/8, ::1 (and IPv4-mapped loopback), `localhost`. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase()
  if (h === 'localhost' || h.endsWith('.localhost')) return true
  if (isIP(h) === 4) return h.startsWith('127.')
  if (isIP(h) === 6) {
    if (/^(0{0,4}:){7}0{0,3}1$/.test(h) || h === '::1') return true
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h)
    return mapped !== null && mapped[1]!.startsWith('127.')
  }
  return false
}

function parsePort(text: string, what: string, field: 'listen' | 'port'): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535)
    throw new ListenPolicyError(`${what}: the port must be a whole number 0–65535, not "${text}"`, field)
  return Number(text)
}

/** `HOST:PORT`, `[V6]:PORT`, or a host alone (port 0) into its parts; a clear error when malformed. */
export function parseListen(value: string): { host: string; port: number } {
  const what = `--listen "${value}"`
  const text = value.trim()
  if (!text)
    throw new ListenPolicyError('--listen needs HOST:PORT (e.g. 0.0.0.0:8443 or [::1]:8443)', 'listen')
  let host: string
  let port = 0
  if (text.startsWith('[')) {
    const end = text.indexOf(']')
    if (end < 0)
      throw new ListenPolicyError(`${what}: an IPv6 address in brackets needs its closing "]"`, 'listen')
    host = text.slice(1, end)
    const rest = text.slice(end + 1)
    if (rest) {
      if (!rest.startsWith(':'))
        throw new ListenPolicyError(`${what}: expected ":PORT" after "[${host}]", not "${rest}"`, 'listen')
      port = parsePort(rest.slice(1), what, 'listen')
    }
    if (isIP(host) !== 6) throw new ListenPolicyError(`${what}: "${host}" is not an IPv6 address`, 'listen')
  } else {
    const colons = text.split(':').length - 1
    if (colons > 1)
      throw new ListenPolicyError(`${what}: write an IPv6 address in brackets, e.g. [::1]:8443`, 'listen')
    const [h, p] =
      colons === 1 ? [text.slice(0, text.indexOf(':')), text.slice(text.indexOf(':') + 1)] : [text]
    host = h!
    if (p !== undefined) port = parsePort(p, what, 'listen')
    if (!host) throw new ListenPolicyError(`${what}: the host is missing (e.g. 0.0.0.0:8443)`, 'listen')
    if (isIP(host) !== 4 && !HOST_NAME.test(host))
      throw new ListenPolicyError(`${what}: "${host}" is not an IP address or host name`, 'listen')
  }
  return { host, port }
}

/**
 * The bind the flags ask for, or a `ListenPolicyError` saying what is wrong or missing. Pure: reads no file
 * (the TLS files are read once when the server starts), binds nothing.
 */
export function planListen(request: ListenRequest): ListenPlan {
  if (request.listen !== undefined && request.port !== undefined)
    throw new ListenPolicyError('give either --listen HOST:PORT or --port N, not both', 'port')
  if (
    request.port !== undefined &&
    (!Number.isInteger(request.port) || request.port < 0 || request.port > 65535)
  )
    throw new ListenPolicyError(`--port must be an integer 0–65535, not "${request.port}"`, 'port')
  const { host, port } =
    request.listen !== undefined
      ? parseListen(request.listen)
      : { host: '127.0.0.1', port: request.port ?? 0 }
  const cert = request.tlsCert || undefined
  const key = request.tlsKey || undefined
  if (cert && !key)
    throw new ListenPolicyError('--tls-cert needs --tls-key (the private key of the certificate)', 'tls-key')
  if (key && !cert)
    throw new ListenPolicyError('--tls-key needs --tls-cert (the certificate of the key)', 'tls-cert')
  const loopback = isLoopback(host)
  if (!loopback) {
    const missing = [...(cert ? [] : ['--tls-cert and --tls-key']), ...(request.users ? [] : ['--users'])]
    if (missing.length) {
      const shown = host.includes(':') ? `[${host}]` : host
      throw new ListenPolicyError(
        `binding to ${shown} needs --tls-cert and --tls-key and --users: anything but loopback (127.0.0.0/8, ::1, localhost) ` +
          `is reachable from the network, so it is served over TLS to the users of a users file only; missing ${missing.join(' and ')}`,
        cert ? 'users' : 'tls-cert',
      )
    }
  }
  return {
    host,
    port,
    loopback,
    ...(cert && key ? { tls: { certFile: cert, keyFile: key } } : {}),
    ...(request.users ? { usersFile: request.users } : {}),
  }
}
