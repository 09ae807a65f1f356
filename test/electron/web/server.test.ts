import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCore } from '../../../electron/core/app-core'
import { MemorySecretStore } from '../../../electron/core/secrets/memory-secret-store'
import { decodeFrames, FRAMES_CONTENT_TYPE } from '../../../electron/contract/frames'
import { EventBus } from '../../../electron/core/events'
import { startWebHost, type WebHost } from '../../../electron/web/server'
import { streamedBody } from '../../support/raw-http'
import { useTempDirs } from '../../support/temp-dir'

const tempDir = useTempDirs()
const hosts: WebHost[] = []
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close()
})

async function start() {
  const staticDir = tempDir()
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Geo Analyst</title>')
  mkdirSync(path.join(staticDir, 'assets'))
  writeFileSync(path.join(staticDir, 'assets', 'app.js'), 'console.log(1)')
  const core = await createCore({
    configDir: tempDir(),
    host: 'web',
    version: '0',
    secretStore: new MemorySecretStore(),
  })
  const host = await startWebHost({ call: core.call, events: core.events, staticDir })
  hosts.push(host)
  return { host, core }
}

const call = (host: WebHost, name: string, init: RequestInit = {}) =>
  fetch(`${host.url}api/op/${name}`, {
    method: 'POST',
    body: '{}',
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  })

