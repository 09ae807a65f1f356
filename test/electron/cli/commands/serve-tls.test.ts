import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { Agent, fetch as undiciFetch } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser } from '../../../../electron/local-service/team/users-file'
import { tempDir } from '../../local-service/helpers'
import { makeTestPki, type TestPki } from '../../../support/tls'

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

/** What `serve` printed once it is listening (its output up to "Press Ctrl-C to stop."). */
function started(child: ReturnType<typeof cli>): Promise<string> {
  let out = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 20_000)
    child.stdout.on('data', (d) => {
      out += d
      if (out.includes('Ctrl-C')) {
        clearTimeout(timer)
        resolve(out)
      }
    })
  })
}

let pki: TestPki
beforeAll(async () => {
  pki = await makeTestPki()
}, 30_000)
afterAll(() => pki?.remove())

describe('geo-analyst serve --listen / --tls-cert / --tls-key', () => {
  it('refuses plaintext off loopback before anything starts or binds', async () => {
    const dir = path.join(await tempDir(), 'not-yet')
    for (const [args, missing] of [
      [['--listen', '0.0.0.0:0'], '--tls-cert and --tls-key and --users'],
      [['--listen', '0.0.0.0:0', '--tls-cert', pki.certFile, '--tls-key', pki.keyFile], '--users'],
      [['--listen', '[::]:0', '--users', path.join(dir, 'users.json')], '--tls-cert and --tls-key'],
    ] as const) {
      const r = await run(['serve', ...args, '--workspace', dir, '--no-sample'])
      expect(r.code).not.toBe(0)
      expect(r.stderr).toMatch(/binding to (0\.0\.0\.0|\[::\]) needs --tls-cert and --tls-key and --users: /)
      expect(r.stderr).toContain(`missing ${missing}`)
      expect(r.stdout).toBe('')
      // The service starts by creating its workspace folder: refused before, it never did.
      expect(existsSync(dir)).toBe(false)
    }
    const bad = await run(['serve', '--listen', '127.0.0.1:70000', '--workspace', dir])
    expect(bad.stderr).toContain('--listen "127.0.0.1:70000": the port must be a whole number 0–65535')
    expect(existsSync(dir)).toBe(false)
  }, 60_000)

  it('names the TLS file that cannot serve', async () => {
    const dir = await tempDir()
    try {
      const r = await run([
        'serve',
        ...['--listen', '127.0.0.1:0', '--tls-cert', pki.certFile, '--tls-key', pki.otherKeyFile],
        ...['--workspace', dir, '--no-sample'],
      ])
      expect(r.code).not.toBe(0)
      expect(r.stderr).toContain(
        `the TLS key ${pki.otherKeyFile} does not belong to the certificate ${pki.certFile}`,
      )
      expect(r.stderr).not.toContain('BEGIN')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 30_000)

  it('serves HTTPS on 127.0.0.1 and prints the https URLs', async () => {
    const dir = await tempDir()
    const child = cli([
      'serve',
      ...['--listen', '127.0.0.1:0', '--tls-cert', pki.certFile, '--tls-key', pki.keyFile],
      ...['--workspace', dir, '--no-sample'],
    ])
    const agent = new Agent({ connect: { ca: pki.caPem } })
    try {
      const out = await started(child)
      expect(out).toMatch(/^Team server \(HTTPS\) on 127\.0\.0\.1:\d+, workspace /)
      for (const key of ['atlas_url', 'mgis_v2_url', 'aiml_url'])
        expect(out).toMatch(new RegExp(`${key}\\s+https://127\\.0\\.0\\.1:\\d+/`))
      const token = /Generated bearer token: (\S+)/.exec(out)![1]!
      const v2 = /mgis_v2_url\s+(\S+)/.exec(out)![1]!
      const r = await undiciFetch(`${v2}/getLayersList`, {
        headers: { authorization: `Bearer ${token}` },
        dispatcher: agent,
      })
      expect(r.status).toBe(404) // empty workspace: no data found
      await expect(fetch(`${v2}/getLayersList`)).rejects.toThrow() // the system CAs alone do not trust it
      child.kill('SIGTERM')
      expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0)
    } finally {
      child.kill('SIGKILL')
      await agent.close()
      await rm(dir, { recursive: true, force: true })
    }
  }, 60_000)

  it('--import-dir: a team server takes a user’s import by path from that folder only', async () => {
    const dir = await tempDir()
    const imports = path.join(dir, 'imports')
    await mkdir(imports)
    const points = (x: number) =>
      JSON.stringify({
        type: 'FeatureCollection',
        features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [x, 1] }, properties: {} }],
      })
    await writeFile(path.join(imports, 'shared.geojson'), points(1))
    await writeFile(path.join(dir, 'private.geojson'), points(2))
    const usersFile = path.join(dir, 'users.json')
    const { token } = await addUser(usersFile, { name: 'ann' })
    const child = cli([
      'serve',
      ...['--listen', '127.0.0.1:0', '--tls-cert', pki.certFile, '--tls-key', pki.keyFile],
      ...['--users', usersFile, '--import-dir', imports, '--workspace', path.join(dir, 'ws'), '--no-sample'],
    ])
    const agent = new Agent({ connect: { ca: pki.caPem } })
    try {
      const out = await started(child)
      expect(out).toContain(`Users may import by path from: ${imports}`)
      const origin = new URL(/mgis_url\s+(\S+)/.exec(out)![1]!).origin
      const importing = (file: string, name: string) =>
        undiciFetch(`${origin}/local/datasets/import`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ path: file, name }),
          dispatcher: agent,
        })
      expect((await importing('shared.geojson', 'shared')).status).toBe(201)
      const refused = await importing(path.join(dir, 'private.geojson'), 'private')
      expect(refused.status).toBe(403)
      expect(((await refused.json()) as { message: string }).message).toMatch(/import folder/)
    } finally {
      child.kill('SIGKILL')
      await agent.close()
      await rm(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
