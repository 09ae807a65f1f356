import { randomBytes } from 'node:crypto'
import { tileSources } from '../contract'

/**
 * What the built page (`out/renderer/index.html`) carries where each response's nonce goes: Vite's
 * `html.cspNonce` writes it on the page's own tags and in `<meta property="csp-nonce">`, from which the
 * renderer hands it to the component library for the style elements it adds at run time.
 */
export const CSP_NONCE_PLACEHOLDER = 'GEO_CSP_NONCE'

export interface CspOptions {
  /** The dev server while developing (hot reload): its scripts and socket. */
  devServerOrigin?: string
  /** XYZ tile templates of the settings: their hosts, and no others, may serve images (map tiles). */
  tileUrls?: readonly string[]
  /** This response's nonce: style elements must carry it (no style element without it). */
  styleNonce?: string
}

/**
 * The Content-Security-Policy of the app's page, the same in Electron (built or on the dev server) and in
 * the browser host: only the app's own scripts (no eval, no inline script); styles from the app's files
 * and from style elements carrying this response's nonce, never `'unsafe-inline'` (the dev server's page
 * gets one too: `electron/main/dev-server-policy.ts`); no `style="…"` attribute, whether in HTML or
 * set with `setAttribute('style', …)` (`style-src-attr 'none'`: the style of an element set through the
 * CSSOM — `el.style.x = …`, `cssText`, `setProperty`, as Vue's `:style` and OpenLayers do — is not
 * governed by CSP and stays allowed); images from the app and the configured tile servers only; no
 * plugins, no framing, no foreign connections.
 */
export function buildCsp(options: CspOptions = {}): string {
  const dev = options.devServerOrigin
  const connect = ["'self'", ...(dev ? [dev, dev.replace(/^http/, 'ws')] : [])].join(' ')
  const style = options.styleNonce ? `'self' 'nonce-${options.styleNonce}'` : "'self'"
  const tiles = [...new Set((options.tileUrls ?? []).flatMap(tileSources))]
  return [
    "default-src 'none'",
    `script-src 'self'${dev ? ` ${dev}` : ''}`,
    `style-src ${style}`,
    "style-src-attr 'none'",
    ['img-src', "'self'", 'data:', 'blob:', ...tiles].join(' '),
    "font-src 'self' data:",
    `connect-src ${connect}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "frame-src 'none'",
  ].join('; ')
}

/**
 * `npm run dev`: the environment variable that carries this run's style nonce from electron-vite (whose
 * dev server writes it on the page, `devServerCspNonce`) to the Electron it starts (whose policy names it).
 */
export const DEV_CSP_NONCE_ENV = 'GEO_ANALYST_DEV_CSP_NONCE'

/**
 * The dev server's nonce for this `npm run dev`: made once, kept in the environment the Electron child
 * inherits. The dev server writes the page itself, so its nonce is one per run rather than per response.
 */
export function devServerCspNonce(env: Record<string, string | undefined> = process.env): string {
  return (env[DEV_CSP_NONCE_ENV] ??= newCspNonce())
}

/** A fresh nonce for one response of the page. */
export function newCspNonce(): string {
  return randomBytes(18).toString('base64')
}

/** The page's HTML with this response's nonce where the build left the placeholder. */
export function withCspNonce(html: string, nonce: string): string {
  return html.replaceAll(CSP_NONCE_PLACEHOLDER, nonce)
}
