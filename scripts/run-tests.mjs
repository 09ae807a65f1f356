// `npm test [-- vitest args]`: every test project, with a real Secret Service for the keychain tests.
//
// Outside a D-Bus session that offers a Secret Service, this re-runs itself under `dbus-run-session`
// with gnome-keyring unlocked by a random password and a throw-away HOME, so the tests never touch
// the developer's own keychain.
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const args = process.argv.slice(2)
const haveDbusRun = ['/usr/bin/dbus-run-session', '/bin/dbus-run-session'].some(existsSync)
const haveKeyring = ['/usr/bin/gnome-keyring-daemon'].some(existsSync)

if (!process.env.GEO_ANALYST_TEST_KEYRING && haveDbusRun && haveKeyring) {
  const home = mkdtempSync(path.join(os.tmpdir(), 'geo-analyst-test-home-'))
  const env = {
    ...process.env,
    HOME: home,
    XDG_DATA_HOME: path.join(home, '.local/share'),
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_RUNTIME_DIR: home,
    GEO_ANALYST_TEST_KEYRING: '1',
    KEYRING_PW: randomBytes(12).toString('hex'),
  }
  const inner = `printf %s "$KEYRING_PW" | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec "$0" "$@"`
  const result = spawnSync(
    'dbus-run-session',
    ['--', 'sh', '-c', inner, process.execPath, 'scripts/run-tests.mjs', ...args],
    { stdio: 'inherit', env },
  )
  rmSync(home, { recursive: true, force: true })
  process.exit(result.status ?? 1)
}

if (!haveDbusRun || !haveKeyring) {
  console.warn('No dbus-run-session or gnome-keyring here: keychain tests will say why they are skipped.')
}
const vitest = path.join('node_modules', 'vitest', 'vitest.mjs')
const result = spawnSync(process.execPath, [vitest, 'run', ...args], { stdio: 'inherit' })
process.exit(result.status ?? 1)
