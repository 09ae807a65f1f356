import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request as the fake provider received it. */
export interface Received {
  method: string
  /** Path and query exactly as sent. */
  url: string
  path: string
  query: URLSearchParams
  /** The raw query string, to check bare flags such as `&bridge`. */
  search: string
  headers: http.IncomingHttpHeaders
  body: Buffer
}

/** What the fake answers; scripted per route, consumed in order, the last one repeating. */
export type Script =
  | { status: number; json?: unknown; body?: string | Buffer; headers?: Record<string, string> }
  /** Read the request, then never answer. */
  | { hang: true }
  /** Read the request, then destroy the connection without answering. */
  | { reset: true }
  /** Promise more bytes than are sent, then close. */
  | { truncate: string; status?: number }
  /** Stream this many bytes of JSON-looking filler. */
  | { oversized: number }
  /** Send this body in pieces of `piece` bytes (chunked, no length declared), a macrotask between them. */
  | { stream: Buffer; piece: number; status?: number }

/**
 * A scripted stand-in for the cloud on 127.0.0.1 (port 0): records every request and answers by route
 * with a script that can misbehave. Only ever listens on loopback.
 */
export class FakeProvider {
  readonly received: Received[] = []
  private readonly scripts = new Map<string, Script[]>()
  private readonly sockets = new Set<import('node:net').Socket>()
  private server = http.createServer((req, res) => void this.handle(req, res))
  base = ''

  async start(): Promise<this> {
    this.server.on('connection', (s) => {
      this.sockets.add(s)
      s.on('close', () => this.sockets.delete(s))
    })
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
    return this
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  /**
   * Script answers for a path (without query), e.g. `/mgis/query_apply/join`, or for one method on it
   * (`GET /telematics/alarm`, which wins over the bare path); '*' matches any path.
   */
  on(path: string, ...scripts: Script[]): this {
    this.scripts.set(path, scripts)
    return this
  }

  /** Requests received for a path (of one method, when given). */
  to(path: string, method?: string): Received[] {
    return this.received.filter((r) => r.path === path && (!method || r.method === method))
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const url = req.url ?? '/'
    const q = url.indexOf('?')
    const path = decodeURI(q === -1 ? url : url.slice(0, q))
    const search = q === -1 ? '' : url.slice(q + 1)
    this.received.push({
      method: req.method ?? '',
      url,
      path,
      search,
      query: new URLSearchParams(search),
      headers: req.headers,
      body: Buffer.concat(chunks),
    })
    const list =
      this.scripts.get(`${req.method ?? ''} ${path}`) ?? this.scripts.get(path) ?? this.scripts.get('*')
    const script = list && list.length > 1 ? list.shift() : list?.[0]
    if (!script) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"no script"}')
      return
    }
    if ('hang' in script) return
    if ('reset' in script) {
      req.socket.destroy()
      return
    }
    if ('truncate' in script) {
      res.writeHead(script.status ?? 200, {
        'content-type': 'application/json',
        'content-length': String(script.truncate.length + 100),
      })
      res.write(script.truncate)
      setTimeout(() => req.socket.destroy(), 10)
      return
    }
    if ('oversized' in script) {
      res.writeHead(200, { 'content-type': 'application/json' })
      const chunk = Buffer.alloc(64 * 1024, 0x20)
      let sent = 0
      const pump = () => {
        while (sent < script.oversized) {
          sent += chunk.length
          if (!res.write(chunk)) return void res.once('drain', pump)
        }
        res.end()
      }
      res.on('error', () => undefined)
      pump()
      return
    }
    if ('stream' in script) {
      res.writeHead(script.status ?? 200, { 'content-type': 'application/json' })
      res.on('error', () => undefined)
      for (let at = 0; at < script.stream.length && !res.destroyed; at += script.piece) {
        if (!res.write(script.stream.subarray(at, at + script.piece)))
          await new Promise((resolve) => res.once('drain', resolve))
        await new Promise((resolve) => setImmediate(resolve))
      }
      res.end()
      return
    }
    const headers: Record<string, string> = { ...script.headers }
    let body: string | Buffer = ''
    if (script.json !== undefined) {
      headers['content-type'] ??= 'application/json'
      body = JSON.stringify(script.json)
    } else if (script.body !== undefined) body = script.body
    res.writeHead(script.status, headers).end(body)
  }
}

/** Base URLs of a profile pointing every group at the fake, under the local-service style prefixes. */
export function fakeUrls(base: string) {
  return {
    atlas_url: `${base}/atlas`,
    advancedmaps_url: `${base}/advancedmaps`,
    mgis_url: `${base}/mgis`,
    mgis_v2_url: `${base}/mgis/v2`,
    telematics_url: `${base}/telematics`,
    aiml_url: `${base}/aiml`,
  }
}
