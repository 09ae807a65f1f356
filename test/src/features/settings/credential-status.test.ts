import { describe, expect, it } from 'vitest'
import { credentialStatusText } from '../../../../src/features/settings/credential-status'

describe('credentialStatusText', () => {
  it('says when a credential was set, in UTC', () => {
    expect(credentialStatusText({ name: 'token', set: true, updatedAt: '2026-11-22T10:15:42.000Z' })).toBe(
      'Set (2026-11-22 10:15 UTC)',
    )
  })

  it('says "Set" when the time is unknown or unreadable, and "Not set" otherwise', () => {
    expect(credentialStatusText({ name: 'token', set: true })).toBe('Set')
    expect(credentialStatusText({ name: 'token', set: true, updatedAt: 'yesterday' })).toBe('Set')
    expect(credentialStatusText({ name: 'token', set: false })).toBe('Not set')
    expect(credentialStatusText(undefined)).toBe('Not set')
  })

  it('names the local service as the source of the Local profile’s own credentials', () => {
    expect(credentialStatusText({ name: 'token', set: true, managed: true })).toBe(
      'Provided by the built-in local service',
    )
  })
})
