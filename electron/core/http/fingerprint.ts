import { createHash } from 'node:crypto'
import type { Redactor } from './redactor'

/**
 * A stable identity for a request: SHA-256 of method, redacted URL and body. Secrets are redacted
 * before hashing, so the fingerprint proves nothing about them and can be shown and stored.
 */
export function requestFingerprint(
  request: { method: string; url: string; body?: string | Uint8Array },
  redactor: Redactor,
): string {
  const hash = createHash('sha256')
  hash.update(request.method.toUpperCase())
  hash.update('\n')
  hash.update(redactor.redact(request.url))
  hash.update('\n')
  if (typeof request.body === 'string') hash.update(redactor.redact(request.body))
  else if (request.body) hash.update(request.body)
  return hash.digest('hex').slice(0, 16)
}
