import { randomBytes } from 'node:crypto'
import { createReadStream, promises as fs } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import type { Duplex } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import {
  OPERATION_BODY_MAX_BYTES,
  OPERATION_NAMES,
  fail,
  ok,
  type OperationName,
  type Result,
} from '../contract'
import type { EventBus } from '../core/events'
import { buildCsp, newCspNonce, withCspNonce } from '../core/csp'
import { staticPathSegments } from '../core/static-path'
import { SESSION_HEADER, guardRequest } from './guard'
import { AnswerStream, BodyTooLarge, declaredOver, readBody, refuseTooLarge, sendJson } from './body'
import type { CallContext } from '../core/dispatch'
import { requestPath } from './request-target'
import { uploadFileName, type UploadStore } from './uploads'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
}

export interface WebHostOptions {
  call: (name: unknown, payload: unknown, context?: CallContext) => Promise<Result<unknown>>
  events: EventBus
  /** The built renderer (out/renderer). */
  staticDir: string
  port?: number
  /** Fixed only in tests; a fresh random secret per run otherwise. */
  secret?: string
  /** Where `POST /api/upload` puts files for import; without it the host takes no uploads. */
  uploads?: UploadStore
  /** The XYZ tile templates of the settings now: the page's policy lets images come from their hosts. */
  tileUrls?: () => Promise<string[]>
  /** Largest operation body (default `OPERATION_BODY_MAX_BYTES`); smaller only in tests. */
  operationBodyBytes?: number
}

export interface WebHost {
  readonly url: string
  /** The URL to open: carries the secret in the fragment, which browsers never send to servers. */
  readonly openUrl: string
  readonly port: number
  readonly secret: string
  /** The operations this host serves: exactly the contract table. */
  readonly operations: readonly OperationName[]
  close(): Promise<void>
}

