import type http from 'node:http'
import { fail, formatBytes } from '../contract'
import { encodeFrames, FRAMES_CONTENT_TYPE } from '../contract/frames'

/** A request body over the host's limit for its kind. */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`larger than ${formatBytes(limit)}`)
  }
}

/** Bytes read and thrown away after a refusal before the connection is cut: a client that keeps sending is not waited for. */
const DRAIN_MAX_BYTES = 512 * 1024 * 1024

/** The body's declared length when it is over `limit`, before anything is read. */
export function declaredOver(req: http.IncomingMessage, limit: number): boolean {
  const declared = Number(req.headers['content-length'])
  return Number.isFinite(declared) && declared > limit
}

/** Read a request body of at most `limit` bytes; over it, rejects with `BodyTooLarge` and reads no more. */
export function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer> {
  if (declaredOver(req, limit)) return Promise.reject(new BodyTooLarge(limit))
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const stop = (error: Error) => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.pause()
      reject(error)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) return stop(new BodyTooLarge(limit))
      chunks.push(chunk)
    }
    const onEnd = () => resolve(Buffer.concat(chunks))
    req.on('data', onData)
    req.on('end', onEnd)
    req.once('error', stop)
  })
}

/**
 * Answer 413 with a JSON error naming the limit, then read and discard the rest of the body, so the
 * client reads the answer instead of a reset connection. Past a bound the connection is cut.
 */
export function refuseTooLarge(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  what: string,
  limit: number,
): void {
  sendJson(
    res,
    413,
    fail('validation', `${what} is larger than the ${formatBytes(limit)} the browser host accepts`, {
      status: 413,
    }),
  )
  let drained = 0
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length
    if (drained > DRAIN_MAX_BYTES) req.destroy()
  })
  req.resume()
}

/**
 * An operation's answer: JSON, or — when it holds byte arrays (a join's rows) — the JSON with references to
 * them followed by the bytes as they are (`encodeFrames`).
 */
export function sendAnswer(res: http.ServerResponse, body: unknown): void {
  const { json, parts } = encodeFrames(body)
  if (parts.length === 0) {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
    return void res.end(json)
  }
  const length = parts.reduce((n, p) => n + p.byteLength, Buffer.byteLength(json) + 1)
  res.writeHead(200, {
    'content-type': FRAMES_CONTENT_TYPE,
    'content-length': String(length),
    'cache-control': 'no-store',
  })
  res.write(json + '\n')
  for (const part of parts) res.write(part)
  res.end()
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
  res.end(text)
}
