import { buildCsp, newCspNonce, withCspNonce } from '../core/csp'
import { appRequestDecision } from './policy'

/**
 * The `app://geo-analyst/` protocol: the renderer's files, each answer with the page's policy; the page
 * itself with a fresh style nonce and images allowed from the configured tile servers only. Never
 * throws: a refused or failed request is an empty answer with its status. This file must not import
 * `electron`: the host passes how files are read.
 */
export interface AppProtocolOptions {
  rendererDir: string
  join: (...parts: string[]) => string
  readText: (file: string) => Promise<string>
  /** Any other file as a response (Electron's `net.fetch` of its file URL). */
  fetchFile: (file: string) => Promise<Response>
  /** The XYZ tile templates of the settings now. */
  tileUrls: () => Promise<string[]>
}

export function appProtocolHandler(
  options: AppProtocolOptions,
): (request: { url: string }) => Promise<Response> {
  const assetCsp = buildCsp()
  return async (request) => {
    const decision = appRequestDecision(request.url, options.rendererDir, options.join)
    if (decision.status !== 200) return new Response(null, { status: decision.status })
    try {
      if (decision.file.endsWith('.html')) {
        const nonce = newCspNonce()
        const html = withCspNonce(await options.readText(decision.file), nonce)
        const csp = buildCsp({ styleNonce: nonce, tileUrls: await options.tileUrls() })
        return new Response(html, { status: 200, headers: pageHeaders(csp, 'text/html; charset=utf-8') })
      }
      const response = await options.fetchFile(decision.file)
      const headers = new Headers(response.headers)
      for (const [name, value] of Object.entries(pageHeaders(assetCsp))) headers.set(name, value)
      return new Response(response.body, { status: response.status, headers })
    } catch {
      return new Response(null, { status: 404 })
    }
  }
}

function pageHeaders(csp: string, contentType?: string): Record<string, string> {
  return {
    ...(contentType ? { 'content-type': contentType } : {}),
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
  }
}
