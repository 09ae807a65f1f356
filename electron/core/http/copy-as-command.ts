import type { Redactor } from './redactor'

/** A request as shown to a person: method, URL, headers and a body that is text or a file. */
export interface CommandRequest {
  method: string
  url: string
  headers?: Record<string, string>
  /** JSON or form text; a file upload is given as `{ file: name }`. */
  body?: string | { file: string; field?: string }
}

/** POSIX shell single quoting. */
export function shellQuote(value: string): string {
  if (/^[A-Za-z0-9_./:=,@%+-]+$/.test(value)) return value
  return `'${value.replace(/'/g, `'\\''`)}'`
}

/**
 * The request as a curl command, redacted: the Authorization value, the licence-key path segment,
 * token query values and every live secret become [REDACTED]. Safe to copy, paste and share.
 */
export function toCurl(request: CommandRequest, redactor: Redactor): string {
  const parts = ['curl', '-sS']
  if (request.method !== 'GET') parts.push('-X', request.method)
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    const shown =
      name.toLowerCase() === 'authorization' ? value.replace(/^(\S+)\s.*$/, '$1 [REDACTED]') : value
    parts.push('-H', shellQuote(`${name}: ${shown}`))
  }
  if (typeof request.body === 'string') parts.push('--data-binary', shellQuote(request.body))
  else if (request.body) parts.push('-F', shellQuote(`${request.body.field ?? 'file'}=@${request.body.file}`))
  parts.push(shellQuote(request.url))
  return redactor.redact(parts.join(' '))
}

/**
 * The same call as `geo-analyst call OPERATION name=value ...`, redacted. Credentials never appear:
 * the CLI reads them from the profile's keychain or the environment.
 */
export function toCli(
  operation: string,
  params: Readonly<Record<string, unknown>>,
  redactor: Redactor,
  files: { body?: string; file?: string } = {},
): string {
  const parts = ['geo-analyst', 'call', operation]
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === false) continue
    const text = Array.isArray(value) ? value.join(',') : value === true ? 'true' : String(value)
    parts.push(shellQuote(`${name}=${text}`))
  }
  if (files.body) parts.push('--body', shellQuote(files.body))
  if (files.file) parts.push('--file', shellQuote(files.file))
  return redactor.redact(parts.join(' '))
}
