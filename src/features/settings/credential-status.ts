import type { CredentialStatus } from '@contract/secrets'

/**
 * "Set (2026-11-22 14:05 UTC)", "Set" when the time is unknown, "Provided by the built-in local service"
 * for the Local profile's own credentials, or "Not set".
 */
export function credentialStatusText(status: CredentialStatus | undefined): string {
  if (!status?.set) return 'Not set'
  if (status.managed) return 'Provided by the built-in local service'
  if (!status.updatedAt) return 'Set'
  const when = new Date(status.updatedAt)
  if (Number.isNaN(when.getTime())) return 'Set'
  const iso = when.toISOString()
  return `Set (${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC)`
}

/** The id of a credential's input in Settings (so `settings.open` can focus it). */
export function credentialInputId(name: CredentialStatus['name']): string {
  return `settings-credential-${name.replace(/\./g, '-')}`
}
