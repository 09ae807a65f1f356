import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  allowNavigation,
  allowPermission,
  appFilePath,
  appOrigins,
  appRequestDecision,
  isTrustedSender,
  secureWebPreferences,
  windowOpenDecision,
} from '../../../electron/main/policy'
import { buildCsp } from '../../../electron/core/csp'

const prodOrigins = appOrigins()
const devOrigins = appOrigins('http://localhost:5173/')

describe('window factory preferences', () => {
  it('isolate the page from Node in every window', () => {
    expect(secureWebPreferences('/app/preload.cjs')).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    })
  })
})

describe('navigation guard', () => {
  it('allows the app’s own pages', () => {
    expect(allowNavigation('app://geo-analyst/index.html', prodOrigins)).toBe(true)
    expect(allowNavigation('http://localhost:5173/settings', devOrigins)).toBe(true)
  })

  it.each([
    'https://evil.test/',
    'app://geo-analyst.evil.test/index.html',
    'app://evil/index.html',
    'http://localhost:5173.evil.test/',
    'http://localhost:5174/',
    'https://localhost:5173/',
    'http://user:pw@localhost:5173/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'not a url',
  ])('refuses %s', (url) => {
    expect(allowNavigation(url, devOrigins)).toBe(false)
  })

  it('refuses look-alike hosts by parsing, not by prefix', () => {
    const origins = ['https://app.example.com']
    expect(allowNavigation('https://app.example.com/page', origins)).toBe(true)
    expect(allowNavigation('https://app.example.com.evil.test/page', origins)).toBe(false)
    expect(allowNavigation('https://app.example.com@evil.test/', origins)).toBe(false)
  })

  it('the dev server is not trusted in a packaged build', () => {
    expect(allowNavigation('http://localhost:5173/', prodOrigins)).toBe(false)
  })
})

describe('window.open', () => {
  it('is always denied', () => {
    expect(windowOpenDecision('app://geo-analyst/index.html')).toEqual({ action: 'deny' })
    expect(windowOpenDecision('https://example.com')).toEqual({ action: 'deny' })
  })
})

describe('permission requests', () => {
  it('deny everything by default', () => {
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'openExternal',
      'clipboard-read',
      'fullscreen',
    ]) {
      expect(allowPermission(permission, 'app://geo-analyst/index.html', prodOrigins)).toBe(false)
    }
  })

  it('allow writing to the clipboard only from the app’s own page', () => {
    expect(allowPermission('clipboard-sanitized-write', 'app://geo-analyst/index.html', prodOrigins)).toBe(
      true,
    )
    expect(allowPermission('clipboard-sanitized-write', 'https://evil.test/', prodOrigins)).toBe(false)
  })
})

describe('IPC sender guard', () => {
  it('trusts only the main frame showing the app', () => {
    expect(
      isTrustedSender({ frameUrl: 'app://geo-analyst/index.html', isMainFrame: true }, prodOrigins),
    ).toBe(true)
    expect(
      isTrustedSender({ frameUrl: 'app://geo-analyst/index.html', isMainFrame: false }, prodOrigins),
    ).toBe(false)
    expect(isTrustedSender({ frameUrl: 'https://evil.test/', isMainFrame: true }, prodOrigins)).toBe(false)
    expect(isTrustedSender({ frameUrl: undefined, isMainFrame: true }, prodOrigins)).toBe(false)
  })
})

describe('app:// file mapping', () => {
  const root = '/opt/geo/renderer'
  it('serves files under the renderer folder', () => {
    expect(appFilePath('app://geo-analyst/assets/index.js', root, path.posix.join)).toBe(
      '/opt/geo/renderer/assets/index.js',
    )
    expect(appFilePath('app://geo-analyst/', root, path.posix.join)).toBe('/opt/geo/renderer/index.html')
  })

  it('keeps dot segments inside the renderer folder', () => {
    expect(appFilePath('app://geo-analyst/%2e%2e/%2e%2e/etc/passwd', root, path.posix.join)).toBe(
      '/opt/geo/renderer/etc/passwd',
    )
  })

  it.each([
    'app://geo-analyst/%E0%A4%A',
    'app://geo-analyst/%',
    'app://geo-analyst/assets/%ZZ.js',
    'app://geo-analyst/a%00b.js',
    'app://geo-analyst/a%2f..%2f..%2f..%2fetc%2fpasswd',
    'app://geo-analyst/a/..%5c..%5csecret',
    'app://other/index.html',
    'https://geo-analyst/index.html',
  ])('refuses %s', (url) => {
    expect(appFilePath(url, root, path.posix.join)).toBeNull()
  })

  it('answers what it refuses: 400 for a malformed path, 404 for another host', () => {
    expect(appRequestDecision('app://geo-analyst/%E0%A4%A', root, path.posix.join)).toEqual({
      status: 400,
    })
    expect(appRequestDecision('app://other/index.html', root, path.posix.join)).toEqual({ status: 404 })
    expect(appRequestDecision('app://geo-analyst/assets/a.js', root, path.posix.join)).toEqual({
      status: 200,
      file: '/opt/geo/renderer/assets/a.js',
    })
  })
})

describe('content security policy', () => {
  it('allows only the app’s own scripts', () => {
    const csp = buildCsp()
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/)
    expect(csp).toContain("object-src 'none'")
    expect(csp).toContain("connect-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
  })

  it('adds the dev server only when developing', () => {
    expect(buildCsp({ devServerOrigin: 'http://localhost:5173' })).toContain(
      "connect-src 'self' http://localhost:5173 ws://localhost:5173",
    )
  })
})
