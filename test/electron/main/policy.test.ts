import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  allowNavigation,
  allowPermission,
  appFilePath,
  appOrigins,
  appRequestDecision,
  closeBeforeQuit,
  focusExisting,
  guardEveryWebContents,
  guardWebContents,
  isTrustedSender,
  navigationTarget,
  secureWebPreferences,
  windowOpenDecision,
} from '../../../electron/main/policy'
import { tileSources } from '../../../electron/contract'
import { buildCsp, newCspNonce, withCspNonce } from '../../../electron/core/csp'

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

describe('where a navigation event goes', () => {
  it('is the URL on the event, else the listener’s argument, else nothing (refused)', () => {
    expect(navigationTarget({ url: 'https://evil.test/' }, 'app://geo-analyst/')).toBe('https://evil.test/')
    expect(navigationTarget({}, 'https://evil.test/')).toBe('https://evil.test/')
    expect(navigationTarget({ url: undefined }, undefined)).toBe('')
    expect(navigationTarget({ url: 42 }, { href: 'x' })).toBe('')
    expect(allowNavigation(navigationTarget({}, undefined), prodOrigins)).toBe(false)
  })
})

describe('guards on every web contents', () => {
  /** A stand-in for Electron's WebContents: records its listeners and handler, fires events at them. */
  function fakeContents() {
    const listeners = new Map<
      string,
      (event: { url?: string; preventDefault(): void }, url?: string) => void
    >()
    let openHandler: ((details: { url: string }) => { action: string }) | undefined
    return {
      on(event: string, listener: (event: { url?: string; preventDefault(): void }, url?: string) => void) {
        listeners.set(event, listener)
      },
      setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
        openHandler = handler
      },
      /** Whether the event was prevented, with the URL given as Electron gives it for that event. */
      fire(event: string, url: string): boolean {
        let prevented = false
        const e = { url, preventDefault: () => void (prevented = true) }
        listeners.get(event)?.(e, event === 'will-frame-navigate' ? undefined : url)
        return prevented
      },
      open: (url: string) => openHandler?.({ url }),
      events: () => [...listeners.keys()].sort(),
    }
  }

  it('refuse navigation, redirects and frame navigation away from the app, and every new window', () => {
    const contents = fakeContents()
    guardWebContents(contents, prodOrigins)
    expect(contents.events()).toEqual([
      'will-attach-webview',
      'will-frame-navigate',
      'will-navigate',
      'will-redirect',
    ])
    for (const event of ['will-navigate', 'will-redirect', 'will-frame-navigate']) {
      expect(contents.fire(event, 'https://evil.test/'), event).toBe(true)
      expect(contents.fire(event, 'app://geo-analyst/index.html'), event).toBe(false)
    }
    expect(contents.fire('will-attach-webview', 'app://geo-analyst/')).toBe(true)
    expect(contents.open('app://geo-analyst/index.html')).toEqual({ action: 'deny' })
  })

  it('are put on every web contents the app creates, not only the window’s', () => {
    // A stand-in for Electron's `app`: records its listeners; `create` emits `web-contents-created`.
    const listeners = new Map<
      string,
      ((event: unknown, contents: ReturnType<typeof fakeContents>) => void)[]
    >()
    const app = {
      on(event: string, listener: (event: unknown, contents: ReturnType<typeof fakeContents>) => void) {
        listeners.set(event, [...(listeners.get(event) ?? []), listener])
      },
    }
    const create = () => {
      const contents = fakeContents()
      for (const listener of listeners.get('web-contents-created') ?? []) listener({}, contents)
      return contents
    }
    guardEveryWebContents(app, devOrigins)
    // The app window's contents, a child window's, a devtools', made in any order after the registration.
    const made = [create(), create(), create()]
    for (const [i, contents] of made.entries()) {
      expect(contents.events(), `contents ${i}`).toEqual([
        'will-attach-webview',
        'will-frame-navigate',
        'will-navigate',
        'will-redirect',
      ])
      for (const event of ['will-navigate', 'will-redirect', 'will-frame-navigate']) {
        // A redirect to another site (a link the page followed answered 302 elsewhere) is refused.
        expect(contents.fire(event, 'https://evil.test/landing'), `${event} of contents ${i}`).toBe(true)
        expect(contents.fire(event, 'http://localhost:5173.evil.test/'), `${event} of contents ${i}`).toBe(
          true,
        )
        expect(contents.fire(event, 'http://localhost:5173/index.html'), `${event} of contents ${i}`).toBe(
          false,
        )
      }
      expect(contents.fire('will-attach-webview', 'http://localhost:5173/')).toBe(true)
      expect(contents.open('http://localhost:5173/')).toEqual({ action: 'deny' })
    }
  })
})

