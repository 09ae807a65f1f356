/**
 * The path of an HTTP request target, or null when the target is not one this host serves.
 *
 * Only the origin form (`/path?query`, RFC 9112 §3.2.1) is accepted, with the characters RFC 3986
 * allows in a path and well-formed %-escapes. Absolute form (`http://host/…`, for proxies), authority
 * and asterisk forms, and a leading `//` (read by URL parsers as a host, e.g. `//[`) are refused: no
 * page of this host makes them, and parsing them is where a hostile target could throw.
 */
const PATH = /^(?:\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*)+$/

export function requestPath(target: string | undefined): string | null {
  if (!target || !target.startsWith('/') || target.startsWith('//')) return null
  const query = target.indexOf('?')
  const pathname = query === -1 ? target : target.slice(0, query)
  return PATH.test(pathname) ? pathname : null
}
