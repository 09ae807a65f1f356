import { sameSecret } from '../auth'
import { FailureBackoff } from './backoff'
import { LOCAL_PRINCIPAL, type Principal } from './principal'
import type { UserDirectory } from './user-directory'

/** How a credential came: an `Authorization: Bearer` token, or the licence key as a path segment. */
export type CredentialScheme = 'bearer' | 'licence-key'

export type Authentication = { ok: true; principal: Principal } | { ok: false; status: 401; message: string }

/** Who may call the service: the router asks it once per request, before anything else about the route. */
export interface Credentials {
  authenticate(
    presented: string | undefined,
    scheme: CredentialScheme,
    remoteAddress: string | undefined,
  ): Promise<Authentication>
}

export function credentialWhat(scheme: CredentialScheme): string {
  return scheme === 'licence-key' ? 'licence key (path segment)' : 'bearer token (Authorization header)'
}

const denied = (message: string): Authentication => ({ ok: false, status: 401, message })

/**
 * The service of one token and one licence key (the desktop app's loopback service, `serve` without
 * `--users`): every request acts as `LOCAL_PRINCIPAL`.
 */
export function singleSecretCredentials(secrets: { token: string; licenceKey: string }): Credentials {
  return {
    authenticate(presented, scheme) {
      const expected = scheme === 'licence-key' ? secrets.licenceKey : secrets.token
      if (!presented) return Promise.resolve(denied(`access denied: no ${credentialWhat(scheme)}`))
      if (!sameSecret(presented, expected))
        return Promise.resolve(denied(`access denied: wrong ${credentialWhat(scheme)}`))
      return Promise.resolve({ ok: true, principal: LOCAL_PRINCIPAL })
    },
  }
}

/**
 * The users of a users file (`serve --users FILE`): each user's token or licence key makes the request act
 * as that user. Wrong secrets from one address slow that address down (`FailureBackoff`).
 */
export function usersFileCredentials(
  directory: UserDirectory,
  options: { backoff?: FailureBackoff } = {},
): Credentials {
  const backoff = options.backoff ?? new FailureBackoff()
  return {
    async authenticate(presented, scheme, remoteAddress) {
      if (!presented) return denied(`access denied: no ${credentialWhat(scheme)}`)
      const address = remoteAddress ?? 'unknown'
      await backoff.wait(address)
      const found = await directory.verify(presented, scheme === 'licence-key' ? 'licence-key' : 'token')
      if (!found.ok) {
        backoff.failed(address)
        return denied(
          found.reason === 'revoked'
            ? `access denied: the ${credentialWhat(scheme)} of user ${found.user.name} was revoked`
            : `access denied: wrong ${credentialWhat(scheme)}`,
        )
      }
      backoff.succeeded(address)
      const { user } = found
      return {
        ok: true,
        principal: Object.freeze({ user: user.name, groups: user.groups, readOnly: user.readOnly }),
      }
    },
  }
}
