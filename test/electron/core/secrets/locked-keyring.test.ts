import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CliRun } from '../../../support/cli'

/**
 * A Secret Service that answers but cannot store: no default keyring, or a locked one. Each case runs
 * the real CLI on a private D-Bus session with a real gnome-keyring in a throw-away HOME (never the
 * developer's own keychain), and without a display, so no unlock prompt can appear.
 */
const ROOT = path.resolve(import.meta.dirname, '../../../..')
const tools = ['/usr/bin/dbus-run-session', '/usr/bin/gnome-keyring-daemon']
const missing = tools.filter((tool) => !existsSync(tool))
if (missing.length > 0 && process.env.CI) throw new Error(`CI needs ${missing.join(', ')}`)

let home: string
beforeAll(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'geo-keyring-home-'))
})
afterAll(() => rmSync(home, { recursive: true, force: true }))

/** `geo-analyst ARGS` on its own session bus, after `keyring` (shell) prepared gnome-keyring. */
function cliOnBus(keyring: string, args: string[], stdin = ''): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const script = `${keyring} >/dev/null 2>&1; exec "$0" --import tsx electron/cli/main.ts "$@"`
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: home,
      XDG_DATA_HOME: path.join(home, '.local/share'),
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_RUNTIME_DIR: home,
      GEO_ANALYST_CONFIG_DIR: path.join(home, 'config'),
      GEO_ANALYST_DATA_DIR: path.join(home, 'data'),
      KEYRING_PW: 'throw-away',
    }
    for (const name of ['DISPLAY', 'WAYLAND_DISPLAY', 'DBUS_SESSION_BUS_ADDRESS']) delete env[name]
    const child = spawn('dbus-run-session', ['--', 'sh', '-c', script, process.execPath, ...args], {
      cwd: ROOT,
      env,
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      // Keep only the CLI's own lines: the bus and the keyring daemon talk on stderr too.
      stderr = stderr
        .split('\n')
        .filter((line) => line.startsWith('geo-analyst'))
        .join('\n')
      resolve({ code, stdout, stderr })
    })
    child.stdin.end(stdin)
  })
}

const START_ONLY = 'gnome-keyring-daemon --start --components=secrets'
const CREATE_UNLOCKED = 'printf %s "$KEYRING_PW" | gnome-keyring-daemon --unlock --components=secrets'

describe.skipIf(missing.length > 0)(
  `a Secret Service without an unlocked keyring ${missing.join(' ')}`,
  () => {
    it('with no keyring at all: set fails as local configuration saying what to do; status says so', async () => {
      const set = await cliOnBus(START_ONLY, ['secret', 'set', 'token'], 'canary-no-keyring')
      expect(set.code, set.stderr).toBe(2)
      expect(set.stderr).toMatch(/^geo-analyst: local-configuration: .*no default keyring/)
      expect(set.stderr).toMatch(/Seahorse/)
      expect(set.stdout + set.stderr).not.toContain('canary-no-keyring')
      const status = await cliOnBus(START_ONLY, ['secret', 'status'])
      expect(status.code).toBe(0)
      expect(status.stdout).not.toMatch(/stored in OS keychain/)
      expect(status.stdout + status.stderr).toMatch(/no default keyring/)
      const json = await cliOnBus(START_ONLY, ['secret', 'status', '--json'])
      expect(JSON.parse(json.stdout)).toMatchObject({
        store: 'keychain',
        warning: expect.stringMatching(/no default keyring/),
      })
    }, 120_000)

    it('with a locked keyring: set fails as local configuration naming the unlock; status says so', async () => {
      // Make the login keyring (unlocked, with a password), then start a daemon that does not unlock it.
      const made = await cliOnBus(CREATE_UNLOCKED, ['secret', 'set', 'token.gis'], 'canary-before-lock')
      expect(made.code, made.stderr).toBe(0)
      const set = await cliOnBus(START_ONLY, ['secret', 'set', 'token'], 'canary-locked')
      expect(set.code, set.stderr).toBe(2)
      expect(set.stderr).toMatch(/^geo-analyst: local-configuration: .*keyring is locked/)
      expect(set.stderr).toMatch(/gnome-keyring-daemon --unlock/)
      expect(set.stdout + set.stderr).not.toContain('canary-locked')
      const status = await cliOnBus(START_ONLY, ['secret', 'status'])
      expect(status.stdout).not.toMatch(/stored in OS keychain/)
      expect(status.stdout + status.stderr).toMatch(/keyring is locked/)
      // Unlocked again, everything works and status is plain.
      const unlocked = await cliOnBus(CREATE_UNLOCKED, ['secret', 'status'])
      expect(unlocked.stdout).toMatch(/stored in OS keychain/)
      expect(unlocked.stderr).toBe('')
    }, 120_000)
  },
)
