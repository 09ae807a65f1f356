import { spawn } from 'node:child_process'
import { rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../local-service/helpers'

const root = path.resolve(import.meta.dirname, '../../../..')

function cli(args: string[]) {
  return spawn(process.execPath, ['--import', 'tsx', path.join(root, 'electron/cli/main.ts'), ...args], {
    cwd: root,
    env: { ...process.env, GEO_ANALYST_TOKEN: '', GEO_ANALYST_LICENCE_KEY: '' },
  })
}

async function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = cli(args)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  return { code, stdout, stderr }
}

describe('geo-analyst serve / import / datasets', () => {
  it('serve prints the six base URLs and a generated token, answers on 127.0.0.1 and stops on SIGTERM', async () => {
    const dir = await tempDir()
    const child = cli(['serve', '--port', '0', '--workspace', dir, '--no-sample'])
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 15_000)
        child.stdout.on('data', () => {
          if (out.includes('Ctrl-C')) {
            clearTimeout(timer)
            resolve()
          }
        })
      })
      for (const key of [
        'atlas_url',
        'advancedmaps_url',
        'mgis_url',
        'mgis_v2_url',
        'telematics_url',
        'aiml_url',
      ]) {
        expect(out).toMatch(new RegExp(`${key}\\s+http://127\\.0\\.0\\.1:\\d+/`))
      }
      const token = /Generated bearer token: (\S+)/.exec(out)![1]!
      const v2 = /mgis_v2_url\s+(\S+)/.exec(out)![1]!
      const r = await fetch(`${v2}/getLayersList`, { headers: { authorization: `Bearer ${token}` } })
      expect(r.status).toBe(404) // empty workspace: no data found
      child.kill('SIGTERM')
      expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0)
    } finally {
      child.kill('SIGKILL')
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('import then datasets; a duplicate import exits with the conflict code', async () => {
    const dir = await tempDir()
    try {
      const file = path.join(dir, 'pts.geojson')
      await writeFile(file, JSON.stringify({ type: 'Point', coordinates: [77, 28] }))
      const ws = path.join(dir, 'ws')
      const first = await run(['import', file, '--workspace', ws])
      expect(first.code).toBe(0)
      expect(first.stdout).toMatch(/Imported pts: 1 POINT/)
      const again = await run(['import', file, '--workspace', ws])
      expect(again.code).toBe(5)
      expect(again.stderr).toMatch(/already exists/)
      const list = await run(['datasets', '--workspace', ws, '--json'])
      expect(JSON.parse(list.stdout).map((m: { name: string }) => m.name)).toEqual(['pts'])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
