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

  it('malformed files of every reader exit 2 as validation errors naming the problem, never "unexpected"', async () => {
    const dir = await tempDir()
    try {
      const ws = path.join(dir, 'ws')
      const fgb = new Uint8Array(2048).fill(0xff)
      fgb.set([0x66, 0x67, 0x62, 0x03, 0x66, 0x67, 0x62, 0x00])
      const files: Array<[string, string | Uint8Array, RegExp]> = [
        ['hang.fgb', fgb, /FlatGeobuf file is not readable/],
        [
          'typed.geojson',
          '{"type":"Feature","properties":{},"geometry":{"type":5,"coordinates":[77,28]}}',
          /feature 0: geometry\.type: must be one of/,
        ],
        ['attrs.kml', '<?xml version="1.0"?><kml a="1" a="2"></kml>', /malformed KML/],
        ['ring.csv', 'id,wkt\n1,"POLYGON ((0 0, 1 1, 0 1))"\n', /line 2: not a valid WKT geometry/],
        ['bad.zip', new Uint8Array([0x50, 0x4b, 3, 4, 9, 9, 9]), /not a readable zip archive/],
        ['bad.gpkg', 'SQLite format 3\u0000' + 'x'.repeat(2000), /GeoPackage could not be read/],
      ]
      for (const [name, content, reason] of files) {
        const file = path.join(dir, name)
        await writeFile(file, content)
        const out = await run(['import', file, '--workspace', ws])
        expect(out.code, `${name}: ${out.stderr}`).toBe(2)
        expect(out.stderr).toMatch(/^geo-analyst: validation: /)
        expect(out.stderr).toMatch(reason)
        expect(out.stderr).not.toMatch(/is not a function|unexpected|unclassified/)
      }
      const list = await run(['datasets', '--workspace', ws, '--json'])
      expect(JSON.parse(list.stdout)).toEqual([])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 120_000)

  it('--skip-invalid imports the valid features and says how many were left out', async () => {
    const dir = await tempDir()
    try {
      const file = path.join(dir, 'mixed.geojson')
      const point = (x: number) => ({ type: 'Point', coordinates: [x, 28] })
      await writeFile(
        file,
        JSON.stringify({
          type: 'FeatureCollection',
          features: [
            { type: 'Feature', properties: { n: 1 }, geometry: point(77) },
            { type: 'Feature', properties: { n: 2 }, geometry: { type: 'point', coordinates: [77, 28] } },
            { type: 'Feature', properties: { '': 3 }, geometry: point(78) },
          ],
        }),
      )
      const ws = path.join(dir, 'ws')
      const refused = await run(['import', file, '--workspace', ws])
      expect(refused.code).toBe(2)
      expect(refused.stderr).toMatch(
        /2 of 3 features are invalid: feature 1: .*; feature 2: a property name is empty/,
      )
      expect(refused.stderr).toMatch(/--skip-invalid/)
      const imported = await run(['import', file, '--workspace', ws, '--skip-invalid'])
      expect(imported.code).toBe(0)
      expect(imported.stdout).toMatch(
        /Imported mixed: 1 POINT features, 1 fields\. 2 invalid features were left out\./,
      )
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
