import type http from 'node:http'
import { fail, formatBytes } from '../contract'
import {
  encodeFrames,
  FRAMES_CONTENT_TYPE,
  FRAMES_LEAD_HEADER,
  framesEnd,
  leadHeader,
  type FramesLead,
  type PartTap,
} from '../contract/frames'

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
 * An operation's answer: JSON, or — when it holds byte arrays (a join's rows) — frames: the bytes as they
 * are, then the JSON with references to them (`encodeFrames`), with the length stated.
 */
function sendAnswer(res: http.ServerResponse, body: unknown): void {
  const { json, chunks, lead } = encodeFrames(body)
  if (!lead) {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
    return void res.end(json)
  }
  const end = framesEnd(json)
  const length = chunks.reduce((n, c) => n + c.byteLength, end.byteLength)
  res.writeHead(200, {
    'content-type': FRAMES_CONTENT_TYPE,
    'content-length': String(length),
    [FRAMES_LEAD_HEADER]: leadHeader(lead),
    'cache-control': 'no-store',
  })
  for (const chunk of chunks) res.write(chunk)
  res.end(end)
}

/**
 * An operation's answer that may begin before it is known: as a `PartTap`, it sends the part the core
 * forwards while the provider's answer arrives (a join's rows), as frames of no stated length; `end` then
 * sends the answer — the rest of that part and the JSON referring to what was sent, when the answer's part
 * begins with the bytes forwarded since the last `begin`; else the JSON refers to no forwarded byte and the
 * page ignores them (a failure, or an attempt the core gave up on). An answer that began no part goes out
 * as `sendAnswer` sends it.
 */
export class AnswerStream implements PartTap {
  /** Bytes of the body written so far. */
  private written = 0
  /** Where the last part begun starts in the body, and its bytes forwarded so far. */
  private from = 0
  private forwarded: Uint8Array[] = []

  constructor(private readonly res: http.ServerResponse) {}

  begin(lead: FramesLead): void {
    if (this.res.destroyed) return
    if (!this.res.headersSent)
      this.res.writeHead(200, {
        'content-type': FRAMES_CONTENT_TYPE,
        [FRAMES_LEAD_HEADER]: leadHeader(lead),
        'cache-control': 'no-store',
      })
    this.from = this.written
    this.forwarded = []
  }

  more(bytes: Uint8Array): void {
    if (this.res.destroyed || !this.res.headersSent || bytes.byteLength === 0) return
    this.res.write(bytes)
    this.forwarded.push(bytes)
    this.written += bytes.byteLength
  }

  end(body: unknown): void {
    const res = this.res
    if (!res.headersSent) return sendAnswer(res, body)
    if (res.destroyed) return
    const sent = this.written - this.from
    const { json, chunks } = encodeFrames(body, {
      start: this.written,
      sent: (part) =>
        sent > 0 && startsWith(part, this.forwarded) ? { offset: this.from, bytes: sent } : undefined,
    })
    for (const chunk of chunks) res.write(chunk)
    res.end(framesEnd(json))
  }
}

/** Whether `bytes` begins with `pieces`, one after another. */
function startsWith(bytes: Uint8Array, pieces: readonly Uint8Array[]): boolean {
  let at = 0
  for (const piece of pieces) {
    if (at + piece.byteLength > bytes.byteLength) return false
    if (
      Buffer.compare(
        Buffer.from(bytes.buffer, bytes.byteOffset + at, piece.byteLength),
        Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength),
      ) !== 0
    )
      return false
    at += piece.byteLength
  }
  return true
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
  res.end(text)
}
