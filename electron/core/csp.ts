/**
 * The Content-Security-Policy of the app's page, the same in Electron and in the browser host:
 * only the app's own scripts; no eval, no inline scripts, no plugins, no framing, no foreign connections.
 * Images may come from https tile servers (the online basemap); images cannot run code.
 */
export function buildCsp(options: { devServerOrigin?: string } = {}): string {
  const dev = options.devServerOrigin
  const connect = ["'self'", ...(dev ? [dev, dev.replace(/^http/, 'ws')] : [])].join(' ')
  return [
    "default-src 'none'",
    `script-src 'self'${dev ? ` ${dev}` : ''}`,
    // Vue and the component library set style attributes at run time.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
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
