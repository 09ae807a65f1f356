/**
 * Parse a Retry-After header (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. Returns milliseconds
 * to wait from `now` (never negative), or undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  if (!/[A-Za-z]/.test(text)) return undefined
  const at = Date.parse(text)
  if (Number.isNaN(at)) return undefined
  return Math.max(0, at - now)
}
