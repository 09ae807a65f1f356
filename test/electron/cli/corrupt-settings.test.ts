import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCliProcess } from '../../support/cli'
import { useTempDirs } from '../../support/temp-dir'

const tempDir = useTempDirs()

/** A config folder whose settings.json was damaged (cut off mid-write by another tool). */
function damagedConfig(): string {
  const dir = tempDir()
  writeFileSync(path.join(dir, 'settings.json'), '{"version": 1, "activeProfile": "Cloud", "profiles": [')
  return dir
}

function asideIn(dir: string): string {
  const [aside] = readdirSync(dir).filter((f) => f.startsWith('settings.json.corrupt-'))
  return path.join(dir, aside!)
}

const WARNING = /^geo-analyst: warning: The settings file .*settings\.json could not be read/m

describe('a corrupt settings file met first by a command', () => {
  it.each([
    [['secret', 'status'], 0],
    [['profile', 'use', 'Cloud'], 4],
    [['profile', 'list'], 0],
    [['call', 'gis.layers'], 0],
  ])('geo-analyst %s says once what happened, where the file went and what to do', async (args, code) => {
    const configDir = damagedConfig()
    const run = await runCliProcess([...args, '--config-dir', configDir], {
      // No keychain needed to tell the story: session memory answers at once.
      env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', GEO_ANALYST_DATA_DIR: tempDir() },
    })
    expect(run.code, run.stderr).toBe(code)
    expect(run.stderr).toMatch(WARNING)
    expect(run.stderr.match(/settings file/g)).toHaveLength(1)
    expect(run.stdout).not.toMatch(/settings file/)
    expect(run.stderr).toContain(asideIn(configDir))
    expect(run.stderr).toMatch(/profiles and preferences are not loaded/)
    expect(existsSync(path.join(configDir, 'settings.json'))).toBe(false)
  })

  it('the next command finds the defaults and says nothing more', async () => {
    const configDir = damagedConfig()
    const env = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' }
    await runCliProcess(['profile', 'list', '--config-dir', configDir], { env })
    const again = await runCliProcess(['profile', 'list', '--config-dir', configDir], { env })
    expect(again).toMatchObject({ code: 0, stderr: '' })
  })
})
