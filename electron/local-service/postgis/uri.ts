/**
 * A PostGIS workspace named by a connection URI:
 * `postgresql://USER@HOST:PORT/DB?schema=S1,S2&sslmode=…&sslrootcert=…&service=…`.
 * A password is never part of it: libpq's ways (`PGPASSWORD`, `~/.pgpass`, `PGSERVICE`) supply one.
 */

/** libpq's `sslmode` values; `prefer` when absent, as libpq. */
export const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const
export type SslMode = (typeof SSL_MODES)[number]

/** PostgreSQL's identifier limit (NAMEDATALEN − 1 bytes): longer names are cut by the server. */
export const MAX_IDENTIFIER_BYTES = 63

export interface WorkspaceUri {
  user?: string
  host?: string
  port?: number
  database?: string
  /** The workspace's schemas, the first where new datasets go; `['public']` when absent. */
  schemas: string[]
  sslmode: SslMode
  sslrootcert?: string
  /** A `pg_service.conf` section (`?service=` or `PGSERVICE`). */
  service?: string
}

export class WorkspaceUriError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'WorkspaceUriError'
  }
}

/** True when the workspace named on the command line is a database rather than a folder. */
export function isDatabaseWorkspace(text: string | undefined): text is string {
  return text !== undefined && /^postgres(ql)?:\/\//i.test(text.trim())
}

const KNOWN_PARAMS = new Set(['schema', 'sslmode', 'sslrootcert', 'service', 'password'])

function decode(part: string, what: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    throw new WorkspaceUriError(`the workspace URI's ${what} is not valid percent-encoding`)
  }
}

/** The URI without anything secret, for messages and logs: `postgresql://user@host:port/db?schema=…`. */
export function describeWorkspace(uri: WorkspaceUri): string {
  const user = uri.user ? `${encodeURIComponent(uri.user)}@` : ''
  const host = uri.host ?? ''
  const port = uri.port ? `:${uri.port}` : ''
  const db = uri.database ? `/${encodeURIComponent(uri.database)}` : '/'
  return `postgresql://${user}${host}${port}${db}?schema=${uri.schemas.map(encodeURIComponent).join(',')}`
}

/**
 * Parse a workspace URI. Refuses a password (in the authority or as `?password=`), unknown parameters,
 * an unknown `sslmode`, and schema names PostgreSQL could not hold; messages never repeat a password.
 */
export function parseWorkspaceUri(text: string): WorkspaceUri {
  const trimmed = text.trim()
  const match = /^postgres(?:ql)?:\/\/([^/?#]*)(\/[^?#]*)?(\?[^#]*)?(#.*)?$/i.exec(trimmed)
  if (!match) throw new WorkspaceUriError('the workspace is not a postgresql://USER@HOST:PORT/DB URI')
  const [, authority = '', pathPart = '', queryPart = '', fragment] = match
  if (fragment) throw new WorkspaceUriError('the workspace URI must not have a #fragment')
  const at = authority.lastIndexOf('@')
  const userInfo = at >= 0 ? authority.slice(0, at) : undefined
  const hostPort = at >= 0 ? authority.slice(at + 1) : authority
  if (userInfo !== undefined && userInfo.includes(':')) {
    throw new WorkspaceUriError(
      'the workspace URI must not contain a password: give it as libpq does (PGPASSWORD, ~/.pgpass or PGSERVICE)',
    )
  }
  const uri: WorkspaceUri = { schemas: ['public'], sslmode: 'prefer' }
  if (userInfo) uri.user = decode(userInfo, 'user')
  const hp = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(hostPort)!
  if (hp[1]) uri.host = decode(hp[1].replace(/^\[|\]$/g, ''), 'host')
  if (hp[2] !== undefined && hp[2] !== '') {
    const port = Number(hp[2])
    if (!/^\d+$/.test(hp[2]) || port < 1 || port > 65535)
      throw new WorkspaceUriError(`the workspace URI's port must be 1–65535, not "${hp[2].slice(0, 20)}"`)
    uri.port = port
  }
  const db = pathPart.replace(/^\//, '')
  if (db.includes('/')) throw new WorkspaceUriError("the workspace URI's path must be one database name")
  if (db) uri.database = decode(db, 'database name')
  const params = queryParams(queryPart.replace(/^\?/, ''))
  for (const key of params.keys()) {
    if (key === 'password')
      throw new WorkspaceUriError(
        'the workspace URI must not contain a password: give it as libpq does (PGPASSWORD, ~/.pgpass or PGSERVICE)',
      )
    if (!KNOWN_PARAMS.has(key))
      throw new WorkspaceUriError(
        `the workspace URI has an unknown parameter "${key.slice(0, 40)}" (known: schema, sslmode, sslrootcert, service)`,
      )
  }
  const schema = params.get('schema')
  if (schema !== undefined) uri.schemas = parseSchemas(schema)
  const sslmode = params.get('sslmode')
  if (sslmode !== undefined) {
    if (!(SSL_MODES as readonly string[]).includes(sslmode))
      throw new WorkspaceUriError(`sslmode must be one of ${SSL_MODES.join(', ')}`)
    uri.sslmode = sslmode as SslMode
  }
  const rootcert = params.get('sslrootcert')
  if (rootcert) uri.sslrootcert = rootcert
  const service = params.get('service')
  if (service) uri.service = service
  return uri
}

/** The query's parameters, percent-decoded as libpq does (a `+` stays a `+`); a repeated one is refused. */
function queryParams(query: string): Map<string, string> {
  const params = new Map<string, string>()
  for (const pair of query.split('&')) {
    if (pair === '') continue
    const eq = pair.indexOf('=')
    const key = decode(eq >= 0 ? pair.slice(0, eq) : pair, 'parameter name')
    if (params.has(key))
      throw new WorkspaceUriError(`the workspace URI gives "${key.slice(0, 40)}" more than once`)
    params.set(key, decode(eq >= 0 ? pair.slice(eq + 1) : '', `"${key.slice(0, 40)}" value`))
  }
  return params
}

function parseSchemas(text: string): string[] {
  const schemas = text.split(',')
  const seen = new Set<string>()
  for (const s of schemas) {
    if (s === '') throw new WorkspaceUriError('schema: every schema name must be non-empty')
    if (s.includes('\0')) throw new WorkspaceUriError('schema: a schema name must not contain NUL')
    if (Buffer.byteLength(s) > MAX_IDENTIFIER_BYTES)
      throw new WorkspaceUriError(
        `schema: "${s.slice(0, 40)}…" is longer than PostgreSQL's ${MAX_IDENTIFIER_BYTES}-byte limit`,
      )
    if (seen.has(s)) throw new WorkspaceUriError(`schema: "${s}" is listed twice`)
    seen.add(s)
  }
  return schemas
}
