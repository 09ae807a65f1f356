/**
 * A server CA certificate as the profile form shows it: its SHA-256 fingerprint (of the first certificate,
 * the way browsers and `openssl x509 -fingerprint -sha256` print it), for a person to compare with what
 * the server's administrator gives them. Public data: no credential ever passes here.
 */
export async function caFingerprint(pem: string): Promise<string | null> {
  const match = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/.exec(pem)
  if (!match || !globalThis.crypto?.subtle) return null
  try {
    const der = Uint8Array.from(atob(match[1]!.replace(/\s+/g, '')), (c) => c.charCodeAt(0))
    const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', der))
    return [...digest].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':')
  } catch {
    return null
  }
}

/** How many certificates a PEM text holds (a CA chain may hold several). */
export function certificateCount(pem: string): number {
  return pem.match(/-----BEGIN CERTIFICATE-----/g)?.length ?? 0
}
