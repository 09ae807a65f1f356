import { request as httpRequest } from 'node:http'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { crc32, deflateSync } from 'node:zlib'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BLURRED_BOXES_HEADER } from '../../../../electron/contract/vision/blur-plates'
import { runService, TOKEN, type Running } from '../helpers'

const STREET = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'vision', 'street.jpg')
let running: Running
let url: string

beforeAll(async () => {
  running = await runService({}, { pool: { workers: 1 } })
  url = `${running.service.urls.aiml_url}/license_plate_blur_pano`
})
afterAll(async () => {
  await running?.stop()
})

function form(
  parts: Array<{ name: string; bytes?: Uint8Array; text?: string; fileName?: string }>,
): FormData {
  const body = new FormData()
  for (const p of parts) {
    if (p.text !== undefined) body.append(p.name, p.text)
    else body.append(p.name, new Blob([Buffer.from(p.bytes ?? new Uint8Array())]), p.fileName ?? 'photo.jpg')
  }
  return body
}

async function post(body: FormData | string, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, ...headers },
    body,
  })
  const bytes = new Uint8Array(await response.arrayBuffer())
  const json = response.headers.get('content-type')?.includes('json')
    ? (JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>)
    : undefined
  return { status: response.status, headers: response.headers, bytes, json }
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

/** A small PNG whose header claims `width`×`height` (its pixel data is a stub: the pixel limit refuses it first). */
function pngHeader(width: number, height: number): Uint8Array {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.set([8, 2, 0, 0, 0], 8)
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return Buffer.concat([
    signature,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(64))),
    chunk('IEND', new Uint8Array()),
  ])
}

describe('POST /aiml/license_plate_blur_pano on the local service', () => {
  it('asks for the bearer token (§5)', async () => {
    const response = await fetch(url, {
      method: 'POST',
      body: form([{ name: 'file', bytes: new Uint8Array([1]) }]),
    })
    expect(response.status).toBe(401)
  })

  it('answers the image with its plates blurred: same format and size, the boxes in a header', async () => {
    const jpeg = await readFile(STREET)
    const r = await post(form([{ name: 'file', bytes: jpeg, fileName: 'street.jpg' }]))
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('image/jpeg')
    const meta = await sharp(r.bytes).metadata()
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
      format: 'jpeg',
      width: 1280,
      height: 720,
    })
    const boxes = JSON.parse(r.headers.get(BLURRED_BOXES_HEADER) ?? '[]') as unknown[]
    expect(boxes).toHaveLength(2)
  }, 120_000)

  it('takes the type from the bytes: a PNG named .jpg comes back as a PNG', async () => {
    const png = await sharp(STREET).resize(320).png().toBuffer()
    const r = await post(form([{ name: 'file', bytes: png, fileName: 'looks-like.jpg' }]))
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('image/png')
    expect((await sharp(r.bytes).metadata()).format).toBe('png')
  }, 60_000)

  it.each([
    [
      'no file field',
      () => form([{ name: 'picture', bytes: new Uint8Array([0xff, 0xd8, 0xff]) }]),
      'unexpected-field',
      /unexpected field "picture"/,
    ],
    ['a text field', () => form([{ name: 'file', text: 'hello' }]), 'missing-file', /must be a file upload/],
    ['an empty body', () => form([]), 'missing-file', /no file field "file"/],
    ['an empty file', () => form([{ name: 'file', bytes: new Uint8Array() }]), 'empty-file', /empty/],
    [
      'not an image',
      () => form([{ name: 'file', bytes: new TextEncoder().encode('{"not": "an image"}') }]),
      'not-an-image',
      /not an image/,
    ],
    [
      'a GIF',
      () => form([{ name: 'file', bytes: new TextEncoder().encode('GIF89a\x01\x00\x01\x00') }]),
      'unsupported-format',
      /GIF image/,
    ],
    [
      'too many pixels',
      () => form([{ name: 'file', bytes: pngHeader(20000, 20000), fileName: 'huge.png' }]),
      'too-many-pixels',
      /20000×20000/,
    ],
  ])('refuses %s with a 400 and a JSON error naming the problem', async (_name, body, problem, message) => {
    const r = await post(body())
    expect(r.status).toBe(400)
    expect(r.json).toMatchObject({ success: false, code: '400', problem, field: 'file' })
    expect(String(r.json?.message)).toMatch(message)
  })

  it('refuses a corrupt (truncated) JPEG with a 400, not a 500', async () => {
    const jpeg = await readFile(STREET)
    const r = await post(form([{ name: 'file', bytes: jpeg.subarray(0, jpeg.length >> 1) }]))
    expect(r.status).toBe(400)
    expect(r.json).toMatchObject({ problem: 'corrupt-image' })
  }, 60_000)

  it('refuses a body that is not multipart', async () => {
    const r = await post(JSON.stringify({ file: 'x' }), { 'content-type': 'application/json' })
    expect(r.status).toBe(400)
    expect(String(r.json?.message)).toMatch(/multipart\/form-data/)
  })

  it('refuses a body over the size cap before reading it, and closes the connection', async () => {
    const answer = await new Promise<{ status: number; body: string; connection?: string }>(
      (resolve, reject) => {
        const req = httpRequest(url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${TOKEN}`,
            'content-type': 'multipart/form-data; boundary=xyz',
            'content-length': String(500 * 1024 * 1024),
          },
        })
        req.on('response', (res) => {
          let body = ''
          res.on('data', (c: Buffer) => (body += c.toString()))
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }),
          )
        })
        req.on('error', reject)
        req.write('--xyz\r\n')
      },
    )
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body)).toMatchObject({ problem: 'too-large' })
    expect(answer.connection).toBe('close')
  })
})

describe('when the pool is full', () => {
  it('answers 503 with Retry-After', async () => {
    const busy = await runService({}, { pool: { workers: 1, maxQueue: 0 } })
    try {
      const r = await fetch(`${busy.service.urls.aiml_url}/license_plate_blur_pano`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}` },
        body: form([{ name: 'file', bytes: await readFile(STREET) }]),
      })
      expect(r.status).toBe(503)
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0)
    } finally {
      await busy.stop()
    }
  })
})
