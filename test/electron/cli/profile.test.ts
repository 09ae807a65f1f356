import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCliProcess } from '../../support/cli'
import { useTempDirs } from '../../support/temp-dir'

const tempDir = useTempDirs()
const urlFlags = [
  '--atlas-url',
  'https://atlas.example.com',
  '--advancedmaps-url',
  'https://apis.example.com/advancedmaps/v1',
  '--mgis-url',
  'https://mgis.example.com/api',
  '--mgis-v2-url',
  'https://mgis.example.com/api/v2',
  '--telematics-url',
  'https://intouch.example.com/iot/api',
  '--aiml-url',
  'https://aiml.example.com',
]

describe('geo-analyst profile', () => {
  it('creates, lists, shows and activates a profile', async () => {
    const configDir = tempDir()
    const set = await runCliProcess(['profile', 'set', 'Cloud', ...urlFlags, '--config-dir', configDir])
    expect(set).toMatchObject({ code: 0, stderr: '' })
    const use = await runCliProcess(['profile', 'use', 'Cloud', '--config-dir', configDir])
    expect(use.stdout).toBe('Active profile: Cloud\n')
    const list = await runCliProcess(['profile', 'list', '--json', '--config-dir', configDir])
    expect(JSON.parse(list.stdout)).toMatchObject({
      activeProfile: 'Cloud',
      profiles: [
        { name: 'Local', builtIn: true },
        { name: 'Cloud', builtIn: false },
      ],
    })
    const show = await runCliProcess(['profile', 'show', '--config-dir', configDir])
    expect(show.stdout).toContain('mgis_v2_url      https://mgis.example.com/api/v2')
    const file = JSON.parse(readFileSync(path.join(configDir, 'settings.json'), 'utf8')) as {
      activeProfile: string
    }
    expect(file.activeProfile).toBe('Cloud')
  })

  it('honours GEO_ANALYST_CONFIG_DIR', async () => {
    const configDir = tempDir()
    await runCliProcess(['profile', 'set', 'Env', ...urlFlags], {
      env: { GEO_ANALYST_CONFIG_DIR: configDir },
    })
    expect(readFileSync(path.join(configDir, 'settings.json'), 'utf8')).toContain('"Env"')
  })

  it('exits non-zero with a one-line reason on bad input', async () => {
    const configDir = tempDir()
    const missing = await runCliProcess([
      'profile',
      'set',
      'Half',
      '--atlas-url',
      'https://a.example.com',
      '--config-dir',
      configDir,
    ])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(
      /^geo-analyst: validation: profile "Half" needs --advancedmaps-url, --mgis-url/,
    )
    expect(missing.stderr.trim().split('\n')).toHaveLength(1)
    const badUrl = await runCliProcess([
      'profile',
      'set',
      'Bad',
      ...urlFlags.slice(0, -1),
      'javascript:alert(1)',
      '--config-dir',
      configDir,
    ])
    expect(badUrl.code).toBe(2)
    expect(badUrl.stderr).toMatch(/urls\.aiml_url: must be an absolute http\(s\) URL/)
    const unknown = await runCliProcess(['profile', 'use', 'Nope', '--config-dir', configDir])
    expect(unknown).toMatchObject({ code: 4 })
    const typo = await runCliProcess(['profile', 'list', '--jsn', '--config-dir', configDir])
    expect(typo.stderr).toBe('geo-analyst: validation: Unknown option --jsn\n')
  })

  it('never takes a secret from the command line', async () => {
    const configDir = tempDir()
    const result = await runCliProcess(
      ['secret', 'set', 'token', 'hunter2-value', '--config-dir', configDir],
      { stdin: 'x' },
    )
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/from stdin only/)
  })
})
