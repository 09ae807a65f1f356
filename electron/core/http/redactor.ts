/**
 * The one redactor: knows every live secret value and the places secrets hide in requests, and
 * replaces them in any text before it is logged, stored, shown or copied.
 */
export const REDACTED = '[REDACTED]'

/** Shortest value treated as a secret to hide everywhere; shorter values would mangle ordinary text. */
const MIN_SECRET_LENGTH = 4

/**
 * The distance-matrix licence key is the path segment before the resource (spec §4.3, §4.4):
 * `{advancedmaps_url}/{rest-key}/distance_matrix.../...`. Hidden even when the key is not a known secret.
 */
const LICENCE_KEY_SEGMENT =
  /(\/)(?!\[REDACTED\])[^/?#\s"']+(\/distance_matrix(?:_eta|_traffic|_predictive)?(?:[/?#\s"']|$))/g

export class Redactor {
  private readonly secrets = new Set<string>()

  /** Learn a live secret value; every later `redact` hides it wherever it appears. */
  remember(value: string): void {
    if (value.length >= MIN_SECRET_LENGTH) this.secrets.add(value)
  }

  forget(value: string): void {
    this.secrets.delete(value)
  }

  redact(text: string): string {
    let out = text
    // Longest first, so a secret that contains another is hidden whole.
    for (const secret of [...this.secrets].sort((a, b) => b.length - a.length)) {
      out = out.split(secret).join(REDACTED)
      const encoded = encodeURIComponent(secret)
      if (encoded !== secret) out = out.split(encoded).join(REDACTED)
    }
    return out
      .replace(/(authorization\s*[:=]\s*"?)(bearer|basic)\s+[^\s"',;]+/gi, `$1$2 ${REDACTED}`)
      .replace(
        /([?&](?:access_token|token|key|api_key|apikey|rest_key|licence_key|license_key)=)[^&#\s"']+/gi,
        `$1${REDACTED}`,
      )
      .replace(LICENCE_KEY_SEGMENT, `$1${REDACTED}$2`)
  }

  /** Redact every string inside a JSON-like value. */
  redactDeep<T>(value: T): T {
    if (typeof value === 'string') return this.redact(value) as T
    if (Array.isArray(value)) return value.map((v) => this.redactDeep(v)) as T
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, this.redactDeep(v)]),
      ) as T
    }
    return value
  }
}
