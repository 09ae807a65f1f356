import { describe, expect, it } from 'vitest'
import {
  BASE_URL_KEYS,
  BASE_URLS,
  CREDENTIAL_NAMES,
  credentialsOf,
  GROUP_NAMES,
  GROUPS,
} from '../../../electron/contract'
import { CREDENTIALS_BY_GROUP } from '../../../electron/core/client/execute'
import { URL_ENV } from '../../../electron/cli/commands/call'
import { BASE_PATHS, GROUP_PREFIXES } from '../../../electron/local-service/server'
import { SERVICE_GROUPS } from '../../../electron/local-service/auth'

describe('the groups table, from which every layer derives', () => {
  it('gives every group a base URL, and every base URL one group, path and variable of its own', () => {
    for (const group of GROUP_NAMES) {
      expect(
        BASE_URL_KEYS.some((key) => BASE_URLS[key].group === group),
        group,
      ).toBe(true)
    }
    const paths = BASE_URL_KEYS.map((key) => BASE_URLS[key].localPath)
    const envs = BASE_URL_KEYS.map((key) => BASE_URLS[key].env)
    expect(new Set(paths).size).toBe(paths.length)
    expect(new Set(envs).size).toBe(envs.length)
  })

  it('names each group’s credentials, most specific first, as §5 says', () => {
    expect(credentialsOf('places')).toEqual(['token.places', 'token'])
    expect(credentialsOf('routing')).toEqual(['licence-key'])
    expect(CREDENTIAL_NAMES).toEqual([
      'token',
      'token.places',
      'token.gis',
      'token.telematics',
      'token.vision',
      'licence-key',
    ])
    for (const group of GROUP_NAMES) {
      for (const name of credentialsOf(group)) expect(CREDENTIAL_NAMES).toContain(name)
    }
  })

  it('is what the client, the CLI and the local service use', () => {
    expect(Object.keys(CREDENTIALS_BY_GROUP)).toEqual(GROUP_NAMES)
    expect(SERVICE_GROUPS).toEqual(GROUP_NAMES)
    for (const key of BASE_URL_KEYS) {
      expect(URL_ENV[key]).toBe(BASE_URLS[key].env)
      expect(BASE_PATHS[key]).toBe(BASE_URLS[key].localPath)
      expect(GROUP_PREFIXES).toContainEqual({ prefix: BASE_URLS[key].localPath, group: BASE_URLS[key].group })
    }
    // Only the licence-key group carries its credential in the path.
    expect(GROUP_NAMES.filter((g) => GROUPS[g].auth === 'licence-key-path')).toEqual(['routing'])
  })
})
