import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { feature, runService, TOKEN, type Running } from '../local-service/helpers'
import { makeTestPki, type TestPki } from '../../support/tls'
import { runCliProcess } from '../../support/cli'

let pki: TestPki
let svc: Running
let configDir: string
let env: NodeJS.ProcessEnv

beforeAll(async () => {
  pki = await makeTestPki()
  svc = await runService(
    { wards: [feature({ type: 'Point', coordinates: [1, 1] }, { name: 'a' })] },
    { listen: { host: '127.0.0.1', port: 0 }, tls: { certFile: pki.certFile, keyFile: pki.keyFile } },
  )
  configDir = await mkdtemp(path.join(os.tmpdir(), 'ga-config-'))
  env = {
    GEO_ANALYST_CONFIG_DIR: configDir,
    GEO_ANALYST_DATA_DIR: path.join(configDir, 'data'),
    GEO_ANALYST_TOKEN: TOKEN,
    GEO_ANALYST_LICENCE_KEY: 'licence',
  }
}, 60_000)

afterAll(async () => {
  await svc?.stop()
  await pki?.remove()
  if (configDir) await rm(configDir, { recursive: true, force: true })
})

function urlFlags(): string[] {
  return Object.entries(svc.service.urls).flatMap(([k, v]) => [`--${k.replace(/_/g, '-')}`, v])
}

describe('a remote profile trusting its server’s CA (profile set --ca-cert)', () => {
  it('reaches an HTTPS service with its own CA only when the profile carries that CA', async () => {
    const plain = await runCliProcess(['profile', 'set', 'Team', ...urlFlags()], { env })
    expect(plain).toMatchObject({ code: 0, stderr: '' })
    const untrusted = await runCliProcess(['call', 'gis.layers', '--profile', 'Team'], { env })
    expect(untrusted.code).not.toBe(0)
    expect(untrusted.stderr).toMatch(/the server's TLS certificate is not trusted \(\w+\)/)
    expect(untrusted.stderr).toContain('--ca-cert FILE')

    const set = await runCliProcess(['profile', 'set', 'Team', '--ca-cert', pki.caFile], { env })
    expect(set).toMatchObject({ code: 0, stderr: '' })
    const saved = JSON.parse(readFileSync(path.join(configDir, 'settings.json'), 'utf8')) as {
      profiles: Array<{ name: string; caCertificate?: string; urls: Record<string, string> }>
    }
    const team = saved.profiles.find((p) => p.name === 'Team')!
    expect(team.caCertificate?.trim()).toBe(pki.caPem.trim())
    expect(team.urls.mgis_v2_url).toBe(svc.service.urls.mgis_v2_url) // URLs kept
    const show = await runCliProcess(['profile', 'show', 'Team'], { env })
    expect(show.stdout).toMatch(
      /server CA\s+CN=Geo Analyst test CA \(SHA-256 ([0-9A-F]{2}:){31}[0-9A-F]{2}\)/,
    )

    const trusted = await runCliProcess(['call', 'gis.layers', '--profile', 'Team'], { env })
    expect(trusted.code, trusted.stderr).toBe(0)
    expect(JSON.parse(trusted.stdout)).toMatchObject({ success: true, layers: [{ layername: 'wards' }] })

    // Changing a URL keeps the CA; --no-ca-cert removes it.
    const kept = await runCliProcess(['profile', 'set', 'Team', '--aiml-url', svc.service.urls.aiml_url], {
      env,
    })
    expect(kept.code).toBe(0)
    expect((await runCliProcess(['call', 'gis.layers', '--profile', 'Team'], { env })).code).toBe(0)
    expect((await runCliProcess(['profile', 'set', 'Team', '--no-ca-cert'], { env })).code).toBe(0)
    expect((await runCliProcess(['call', 'gis.layers', '--profile', 'Team'], { env })).code).not.toBe(0)
  }, 120_000)

  it('refuses what is not a PEM certificate, and a private key, naming the problem', async () => {
    const key = await runCliProcess(['profile', 'set', 'Other', ...urlFlags(), '--ca-cert', pki.keyFile], {
      env,
    })
    expect(key.code).not.toBe(0)
    expect(key.stderr).toContain('this is a private key: give the CA certificate')
    expect(key.stderr).not.toContain('PRIVATE KEY-----\n')
    const junk = await runCliProcess(
      ['profile', 'set', 'Other', ...urlFlags(), '--ca-cert', path.join(pki.dir, 'ext.cnf')],
      { env },
    )
    expect(junk.stderr).toContain('a CA certificate must be PEM text')
    const missing = await runCliProcess(
      ['profile', 'set', 'Other', ...urlFlags(), '--ca-cert', path.join(pki.dir, 'nope.pem')],
      { env },
    )
    expect(missing.stderr).toContain(
      `cannot read the CA certificate ${path.join(pki.dir, 'nope.pem')}: ENOENT`,
    )
  }, 60_000)
})
