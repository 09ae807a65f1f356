import { describe, expect, it } from 'vitest'
import { DEV_CSP_NONCE_ENV, devServerCspNonce } from '../../../electron/core/csp'
import { devServerPolicy } from '../../../electron/main/dev-server-policy'

const DEV = 'http://localhost:5173'
const directive = (csp: string | undefined, name: string) =>
  (csp ?? '').split('; ').find((d) => d.startsWith(`${name} `))

function policy(env: Record<string, string | undefined>, tileUrls = async () => [] as string[]) {
  return devServerPolicy({ devServerUrl: `${DEV}/`, env, tileUrls })
}

describe('npm run dev: one style nonce for the dev server and Electron', () => {
  it('is made once per run and handed on through the environment', () => {
    const env: Record<string, string | undefined> = {}
    const nonce = devServerCspNonce(env)
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{24}$/)
    expect(env[DEV_CSP_NONCE_ENV]).toBe(nonce)
    // The config is read again (a restart of Electron): the same nonce, the one the page still carries.
    expect(devServerCspNonce(env)).toBe(nonce)
    expect(devServerCspNonce({})).not.toBe(nonce)
  })
})

describe('the dev server’s page policy in Electron', () => {
  it('allows styles by this run’s nonce, never unsafe-inline, and no style attribute', async () => {
    const env = {}
    const nonce = devServerCspNonce(env)
    const headers = await policy(env, async () => [
      'https://{a-c}.tiles.example.com/{z}/{x}/{y}.png',
    ]).headers(`${DEV}/`, { 'Content-Type': ['text/html'] })
    expect(headers['Content-Type']).toEqual(['text/html'])
    const csp = headers['Content-Security-Policy']?.[0]
    expect(csp).not.toContain('unsafe-inline')
    expect(directive(csp, 'style-src')).toBe(`style-src 'self' 'nonce-${nonce}'`)
    expect(directive(csp, 'style-src-attr')).toBe("style-src-attr 'none'")
    expect(directive(csp, 'script-src')).toBe(`script-src 'self' ${DEV}`)
    expect(directive(csp, 'connect-src')).toBe(`connect-src 'self' ${DEV} ws://localhost:5173`)
    expect(directive(csp, 'img-src')).toContain('https://c.tiles.example.com')
  })

  it('replaces a policy the dev server sent, in any letter case, rather than adding a second', async () => {
    const env = { [DEV_CSP_NONCE_ENV]: 'abcdefghijklmnopqrstuvwx' }
    const headers = await policy(env).headers(`${DEV}/src/main.ts`, {
      'content-security-policy': ["style-src 'unsafe-inline'"],
      'CONTENT-SECURITY-POLICY': ['default-src *'],
    })
    expect(Object.keys(headers)).toEqual(['Content-Security-Policy'])
    expect(headers['Content-Security-Policy']?.[0]).toContain("'nonce-abcdefghijklmnopqrstuvwx'")
  })

  it('leaves answers from other origins as they came', async () => {
    const env = { [DEV_CSP_NONCE_ENV]: 'abcdefghijklmnopqrstuvwx' }
    const given = { 'content-type': ['image/png'] }
    for (const url of [
      'https://tile.openstreetmap.org/1/0/0.png',
      'http://localhost:5174/',
      'http://localhost:5173.evil.test/',
    ])
      expect(await policy(env).headers(url, given), url).toEqual(given)
    expect(await policy(env).headers('https://tile.openstreetmap.org/1/0/0.png', undefined)).toEqual({})
  })

  it('still answers when the settings cannot be read (no tile server allowed then)', async () => {
    const env = { [DEV_CSP_NONCE_ENV]: 'abcdefghijklmnopqrstuvwx' }
    const headers = await policy(env, () => Promise.reject(new Error('settings unreadable'))).headers(
      `${DEV}/`,
      {},
    )
    expect(directive(headers['Content-Security-Policy']?.[0], 'img-src')).toBe("img-src 'self' data: blob:")
  })

  it('refuses to start without a usable nonce or dev server URL, saying which', () => {
    expect(() => policy({})).toThrow(`${DEV_CSP_NONCE_ENV} is not set`)
    expect(() => policy({ [DEV_CSP_NONCE_ENV]: 'GEO_CSP_NONCE' })).toThrow(
      `${DEV_CSP_NONCE_ENV} is not a base64 nonce`,
    )
    expect(() => policy({ [DEV_CSP_NONCE_ENV]: "x' 'unsafe-inline" })).toThrow('not a base64 nonce')
    expect(() =>
      devServerPolicy({
        devServerUrl: 'file:///tmp/index.html',
        env: { [DEV_CSP_NONCE_ENV]: 'abcdefghijklmnopqrstuvwx' },
        tileUrls: async () => [],
      }),
    ).toThrow('ELECTRON_RENDERER_URL file:///tmp/index.html is not an http(s) URL')
  })
})
