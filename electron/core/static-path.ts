/**
 * The segments of a URL path that names a file under a served folder, or null when it may not.
 * Decodes %-escapes (a malformed one is refused, never thrown), drops empty segments, and refuses
 * `.` and `..`, backslashes and NUL, so the result joined under the folder stays inside it.
 * Used by both hosts that serve the renderer: the browser host and Electron's `app://` protocol.
 */
export function staticPathSegments(pathname: string): string[] | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return null
  }
  const segments = decoded.split('/').filter((s) => s.length > 0)
  if (segments.some((s) => s === '..' || s === '.' || s.includes('\\') || s.includes('\0'))) return null
  return segments
}
