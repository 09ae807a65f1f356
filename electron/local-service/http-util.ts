import type { IncomingMessage, ServerResponse } from 'node:http'

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    /** Headers of the answer, e.g. Retry-After on a 503. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'HttpError'
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendJsonText(res, status, JSON.stringify(body), headers)
}

export function sendJsonText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  })
  res.end(text)
}

/**
 * A JSON response whose body arrives in parts (UTF-8 bytes), written as they come: the status and headers
 * with the first part, chunked transfer encoding when there is more than one part, `content-length` when
 * the first part is the whole body. Nothing is written once the client has gone.
 */
export class JsonResponseWriter {
  private started = false

  constructor(private readonly res: ServerResponse) {}

  /** Whether the status line has gone out (a later failure can only cut the response). */
  get headersSent(): boolean {
    return this.started || this.res.headersSent
  }

  /** `written` is called once the bytes went out (not when the client left first). */
  write(status: number, bytes: Uint8Array, last: boolean, written?: () => void): void {
    const res = this.res
    if (res.destroyed) return
    if (!this.started) {
      this.started = true
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        ...(last ? { 'content-length': bytes.byteLength } : {}),
        'cache-control': 'no-store',
      })
    }
    const done = written && ((error?: Error | null) => error || written())
    if (last) res.end(bytes, done)
    else res.write(bytes, done)
  }
}

export function errorBody(status: number, message: string, extra: Record<string, unknown> = {}) {
  return { code: String(status), success: false, message, ...extra }
}

/** The request body as text, refused past `limit` bytes (413) so a hostile upload cannot exhaust memory. */
export async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return (await readBodyBytes(req, limit)).toString('utf8')
}

/** The request body's bytes, refused past `limit` bytes (413). */
export async function readBodyBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > limit) throw new HttpError(413, `the body is larger than ${limit} bytes`)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > limit) throw new HttpError(413, `the body is larger than ${limit} bytes`)
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/**
 * The body as JSON; undefined when empty; 400 naming the position when malformed. A leading byte order mark
 * is not part of the JSON (RFC 8259 §8.1 lets a parser ignore it): a file saved by Windows Notepad and sent
 * as it is (`curl --data-binary @file.geojson`) reads as the JSON it holds.
 */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const type = req.headers['content-type']
  const text = (await readBody(req, limit)).replace(/^\uFEFF/, '')
  if (text.trim() === '') return undefined
  if (type && !/^application\/(geo\+)?json\b/i.test(type) && !/^text\/plain\b/i.test(type)) {
    throw new HttpError(415, `the body must be application/json, not ${type}`)
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new HttpError(400, `body: malformed JSON (${(error as Error).message})`, { field: 'body' })
  }
}

/**
 * A body that may come as JSON, as `application/x-www-form-urlencoded` or as `multipart/form-data` fields
 * (spec §4.8 shows both forms): an object of its members; a field given several times becomes an array.
 */
export async function readJsonOrFormBody(
  req: IncomingMessage,
  limit: number,
): Promise<Record<string, unknown> | undefined> {
  const type = req.headers['content-type'] ?? ''
  if (/^multipart\/form-data\b/i.test(type)) {
    const bytes = await readBodyBytes(req, limit)
    let form: FormData
    try {
      form = await new Response(new Uint8Array(bytes), { headers: { 'content-type': type } }).formData()
    } catch (error) {
      throw new HttpError(400, `body: malformed multipart form data (${(error as Error).message})`, {
        field: 'body',
      })
    }
    return fieldsOf([...form.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : v.name]))
  }
  if (/^application\/x-www-form-urlencoded\b/i.test(type)) {
    return fieldsOf([...new URLSearchParams(await readBody(req, limit)).entries()])
  }
  const json = await readJsonBody(req, limit)
  if (json === undefined) return undefined
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new HttpError(400, 'body: must be a JSON object', { field: 'body' })
  return json as Record<string, unknown>
}

function fieldsOf(entries: Array<[string, string]>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [name, value] of entries) {
    const before = out[name]
    out[name] = before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value]
  }
  return out
}
