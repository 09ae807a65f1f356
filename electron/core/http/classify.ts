import { classifyStatus, type FailureClass } from '../../contract'

/** Every way an attempt can end, before any decision about retrying. */
export type AttemptOutcome =
  | { kind: 'response'; status: number }
  /** Could not connect (refused, no such host): the request never left, so even a write may be resent. */
  | { kind: 'unreachable'; code: string }
  /** The connection failed after the request may have been received (reset, closed mid-answer). */
  | { kind: 'network'; code: string }
  | { kind: 'timeout' }
  | { kind: 'cancelled' }
  | { kind: 'too-large'; limit: number }
  | { kind: 'redirect'; status: number }
  /** fetch refused the address itself (a blocked port, a malformed URL): a setting to fix, nothing sent. */
  | { kind: 'invalid-target'; reason: string }
  /** The server's TLS certificate is not trusted or not for this host: nothing was sent, a setting to fix. */
  | { kind: 'untrusted-certificate'; code: string }

export interface Classification {
  /** null: a success status the operation interprets itself. */
  failureClass: FailureClass | null
  /** The provider may have acted on the request although no clear answer came back. */
  ambiguous: boolean
  /** Whether the request certainly did not reach the provider. */
  notSent: boolean
}

/** Statuses that leave a state change's outcome open: the provider may have acted before failing. */
const AMBIGUOUS_STATUSES: ReadonlySet<number> = new Set([202, 500, 502, 504])

/** Rule 1 of §7: classify before anything else. */
export function classifyOutcome(outcome: AttemptOutcome): Classification {
  switch (outcome.kind) {
    case 'response': {
      const failureClass = classifyStatus(outcome.status)
      return { failureClass, ambiguous: AMBIGUOUS_STATUSES.has(outcome.status), notSent: false }
    }
    case 'unreachable':
      return { failureClass: 'timeout-network', ambiguous: false, notSent: true }
    case 'network':
    case 'timeout':
      return { failureClass: 'timeout-network', ambiguous: true, notSent: false }
    case 'cancelled':
      return { failureClass: 'timeout-network', ambiguous: true, notSent: false }
    case 'invalid-target':
    case 'untrusted-certificate':
      return { failureClass: 'local-configuration', ambiguous: false, notSent: true }
    case 'too-large':
    case 'redirect':
      return { failureClass: 'unclassified', ambiguous: false, notSent: false }
  }
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
])

/** TLS verification failures (OpenSSL's codes and Node's host name check): the handshake never finished. */
const CERTIFICATE_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'INVALID_CA',
  'ERR_TLS_CERT_ALTNAME_INVALID',
])

/** Read a fetch failure's cause chain into an outcome. */
export function outcomeOfFetchError(error: unknown): AttemptOutcome {
  const message =
    (error as { cause?: { message?: unknown } })?.cause?.message ?? (error as { message?: unknown })?.message
  if (typeof message === 'string' && /bad port|invalid url|unsupported|not supported/i.test(message)) {
    return { kind: 'invalid-target', reason: message }
  }
  let cause: unknown = error
  for (let depth = 0; depth < 5 && cause; depth++) {
    const code = (cause as { code?: unknown }).code
    if (typeof code === 'string') {
      if (CERTIFICATE_CODES.has(code)) return { kind: 'untrusted-certificate', code }
      return UNREACHABLE_CODES.has(code) ? { kind: 'unreachable', code } : { kind: 'network', code }
    }
    cause = (cause as { cause?: unknown }).cause
  }
  return { kind: 'network', code: 'UNKNOWN' }
}
