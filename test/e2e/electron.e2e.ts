/// <reference lib="dom" />
import { createRequire } from 'node:module'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { _electron as electron } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { OPERATION_NAMES } from '../../electron/contract'

const ROOT = path.resolve(import.meta.dirname, '../..')

/** The Electron binary when this machine has one, or why the desktop run is skipped here. */
function electronBinary(): { path?: string; reason: string } {
  try {
    const binary = createRequire(import.meta.url)('electron') as unknown
    if (typeof binary !== 'string') return { reason: 'the electron package did not name a binary' }
    if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
      return { reason: 'no display: run the tests under xvfb-run to include the desktop window' }
    }
    return { path: binary, reason: '' }
  } catch {
    return {
      reason:
        'no Electron binary on this machine (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1); the same renderer runs in the browser-host tests',
    }
  }
}

const binary = electronBinary()
if (!binary.path) console.warn(`Electron end-to-end test skipped: ${binary.reason}`)

describe.skipIf(!binary.path)(`the desktop app in Electron ${binary.reason}`, () => {
  it('opens the app window with the map and exposes only the contract to the page', async () => {
    const configDir = mkdtempSync(path.join(os.tmpdir(), 'geo-electron-config-'))
    const app = await electron.launch({
      executablePath: binary.path,
      args: [path.join(ROOT, 'out/main/index.js'), '--config-dir', configDir],
      env: { ...process.env, GEO_ANALYST_DATA_DIR: configDir },
    })
    try {
      const page = await app.firstWindow()
      await expect.poll(() => page.title()).toMatch(/Geo Analyst/)
      await page.getByRole('region', { name: 'Map' }).waitFor()
      const exposed = await page.evaluate(() => ({
        geo: Object.keys((window as unknown as { geo: object }).geo).sort(),
        node: typeof (window as unknown as { process?: unknown }).process,
        require: typeof (window as unknown as { require?: unknown }).require,
      }))
      expect(exposed).toEqual({ geo: [...OPERATION_NAMES].sort(), node: 'undefined', require: 'undefined' })
    } finally {
      await app.close()
      rmSync(configDir, { recursive: true, force: true })
    }
  })
})
