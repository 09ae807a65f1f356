import { buildCsp, DEV_CSP_NONCE_ENV } from '../core/csp'
import { originOf } from './policy'

/**
 * The page's policy while developing (`npm run dev`): the window shows the dev server's page, and the
 * dev server's answers get the built page's policy (`webRequest.onHeadersReceived` in `index.ts`):
 * `style-src` by nonce, never `'unsafe-inline'`. The dev server writes the page, so the nonce is this
 * run's (`devServerCspNonce`: electron-vite's config makes it and hands it to Electron in
 * `DEV_CSP_NONCE_ENV`); Vite's `html.cspNonce` puts it on the page's tags and in
 * `<meta property="csp-nonce">`, from which Vite's client puts it on every style element it injects.
 * This file must not import `electron`.
 */
export interface DevServerPolicy {
  /** The headers to answer `url` with: the dev server's answers with the policy, others as they came. */
  headers(
    url: string,
    responseHeaders: Record<string, string[]> | undefined,
  ): Promise<Record<string, string[]>>
}

export interface DevServerPolicyOptions {
  /** `ELECTRON_RENDERER_URL`. */
  devServerUrl: string
  /** The environment electron-vite started this process with. */
  env: Record<string, string | undefined>
  /** The XYZ tile templates of the settings now. */
  tileUrls: () => Promise<string[]>
}

/** A nonce as `newCspNonce` makes them: base64 of 18 random bytes, or any base64 of 16 characters or more. */
const NONCE = /^[A-Za-z0-9+/_-]{16,}={0,2}$/

/** The dev server's policy; throws naming what is missing when the dev server or its nonce is not usable. */
export function devServerPolicy(options: DevServerPolicyOptions): DevServerPolicy {
  const devServerOrigin = originOf(options.devServerUrl)
  if (!devServerOrigin || !/^https?:/.test(devServerOrigin)) {
    throw new Error(`ELECTRON_RENDERER_URL ${options.devServerUrl} is not an http(s) URL`)
  }
  const nonce = options.env[DEV_CSP_NONCE_ENV]
  if (!nonce || !NONCE.test(nonce)) {
    throw new Error(
      `${DEV_CSP_NONCE_ENV} is ${nonce ? 'not a base64 nonce' : 'not set'}: the dev server's page would have no ` +
        'style allowed. Start the app with `npm run dev`, whose config gives the dev server and Electron one nonce.',
    )
  }
  return {
    async headers(url, responseHeaders) {
      const headers = { ...responseHeaders }
      if (originOf(url) !== devServerOrigin) return headers
      const tileUrls = await options.tileUrls().catch(() => [])
      // One policy: any the dev server sent (in any letter case) is replaced, not added to.
      for (const name of Object.keys(headers))
        if (name.toLowerCase() === 'content-security-policy') delete headers[name]
      headers['Content-Security-Policy'] = [buildCsp({ devServerOrigin, tileUrls, styleNonce: nonce })]
      return headers
    },
  }
}
