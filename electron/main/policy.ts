/**
 * Every security decision of the Electron shell as a pure function, so each is tested without Electron.
 * This file must not import `electron`.
 */
import { staticPathSegments } from '../core/static-path'

/** The app's own page is served from this privileged custom scheme in production. */
export const APP_SCHEME = 'app'
export const APP_HOST = 'geo-analyst'
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`

/** webPreferences every window gets; the window factory applies them and nothing may override them. */
export function secureWebPreferences(preloadPath: string) {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    safeDialogs: true,
  } as const
}

/** The origins the app's own page may have: the custom scheme, plus the dev server while developing. */
export function appOrigins(devServerUrl?: string): string[] {
  const origins = [APP_ORIGIN]
  if (devServerUrl) {
    const origin = originOf(devServerUrl)
    if (origin) origins.push(origin)
  }
  return origins
}

/**
 * The origin of a URL by real parsing, or null. `app://geo-analyst/x` has the opaque origin "null" in
 * WHATWG terms, so custom schemes are rebuilt from scheme and host.
 */
export function originOf(url: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (parsed.username || parsed.password) return null
  if (parsed.protocol === `${APP_SCHEME}:`) return `${APP_SCHEME}://${parsed.host}`
  if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.origin
  return null
}

export function isAppUrl(url: string, origins: readonly string[]): boolean {
  const origin = originOf(url)
  return origin !== null && origins.includes(origin)
}

/** `will-navigate`, `will-redirect` and `will-frame-navigate`: only within the app's own origin. */
export function allowNavigation(url: string, origins: readonly string[]): boolean {
  return isAppUrl(url, origins)
}

/**
 * Where a navigation event goes: the URL on the event (`will-frame-navigate` gives it there only), else
 * the listener's second argument; '' (refused) when neither is a string.
 */
export function navigationTarget(event: { url?: unknown }, url?: unknown): string {
  if (typeof event.url === 'string') return event.url
  return typeof url === 'string' ? url : ''
}

/** `setWindowOpenHandler`: no new windows, ever. */
export function windowOpenDecision(_url: string): { action: 'deny' } {
  return { action: 'deny' }
}

/** The navigation events of a web contents: each is refused unless it stays on the app's own origin. */
export const NAVIGATION_EVENTS = ['will-navigate', 'will-redirect', 'will-frame-navigate'] as const

/** What `guardWebContents` needs of Electron's WebContents. */
export interface GuardableContents {
  on(
    event: string,
    listener: (event: { url?: string; preventDefault(): void }, url?: string) => void,
  ): unknown
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void
}

/**
 * Guard a web contents, whoever made it: navigation, redirects and (sub-)frame navigation only within the
 * app's origin; no new windows; no webviews. `will-frame-navigate` gives the URL on the event only.
 */
export function guardWebContents(contents: GuardableContents, origins: readonly string[]): void {
  contents.setWindowOpenHandler(({ url }) => windowOpenDecision(url))
  for (const name of NAVIGATION_EVENTS) {
    contents.on(name, (event, url) => {
      if (!allowNavigation(navigationTarget(event, url), origins)) event.preventDefault()
    })
  }
  contents.on('will-attach-webview', (event) => event.preventDefault())
}

/** What `guardEveryWebContents` needs of Electron's `app`. */
export interface ContentsCreatingApp {
  on(event: 'web-contents-created', listener: (event: unknown, contents: GuardableContents) => void): unknown
}

/**
 * Guard every web contents when it is created, whoever made it (the app's window, a child window, a
 * webview, devtools): call before the first window is made.
 */
export function guardEveryWebContents(app: ContentsCreatingApp, origins: readonly string[]): void {
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, origins))
}

/** What `focusExisting` needs of a BrowserWindow. */
export interface FocusableWindow {
  isDestroyed(): boolean
  isMinimized(): boolean
  restore(): void
  show(): void
  focus(): void
}

/** A second instance was started: the first brings its window forward (the second quits at once). */
export function focusExisting(window: FocusableWindow | null | undefined): void {
  if (!window || window.isDestroyed()) return
  if (window.isMinimized()) window.restore()
  window.show()
  window.focus()
}

/**
 * `before-quit`: hold the quit until `close` (the core, with the local service's process) is done, then
 * quit for real; a failed close still quits. Later `before-quit` events pass.
 */
export function closeBeforeQuit(
  close: () => Promise<void>,
  quit: () => void,
): (event: { preventDefault(): void }) => void {
  let state: 'open' | 'closing' | 'closed' = 'open'
  return (event) => {
    if (state === 'closed') return
    event.preventDefault()
    if (state === 'closing') return
    state = 'closing'
    void close()
      .catch(() => undefined)
      .finally(() => {
        state = 'closed'
        quit()
      })
  }
}

/** Permissions the app's own page may use; everything else, and everything from elsewhere, is denied. */
const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write'])

export function allowPermission(
  permission: string,
  requestingUrl: string,
  origins: readonly string[],
): boolean {
  return ALLOWED_PERMISSIONS.has(permission) && isAppUrl(requestingUrl, origins)
}

/** An IPC sender is trusted only when it is the main frame of an app window showing the app's page. */
export interface SenderFacts {
  frameUrl: string | undefined
  isMainFrame: boolean
}

export function isTrustedSender(sender: SenderFacts, origins: readonly string[]): boolean {
  return sender.isMainFrame && sender.frameUrl !== undefined && isAppUrl(sender.frameUrl, origins)
}

/** What the `app://` protocol answers: a file under the renderer folder, or a refusal. */
export type AppRequestDecision = { status: 200; file: string } | { status: 400 | 404 }

/**
 * Map an `app://geo-analyst/<path>` request to a file under the renderer folder: 404 for anything
 * that is not this app's host, 400 for a malformed or escaping path. Never throws.
 */
export function appRequestDecision(
  url: string,
  rendererDir: string,
  join: (...p: string[]) => string,
): AppRequestDecision {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { status: 400 }
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return { status: 404 }
  const segments = staticPathSegments(parsed.pathname)
  if (!segments) return { status: 400 }
  return { status: 200, file: join(rendererDir, ...(segments.length ? segments : ['index.html'])) }
}

/** The file an `app://` request names, or null when it is refused. */
export function appFilePath(
  url: string,
  rendererDir: string,
  join: (...p: string[]) => string,
): string | null {
  const decision = appRequestDecision(url, rendererDir, join)
  return decision.status === 200 ? decision.file : null
}
