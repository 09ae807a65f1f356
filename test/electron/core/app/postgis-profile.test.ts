import { describe, expect, it } from 'vitest'
import type { Profile } from '../../../../electron/contract'
import { databaseUriOf, localServiceDatabase } from '../../../../electron/core/app/postgis-profile'
import { parseWorkspaceUri } from '../../../../electron/local-service/postgis/uri'

const fields = {
  host: 'db.example.org',
  port: 6432,
  database: 'Straßen DB',
  user: "o'brien@corp",
  schemas: ['Ref Data', 'work', 'ünïcødé'],
  sslmode: 'verify-full' as const,
}

describe('a PostGIS workspace profile for the local service', () => {
  it('is a workspace URI the local service reads back to the same fields, with no password in it', () => {
    const uri = databaseUriOf(fields)
    expect(parseWorkspaceUri(uri)).toEqual({
      host: 'db.example.org',
      port: 6432,
      database: 'Straßen DB',
      user: "o'brien@corp",
      schemas: ['Ref Data', 'work', 'ünïcødé'],
      sslmode: 'verify-full',
    })
    expect(parseWorkspaceUri(databaseUriOf({ ...fields, host: '::1' })).host).toBe('::1')
  })

  it('carries the keychain password in the environment only', () => {
    const profile: Profile = { name: 'Office', builtIn: true, urls: null, kind: 'postgis', postgis: fields }
    const decided = localServiceDatabase(profile, 'pa:ss@word/?')
    expect(decided).toEqual({ databaseUri: databaseUriOf(fields), env: { PGPASSWORD: 'pa:ss@word/?' } })
    expect(decided?.databaseUri).not.toContain('pa:ss')
    expect(localServiceDatabase(profile, null)?.env).toEqual({})
  })

  it('keeps the folder workspace for every other profile', () => {
    expect(localServiceDatabase({ name: 'Local', builtIn: true, urls: null }, 'x')).toBeNull()
  })
})