describe('a second instance', () => {
  it('brings the first instance’s window forward, restoring it when minimized', () => {
    const calls: string[] = []
    const window = {
      isMinimized: () => true,
      restore: () => void calls.push('restore'),
      show: () => void calls.push('show'),
      focus: () => void calls.push('focus'),
      isDestroyed: () => false,
    }
    focusExisting(window)
    expect(calls).toEqual(['restore', 'show', 'focus'])
    expect(() => focusExisting(null)).not.toThrow()
    expect(() => focusExisting({ ...window, isDestroyed: () => true })).not.toThrow()
  })
})

describe('quitting', () => {
  it('holds the quit until the core has closed (the local service stopped), once', async () => {
    let closes = 0
    let release: () => void = () => {}
    const quits: number[] = []
    const onBeforeQuit = closeBeforeQuit(
      () => (closes++, new Promise<void>((resolve) => (release = resolve))),
      () => void quits.push(closes),
    )
    const prevented: boolean[] = []
    const event = () => ({ preventDefault: () => void prevented.push(true) })
    onBeforeQuit(event())
    onBeforeQuit(event())
    expect(closes).toBe(1)
    expect(prevented).toHaveLength(2)
    release()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(quits).toEqual([1])
    onBeforeQuit(event())
    expect(prevented).toHaveLength(2)
  })

  it('quits even when closing fails', async () => {
    const quits: string[] = []
    const onBeforeQuit = closeBeforeQuit(
      () => Promise.reject(new Error('service did not stop')),
      () => void quits.push('quit'),
    )
    onBeforeQuit({ preventDefault() {} })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(quits).toEqual(['quit'])
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

  it('adds the dev server only when developing, and its styles need the nonce too', () => {
    const dev = buildCsp({ devServerOrigin: 'http://localhost:5173', styleNonce: 'd3v' })
    expect(dev).toContain("connect-src 'self' http://localhost:5173 ws://localhost:5173")
    expect(directive(dev, 'style-src')).toBe("style-src 'self' 'nonce-d3v'")
    expect(buildCsp({ devServerOrigin: 'http://localhost:5173' })).not.toContain('unsafe-inline')
  })

  it('refuses every style attribute (the CSSOM stays allowed: CSP does not govern it)', () => {
    for (const csp of [
      buildCsp(),
      buildCsp({ styleNonce: 'n' }),
      buildCsp({ devServerOrigin: 'http://localhost:5173' }),
    ])
      expect(directive(csp, 'style-src-attr')).toBe("style-src-attr 'none'")
  })

  it('allows images from the configured tile servers only, never any https host', () => {
    const csp = buildCsp({ tileUrls: ['https://{a-c}.tile.example.com/{z}/{x}/{y}.png'] })
    expect(directive(csp, 'img-src')).toBe(
      "img-src 'self' data: blob: https://a.tile.example.com https://b.tile.example.com https://c.tile.example.com",
    )
    expect(directive(buildCsp(), 'img-src')).toBe("img-src 'self' data: blob:")
    expect(directive(buildCsp({ tileUrls: ['javascript:alert(1)//{z}/{x}/{y}'] }), 'img-src')).toBe(
      "img-src 'self' data: blob:",
    )
  })

  it('allows style elements by this response’s nonce, without unsafe-inline outside development', () => {
    const csp = buildCsp({ styleNonce: 'n0nce' })
    expect(directive(csp, 'style-src')).toBe("style-src 'self' 'nonce-n0nce'")
    expect(csp).not.toContain('unsafe-inline')
    expect(withCspNonce('<style nonce="GEO_CSP_NONCE"></style><meta nonce="GEO_CSP_NONCE">', 'n0nce')).toBe(
      '<style nonce="n0nce"></style><meta nonce="n0nce">',
    )
    expect(newCspNonce()).not.toBe(newCspNonce())
  })
})

describe('tile sources of an XYZ template', () => {
  it.each([
    ['https://tile.openstreetmap.org/{z}/{x}/{y}.png', ['https://tile.openstreetmap.org']],
    ['http://localhost:8080/{z}/{x}/{y}.png', ['http://localhost:8080']],
    ['https://{s}.tiles.example.org/{z}/{x}/{y}.png', ['https://*.tiles.example.org']],
    ['https://t{1-2}.example.net/{z}/{x}/{-y}.jpg', ['https://t1.example.net', 'https://t2.example.net']],
    ['https://user:pw@tiles.example.com/{z}/{x}/{y}', []],
    ['https://{z}{x}.example.com/{y}', []],
    ['file:///etc/{z}/{x}/{y}', []],
  ])('%s', (template, sources) => {
    expect(tileSources(template)).toEqual(sources)
  })
})

function directive(csp: string, name: string): string | undefined {
  return csp.split('; ').find((d) => d.startsWith(`${name} `))
}