/** The browser host: the renderer and the same operations over HTTP, on 127.0.0.1 only. */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const secret = options.secret ?? randomBytes(24).toString('base64url')
  const assetCsp = buildCsp()
  const streams = new Set<http.ServerResponse>()
  const operationBodyBytes = options.operationBodyBytes ?? OPERATION_BODY_MAX_BYTES
  let port = 0

  const server = http.createServer((req, res) => {
    // Nothing a request does may end the process: every failure becomes an answer or a closed socket.
    handle(req, res).catch((error: unknown) => answerFailure(res, error))
  })
  server.on('clientError', answerClientError)

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const pathname = requestPath(req.url)
    if (pathname === null)
      return sendJson(res, 400, fail('validation', 'Bad request target: only paths of this host are served'))
    const api = pathname.startsWith('/api/')
    const decision = guardRequest(
      {
        host: req.headers.host,
        origin: header(req, 'origin'),
        secFetchSite: header(req, 'sec-fetch-site'),
        session: header(req, SESSION_HEADER),
      },
      port,
      secret,
      api,
    )
    if (!decision.allow)
      return sendJson(
        res,
        decision.status,
        fail('authentication', decision.reason, { status: decision.status }),
      )
    if (api) return handleApi(req, res, pathname)
    return serveStatic(req, res, pathname)
  }

  async function handleApi(req: http.IncomingMessage, res: http.ServerResponse, pathname: string) {
    if (pathname === '/api/events' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' })
      res.write('\n')
      streams.add(res)
      res.on('close', () => streams.delete(res))
      return
    }
    if (pathname === '/api/upload' && req.method === 'POST') return receiveUpload(req, res)
    const match = /^\/api\/op\/([A-Za-z.]+)$/.exec(pathname)
    if (!match || req.method !== 'POST')
      return sendJson(res, 404, fail('not-found', `No API route ${req.method} ${pathname}`))
    let payload: unknown
    try {
      const body = await readBody(req, operationBodyBytes)
      payload = JSON.parse(body.toString('utf8') || '{}')
    } catch (error) {
      if (error instanceof BodyTooLarge)
        return refuseTooLarge(req, res, 'The operation request', operationBodyBytes)
      return sendJson(
        res,
        400,
        fail('validation', `Request body is not valid JSON: ${(error as Error).message}`),
      )
    }
    // A join's rows go on to the page while they arrive; the answer, once known, says what they were.
    const answer = new AnswerStream(res)
    answer.end(await options.call(match[1], payload, { tap: answer }))
  }

  /** `POST /api/upload`: the body is a file for import, streamed to a private temp file. */
  async function receiveUpload(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const uploads = options.uploads
    if (!uploads) return sendJson(res, 404, fail('not-found', 'This host takes no uploads'))
    const fileName = uploadFileName(req.headers['x-file-name'])
    if (!fileName) {
      return sendJson(
        res,
        400,
        fail('validation', 'X-File-Name must be the file’s own name, URI-encoded, 1–255 characters', {
          field: 'fileName',
        }),
      )
    }
    if (declaredOver(req, uploads.maxBytes)) return refuseTooLarge(req, res, fileName, uploads.maxBytes)
    try {
      sendJson(res, 200, ok(await uploads.receive(req, fileName)))
    } catch (error) {
      if (error instanceof BodyTooLarge) return refuseTooLarge(req, res, fileName, uploads.maxBytes)
      if (!req.complete) return void res.destroy()
      throw error
    }
  }

  async function serveStatic(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    pathname: string,
  ): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendJson(res, 405, fail('validation', 'Method not allowed'))
    const segments = staticPathSegments(pathname)
    if (!segments) return sendJson(res, 400, fail('validation', 'Bad path'))
    let file = path.join(options.staticDir, ...segments)
    const stat = await fs.stat(file).catch(() => null)
    // Unknown paths without an extension are app routes: answer with the page.
    if (!stat?.isFile()) {
      if (path.extname(file)) return sendJson(res, 404, fail('not-found', `No file ${pathname}`))
      file = path.join(options.staticDir, 'index.html')
    }
    const exists = await fs.stat(file).catch(() => null)
    if (!exists) {
      return sendJson(
        res,
        500,
        fail('local-configuration', 'The renderer is not built; run `npm run build:renderer` first.'),
      )
    }
    const headers = (csp: string) => ({
      'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
      'content-security-policy': csp,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cache-control': 'no-cache',
    })
    if (path.extname(file) === '.html') {
      // The page: a fresh nonce in its tags and its policy; images only from the configured tile servers.
      const nonce = newCspNonce()
      const html = withCspNonce(await fs.readFile(file, 'utf8'), nonce)
      const tileUrls = (await options.tileUrls?.()) ?? []
      res.writeHead(200, headers(buildCsp({ styleNonce: nonce, tileUrls })))
      return void res.end(req.method === 'HEAD' ? undefined : html)
    }
    res.writeHead(200, headers(assetCsp))
    if (req.method === 'HEAD') return void res.end()
    // A read that fails midway (the file vanished, or is not readable) ends this response only.
    await pipeline(createReadStream(file), res).catch(() => res.destroy())
  }

  const unsubscribe = options.events.subscribe((name, payload) => {
    const line = JSON.stringify({ name, payload }) + '\n'
    for (const stream of streams) stream.write(line)
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  port = (server.address() as AddressInfo).port
  const url = `http://127.0.0.1:${port}/`
  return {
    url,
    openUrl: `${url}#session=${secret}`,
    port,
    secret,
    operations: OPERATION_NAMES,
    async close() {
      unsubscribe()
      for (const stream of streams) stream.end()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** A request that failed unexpectedly: a 500 when nothing was sent yet, else the connection is cut. */
function answerFailure(res: http.ServerResponse, error: unknown): void {
  console.error(`geo-analyst web: a request failed: ${(error as Error)?.message ?? String(error)}`)
  if (res.headersSent) return void res.destroy()
  sendJson(res, 500, fail('unclassified', 'The browser host could not answer this request'))
}

/** What Node's HTTP parser refused (bad request line or header): an answer, then the socket closes. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy()
  const status =
    error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400
  const body = JSON.stringify(
    fail('validation', `Malformed HTTP request (${http.STATUS_CODES[status]})`, { status }),
  )
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name]
  return Array.isArray(value) ? value[0] : value
}
