import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHost, type RunningHost } from '../../support/app'
import { rawGet, rawRequest } from '../../support/raw-http'

/**
 * Requests any web page or local program can send to the browser host (no session needed): none may
 * end the host's process. The host runs as its own process, as `npm run web` starts it.
 */
let host: RunningHost
let staticDir: string

beforeAll(async () => {
  staticDir = mkdtempSync(path.join(os.tmpdir(), 'geo-hostile-static-'))
  mkdirSync(path.join(staticDir, 'assets'))
  writeFileSync(path.join(staticDir, 'assets', 'app.js'), 'console.log("Geo Analyst")')
  // A folder where the page is expected: reading it fails after the stat said it exists.
  mkdirSync(path.join(staticDir, 'index.html'))
  host = await startHost({ fromSource: true, args: ['--static-dir', staticDir] })
}, 120_000)

afterAll(async () => {
  await host?.stop()
  if (staticDir) rmSync(staticDir, { recursive: true, force: true })
})

async function stillAnswers(): Promise<void> {
  expect(host.alive(), `the host died:\n${host.output()}`).toBe(true)
  const page = await rawRequest(host.port, rawGet(host.port, '/assets/app.js'))
  expect(page.status).toBe(200)
  expect(page.text).toContain('Geo Analyst')
}

describe('browser host under hostile requests', () => {
  it.each(['//[', '//a:b@', '//%', '//x:99999/', '//[::1', 'http://[', '/%', '/a%zz', '*', '/api/op/%'])(
    'answers the request target %s with 400 and keeps serving',
    async (target) => {
      const answer = await rawRequest(host.port, rawGet(host.port, target))
      expect(answer.status, answer.text).toBe(400)
      expect(answer.text).toMatch(/"failureClass":"validation"/)
      await stillAnswers()
    },
  )

  it('answers a malformed request line or header with 400 and keeps serving', async () => {
    for (const bytes of [
      'GET / HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n',
      'BREW / HTCPCP/1.0\r\n\r\n',
      '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03',
    ]) {
      const answer = await rawRequest(host.port, bytes)
      expect(answer.status === 400 || answer.status === null, answer.text).toBe(true)
      await stillAnswers()
    }
  })

  it('survives a file that fails while it is read', async () => {
    const answer = await rawRequest(host.port, rawGet(host.port, '/'))
    expect(answer.status === null || answer.status >= 400, answer.text).toBe(true)
    await stillAnswers()
  })

  it('survives clients that go away mid-request', async () => {
    // Headers promise a body that never comes; the client then resets the connection.
    const partial = `POST /api/op/settings.get HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nContent-Length: 1000\r\n\r\n{`
    await rawRequest(host.port, partial, { timeoutMs: 300 })
    await stillAnswers()
  })
})
