import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { startHost } from '../../support/app'

describe('browser host start', () => {
  it('reports a corrupt settings file once when it starts, and the page gets the same notice', async () => {
    const configDir = mkdtempSync(path.join(os.tmpdir(), 'geo-web-config-'))
    writeFileSync(path.join(configDir, 'settings.json'), '\uFEFF{"version": 1, "activeProfile": "Cloud",')
    const host = await startHost({ fromSource: true, configDir })
    try {
      const [aside] = readdirSync(configDir).filter((f) => f.startsWith('settings.json.corrupt-'))
      expect(aside).toBeDefined()
      await expect.poll(() => host.output()).toMatch(/The settings file .* could not be read/)
      expect(host.output()).toContain(path.join(configDir, aside!))
      const view = await fetch(`${host.url}api/op/settings.get`, {
        method: 'POST',
        headers: { 'x-geo-session': new URL(host.openUrl).hash.slice('#session='.length) },
        body: '{}',
      })
      const body = (await view.json()) as { value: { notice: string } }
      expect(body.value.notice).toContain(path.join(configDir, aside!))
      expect(host.output().match(/could not be read/g)).toHaveLength(1)
    } finally {
      await host.stop()
      rmSync(configDir, { recursive: true, force: true })
    }
  }, 60_000)
})
