import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCore } from '../../../electron/core/app-core'
import { MemorySecretStore } from '../../../electron/core/secrets/memory-secret-store'
import {
  decodeFrames,
  FRAMES_CONTENT_TYPE,
  FRAMES_LEAD_HEADER,
  framesEnd,
  readLead,
} from '../../../electron/contract/frames'
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

  it('sends an answer that holds bytes (a join’s rows) as the bytes as they are, then the JSON', async () => {
    const rows = new TextEncoder().encode('[{"prop1":"Zürich \\"quoted\\""}]')
    const host = await startWebHost({
      call: async (name) => ({
        ok: true,
        value: { name, rowsJson: rows, rowCount: 1, savedDataset: '東京' },
      }),
      events: new EventBus(),
      staticDir: tempDir(),
    })
    hosts.push(host)
    const response = await call(host, 'gis.join', {
      headers: { 'x-geo-session': host.secret, origin: host.url.slice(0, -1) },
    })
    expect(response.headers.get('content-type')).toBe(FRAMES_CONTENT_TYPE)
    expect(readLead(response.headers.get(FRAMES_LEAD_HEADER))).toEqual({
      key: 'rowsJson',
      // Named in the header whatever its characters (escaped: a header carries ASCII).
      holder: { name: 'gis.join', rowCount: 1, savedDataset: '東京' },
      length: rows.length,
    })
    const body = new Uint8Array(await response.arrayBuffer())
    expect(Number(response.headers.get('content-length'))).toBe(body.byteLength)
    expect([...body.subarray(0, rows.length)]).toEqual([...rows])
    const answer = decodeFrames(body) as {
      ok: true
      value: { name: string; rowsJson: Uint8Array; rowCount: number }
    }
    expect(answer.value.name).toBe('gis.join')
    expect(answer.value.rowCount).toBe(1)
    expect([...answer.value.rowsJson]).toEqual([...rows])
  })

  describe('a part forwarded while the answer arrives', () => {
    const rows = new TextEncoder().encode(
      `[${Array.from({ length: 20_000 }, (_, i) => `{"prop1":"${i}"}`).join(',')}]`,
    )
    const lead = { key: 'rowsJson', holder: { rowCount: 20_000 }, expectedBytes: rows.length + 100 }

    /**
     * A host whose call forwards `forward` (each a list of pieces, one per attempt), then waits for `hold`,
     * then answers `answer`.
     */
    async function forwarding(forward: Uint8Array[][], answer: () => unknown, hold = Promise.resolve()) {
      const host = await startWebHost({
        call: async (_name, _payload, context) => {
          for (const attempt of forward) {
            context?.tap?.begin(lead)
            for (const piece of attempt) {
              context?.tap?.more(piece)
              await new Promise((resolve) => setTimeout(resolve, 5))
            }
          }
          await hold
          return answer() as never
        },
        events: new EventBus(),
        staticDir: tempDir(),
      })
      hosts.push(host)
      const response = await call(host, 'gis.join', {
        headers: { 'x-geo-session': host.secret, origin: host.url.slice(0, -1) },
      })
      return response
    }

    const pieces = (bytes: Uint8Array, n: number) =>
      Array.from({ length: Math.ceil(bytes.length / n) }, (_, i) => bytes.subarray(i * n, (i + 1) * n))

    it('sends the rows before the answer is known, and the answer refers to them where they went', async () => {
      const sent = pieces(rows.subarray(0, 150_000), 50_000)
      let release!: () => void
      const response = await forwarding(
        [sent],
        () => ({ ok: true, value: { rowsJson: rows, rowCount: 20_000 } }),
        new Promise<void>((resolve) => (release = resolve)),
      )
      expect(response.headers.get('content-type')).toBe(FRAMES_CONTENT_TYPE)
      // The length is not known when the rows start to go.
      expect(response.headers.get('content-length')).toBeNull()
      expect(readLead(response.headers.get(FRAMES_LEAD_HEADER))).toEqual(lead)
      // The forwarded rows arrive while the call has not answered yet.
      const reader = response.body!.getReader()
      const head: Uint8Array[] = []
      let got = 0
      while (got < 150_000) {
        const { value } = await reader.read()
        head.push(value!)
        got += value!.byteLength
      }
      release()
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        head.push(value)
      }
      const body = new Uint8Array(Buffer.concat(head))
      // The rows once, from the body's first byte: their forwarded prefix, then their rest.
      expect(body.byteLength).toBe(
        rows.length +
          framesEnd(
            JSON.stringify({ ok: true, value: { rowsJson: { $bytes: [0, rows.length] }, rowCount: 20_000 } }),
          ).byteLength,
      )
      const answer = decodeFrames(body) as { ok: true; value: { rowsJson: Uint8Array; rowCount: number } }
      expect(answer.value.rowsJson.byteOffset).toBe(0)
      expect(Buffer.from(answer.value.rowsJson).equals(Buffer.from(rows))).toBe(true)
    })

    it('voids what it forwarded when the answer turns out a failure, or another attempt begins', async () => {
      const failed = await forwarding([pieces(rows.subarray(0, 80_000), 40_000)], () => ({
        ok: false,
        error: { failureClass: 'timeout-network', message: 'cut' },
      }))
      expect(decodeFrames(new Uint8Array(await failed.arrayBuffer()))).toEqual({
        ok: false,
        error: { failureClass: 'timeout-network', message: 'cut' },
      })
      const retried = await forwarding(
        [pieces(rows.subarray(0, 70_000), 35_000), pieces(rows.subarray(0, 90_000), 45_000)],
        () => ({ ok: true, value: { rowsJson: rows } }),
      )
      const body = new Uint8Array(await retried.arrayBuffer())
      const answer = decodeFrames(body) as { ok: true; value: { rowsJson: Uint8Array } }
      // After the void attempt's 70,000 bytes.
      expect(answer.value.rowsJson.byteOffset).toBe(70_000)
      expect(Buffer.from(answer.value.rowsJson).equals(Buffer.from(rows))).toBe(true)
    })

    it('sends the rows whole again when the answer’s are not the bytes it forwarded', async () => {
      const other = new TextEncoder().encode('[{"prop1":"other"}]')
      const response = await forwarding([pieces(rows.subarray(0, 60_000), 30_000)], () => ({
        ok: true,
        value: { rowsJson: other },
      }))
      const body = new Uint8Array(await response.arrayBuffer())
      const answer = decodeFrames(body) as { ok: true; value: { rowsJson: Uint8Array } }
      expect(answer.value.rowsJson.byteOffset).toBe(60_000)
      expect(new TextDecoder().decode(answer.value.rowsJson)).toBe('[{"prop1":"other"}]')
    })
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