describe('browser host', () => {
  it('listens on 127.0.0.1 only and prints a URL that carries the session in the fragment', async () => {
    const { host } = await start()
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
    expect(host.openUrl).toBe(`${host.url}#session=${host.secret}`)
    expect(host.secret.length).toBeGreaterThanOrEqual(32)
  })

  it('answers operations for a caller with the per-run secret', async () => {
    const { host } = await start()
    const response = await call(host, 'settings.get', {
      headers: { 'x-geo-session': host.secret, origin: host.url.slice(0, -1) },
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ ok: true, value: { activeProfile: 'Local' } })
  })

  it('sends an answer that holds bytes (a join’s rows) as JSON followed by the bytes as they are', async () => {
    const rows = new TextEncoder().encode('[{"prop1":"Zürich \\"quoted\\""}]')
    const host = await startWebHost({
      call: async (name) => ({ ok: true, value: { name, rowsJson: rows, rowCount: 1 } }),
      events: new EventBus(),
      staticDir: tempDir(),
    })
    hosts.push(host)
    const response = await call(host, 'gis.join', {
      headers: { 'x-geo-session': host.secret, origin: host.url.slice(0, -1) },
    })
    expect(response.headers.get('content-type')).toBe(FRAMES_CONTENT_TYPE)
    const body = await response.arrayBuffer()
    expect(Number(response.headers.get('content-length'))).toBe(body.byteLength)
    const answer = decodeFrames(body) as {
      ok: true
      value: { name: string; rowsJson: Uint8Array; rowCount: number }
    }
    expect(answer.value.name).toBe('gis.join')
    expect(answer.value.rowCount).toBe(1)
    expect([...answer.value.rowsJson]).toEqual([...rows])
  })

  it('refuses calls without the secret or with a wrong one', async () => {
    const { host } = await start()
    expect((await call(host, 'settings.get')).status).toBe(401)
    const wrong = await call(host, 'settings.get', {
      // The last character changed to one it is not (a fixed 'x' would match one secret in 64).
      headers: { 'x-geo-session': host.secret.slice(0, -1) + (host.secret.endsWith('x') ? 'y' : 'x') },
    })
    expect(wrong.status).toBe(401)
    expect(await wrong.json()).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/session secret/) },
    })
  })

  it('refuses calls from a foreign origin even with the secret', async () => {
    const { host } = await start()
    const foreign = await call(host, 'secrets.set', {
      headers: { 'x-geo-session': host.secret, origin: 'http://evil.test' },
      body: JSON.stringify({ name: 'token', value: 'stolen' }),
    })
    expect(foreign.status).toBe(403)
    const lookalike = await call(host, 'settings.get', {
      headers: { 'x-geo-session': host.secret, origin: `http://127.0.0.1:${host.port}.evil.test` },
    })
    expect(lookalike.status).toBe(403)
    const crossSite = await call(host, 'settings.get', {
      headers: { 'x-geo-session': host.secret, 'sec-fetch-site': 'cross-site' },
    })
    expect(crossSite.status).toBe(403)
  })

  it('refuses requests that name another host (DNS rebinding)', async () => {
    const { host } = await start()
    const { request } = await import('node:http')
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: host.port, path: '/', headers: { host: 'evil.test' } },
        (res) => {
          res.resume()
          resolve(res.statusCode)
        },
      )
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(421)
  })

  it('gives each page load its own style nonce, and images only from the configured tile server', async () => {
    const staticDir = tempDir()
    writeFileSync(
      path.join(staticDir, 'index.html'),
      '<style nonce="GEO_CSP_NONCE"></style><meta property="csp-nonce" nonce="GEO_CSP_NONCE">',
    )
    const core = await createCore({
      configDir: tempDir(),
      host: 'web',
      version: '0',
      secretStore: new MemorySecretStore(),
    })
    const host = await startWebHost({
      call: core.call,
      events: core.events,
      staticDir,
      tileUrls: async () => [(await core.settings.view()).preferences.basemap.xyzUrl],
    })
    hosts.push(host)
    const load = async () => {
      const page = await fetch(host.url)
      const csp = page.headers.get('content-security-policy')!
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1]
      return { csp, nonce, html: await page.text() }
    }
    const first = await load()
    const second = await load()
    expect(first.nonce).toBeDefined()
    expect(first.nonce).not.toBe(second.nonce)
    expect(first.html).toBe(
      `<style nonce="${first.nonce}"></style><meta property="csp-nonce" nonce="${first.nonce}">`,
    )
    expect(first.csp).not.toContain('unsafe-inline')
    expect(first.csp).toContain("img-src 'self' data: blob: https://tile.openstreetmap.org;")
    await core.call('settings.savePreferences', {
      basemap: { kind: 'xyz', xyzUrl: 'https://{a-b}.tiles.example.com/{z}/{x}/{y}.png' },
    })
    expect((await load()).csp).toContain(
      "img-src 'self' data: blob: https://a.tiles.example.com https://b.tiles.example.com;",
    )
  })

  it('serves the renderer with the CSP and never files outside it', async () => {
    const { host } = await start()
    const page = await fetch(host.url)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(await page.text()).toContain('Geo Analyst')
    expect((await fetch(`${host.url}assets/app.js`)).headers.get('content-type')).toMatch(/javascript/)
    expect((await fetch(`${host.url}assets%2f..%2f..%2f..%2fetc%2fpasswd`)).status).toBe(400)
    expect(await (await fetch(`${host.url}%2e%2e/%2e%2e/etc/passwd`)).text()).not.toMatch(/root:/)
    expect((await fetch(`${host.url}missing.js`)).status).toBe(404)
  })

  it('answers an operation body over the limit with 413 and a JSON error, not a reset', async () => {
    const { host } = await start()
    const headers = { 'x-geo-session': host.secret, 'content-type': 'application/json' }
    // Over the limit as declared (Content-Length) and as streamed without a declared length.
    const declared = await fetch(`${host.url}api/op/settings.get`, {
      method: 'POST',
      headers,
      body: Buffer.alloc(65 * 1024 * 1024, 0x20),
    })
    expect(declared.status).toBe(413)
    expect(await declared.json()).toMatchObject({
      ok: false,
      error: { failureClass: 'validation', status: 413, message: expect.stringMatching(/32 MiB/) },
    })
    const streamed = await fetch(`${host.url}api/op/settings.get`, {
      method: 'POST',
      headers,
      ...streamedBody(Buffer.alloc(1024 * 1024, 0x20), 40),
    })
    expect(streamed.status).toBe(413)
    expect((await call(host, 'settings.get', { headers })).status).toBe(200)
  })

  it('pushes core events to subscribed pages', async () => {
    const { host } = await start()
    const response = await fetch(`${host.url}api/events`, { headers: { 'x-geo-session': host.secret } })
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
    await call(host, 'settings.savePreferences', {
      headers: { 'x-geo-session': host.secret },
      body: JSON.stringify({ basemap: { kind: 'xyz', xyzUrl: 'https://tiles.example.com/{z}/{x}/{y}.png' } }),
    })
    let text = ''
    while (!text.includes('settings.changed')) text += (await reader.read()).value ?? ''
    expect(JSON.parse(text.trim().split('\n').pop()!)).toMatchObject({
      name: 'settings.changed',
      payload: { preferences: { basemap: { kind: 'xyz' } } },
    })
    await reader.cancel()
  })
})
