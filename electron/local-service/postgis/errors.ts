/**
 * What went wrong reaching or reading a PostGIS workspace, in plain words ("Test connection", the CLI, the
 * service's answers). Built from our own words and the names the user gave; never from a password.
 */

export type DatabaseProblem =
  | 'refused'
  | 'host-unknown'
  | 'timeout'
  | 'wrong-password'
  | 'no-password'
  | 'login-refused'
  | 'database-missing'
  | 'postgis-missing'
  | 'schema-missing'
  | 'no-permission'
  | 'tls'
  | 'unavailable'
  | 'other'

export class DatabaseWorkspaceError extends Error {
  constructor(
    readonly problem: DatabaseProblem,
    message: string,
  ) {
    super(message)
    this.name = 'DatabaseWorkspaceError'
  }
}

/** Where the connection went, for the messages (no secret in it). */
export interface ConnectionTarget {
  host?: string
  port?: number
  database?: string
  user?: string
}

interface PgLikeError {
  code?: string
  message?: string
  errors?: unknown[]
}

function target(t: ConnectionTarget): string {
  return `${t.host ?? 'localhost'}:${t.port ?? 5432}`
}

/** The first network error code in an error or an AggregateError (a host with several addresses). */
function networkCode(error: PgLikeError): string | undefined {
  if (error.code && /^E[A-Z]+$/.test(error.code)) return error.code
  for (const inner of error.errors ?? []) {
    const code = (inner as PgLikeError | undefined)?.code
    if (code && /^E[A-Z]+$/.test(code)) return code
  }
  return undefined
}

/**
 * Classify an error of node-postgres (a server error with its SQLSTATE, a socket error, a TLS error) as one
 * of the problems "Test connection" names. Pure: the same error and target give the same answer.
 */
export function classifyDatabaseError(error: unknown, t: ConnectionTarget): DatabaseWorkspaceError {
  if (error instanceof DatabaseWorkspaceError) return error
  const e = (error ?? {}) as PgLikeError
  const message = typeof e.message === 'string' ? e.message : String(error)
  const where = target(t)
  const db = t.database ?? t.user ?? 'the default database'
  const user = t.user ?? 'the login user'
  const problem = (kind: DatabaseProblem, text: string) => new DatabaseWorkspaceError(kind, text)
  switch (e.code) {
    case '28P01':
      return problem('wrong-password', `The database refused the password of user "${user}": wrong password.`)
    case '28000':
      return problem(
        'login-refused',
        `The database at ${where} does not let user "${user}" log in to "${db}" (no such role, or pg_hba.conf refuses it).`,
      )
    case '3D000':
      return problem('database-missing', `The database "${db}" does not exist on ${where}.`)
    case '3F000':
      return problem('schema-missing', `A schema of the workspace does not exist in "${db}".`)
    case '42501':
      return problem(
        'no-permission',
        `User "${user}" has no permission on a schema or table of the workspace in "${db}".`,
      )
    case '57P01':
    case '57P02':
    case '57P03':
    case '53300':
      return problem('unavailable', `The database server at ${where} is shutting down, starting up or full.`)
    case '57014':
      return problem('timeout', `The database cancelled the statement (time limit or cancel).`)
  }
  if (e.code === '42883' || e.code === '42704') {
    if (/geometry|geography|postgis|st_/i.test(message))
      return problem('postgis-missing', `The PostGIS extension is not installed in the database "${db}".`)
  }
  switch (networkCode(e)) {
    case 'ECONNREFUSED':
      return problem(
        'refused',
        `The database server at ${where} refused the connection: is PostgreSQL running and listening there?`,
      )
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return problem('host-unknown', `The database host "${t.host ?? 'localhost'}" is not known.`)
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return problem('timeout', `The database server at ${where} could not be reached in time.`)
    case 'ECONNRESET':
    case 'EPIPE':
      return problem('unavailable', `The database server at ${where} closed the connection.`)
  }
  if (/password must be a string|no password supplied|SASL: SCRAM/i.test(message))
    return problem(
      'no-password',
      `The database asks user "${user}" for a password and none was given: set PGPASSWORD, a ~/.pgpass line or a PGSERVICE entry.`,
    )
  if (/timeout expired|Connection terminated due to connection timeout/i.test(message))
    return problem('timeout', `The database server at ${where} could not be reached in time.`)
  if (/does not support SSL/i.test(message))
    return problem('tls', `The database server at ${where} does not offer TLS, which sslmode requires.`)
  if (/certificate|self[- ]signed|SSL|TLS|Hostname\/IP does not match/i.test(message))
    return problem('tls', `TLS to ${where} failed: the server's certificate is not trusted (${message}).`)
  if (/Connection terminated/i.test(message))
    return problem('unavailable', `The database server at ${where} closed the connection.`)
  return problem('other', `The database answered: ${message}`)
}

/** The failure class (§7) of a database problem: what a caller should do about it. */
export function failureClassOf(
  problem: DatabaseProblem,
):
  | 'provider-unavailable'
  | 'timeout-network'
  | 'authentication'
  | 'authorization-entitlement'
  | 'not-found'
  | 'local-configuration'
  | 'unclassified' {
  switch (problem) {
    case 'refused':
    case 'unavailable':
      return 'provider-unavailable'
    case 'timeout':
    case 'host-unknown':
      return 'timeout-network'
    case 'wrong-password':
    case 'no-password':
    case 'login-refused':
      return 'authentication'
    case 'no-permission':
      return 'authorization-entitlement'
    case 'database-missing':
    case 'schema-missing':
      return 'not-found'
    case 'postgis-missing':
    case 'tls':
      return 'local-configuration'
    case 'other':
      return 'unclassified'
  }
}
