import { describe, expect, it, vi } from 'vitest'
import { encodeFrames, FRAMES_CONTENT_TYPE, FRAMES_LEAD_HEADER, framesEnd } from '@contract/frames'
import { readRows, rowsPartReader } from '../../src/features/gis/results/rows-on-arrival'
import { ok } from '@contract/index'
import { createHttpGeoApi, createHttpGeoFiles } from '../../src/bridge'

describe('files for import in the browser host', () => {
  it('streams the File itself to /api/upload with the session and its URI-encoded name', async () => {
    const answer = ok({ file: 'A'.repeat(24), fileName: 'wells 2024.geojson', size: 2 })
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify(answer)))
    const file = new File(['{}'], 'wells 2024.geojson')
    const result = await createHttpGeoFiles('s3cret', fetchImpl as typeof fetch).offerForImport(file)
    expect(result).toEqual(answer)
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toBe('/api/upload')
    expect(init.method).toBe('POST')
    expect(init.body).toBe(file)
    expect(init.headers).toMatchObject({ 'x-file-name': 'wells%202024.geojson', 'x-geo-session': 's3cret' })
  })

  it('hands on the host’s refusal, and says when the host cannot be reached or the page has no session', async () => {
    const refusal = {
      ok: false,
      error: { failureClass: 'validation', status: 413, message: 'too big', retry: 'fix-then-retry' },
    }
    const refused = createHttpGeoFiles(
      's',
      (async () => new Response(JSON.stringify(refusal), { status: 413 })) as typeof fetch,
    )
    expect(await refused.offerForImport(new File(['x'], 'a.csv'))).toEqual(refusal)
    const down = createHttpGeoFiles('s', (async () => {
      throw new TypeError('Failed to fetch')
    }) as typeof fetch)
    expect(await down.offerForImport(new File(['x'], 'a.csv'))).toMatchObject({
      ok: false,
      error: { failureClass: 'timeout-network' },
    })
    expect(await createHttpGeoFiles(null).offerForImport(new File(['x'], 'a.csv'))).toMatchObject({
      ok: false,
      error: { failureClass: 'local-configuration' },
    })
  })
})

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i])

describe('operations in the browser host', () => {
  const rows = new TextEncoder().encode(
    `[${Array.from({ length: 60_000 }, (_, i) => `{"prop1":"${i}","prop2":"POINT (77 ${i % 90})"}`).join(',')}]`,
  )
  const answer = ok({ runId: 'r1', rowCount: 60_000, rowsJson: rows, partial: false })
  const framed = encodeFrames(answer)
  function framesBody(): Uint8Array {
    const end = framesEnd(framed.json)
    const out = new Uint8Array(rows.length + end.length)
    out.set(framed.chunks[0]!)
    out.set(end, rows.length)
    return out
  }
  /**
   * The answer as the host sends it, in pieces of `piece` bytes, with or without its length; as a byte
   * stream (as a browser's fetch gives it: read in place) or not.
   */
  function respond(piece: number, withLength: boolean, bytes = false): typeof fetch {
    return (async () => {
      const whole = framesBody()
      let at = 0
      const source = {
        pull(controller: ReadableStreamDefaultController<Uint8Array> | ReadableByteStreamController) {
          if (at >= whole.length) {
            controller.close()
            // A byte stream closes a read waiting with its own view by answering it with no bytes.
            if ('byobRequest' in controller) controller.byobRequest?.respond(0)
            return
          }
          controller.enqueue(whole.slice(at, at + piece))
          at += piece
        },
      }
      const body = bytes
        ? new ReadableStream({ type: 'bytes', pull: source.pull })
        : new ReadableStream<Uint8Array>({ pull: source.pull })
      const headers: Record<string, string> = {
        'content-type': FRAMES_CONTENT_TYPE,
        // As the host names a part it forwards while it arrives: its length not known yet.
        [FRAMES_LEAD_HEADER]: JSON.stringify(
          withLength
            ? framed.lead
            : { key: 'rowsJson', holder: { rowCount: 60_000 }, expectedBytes: 1 << 20 },
        ),
      }
      if (withLength) headers['content-length'] = String(whole.length)
      // A byte stream as Chromium's fetch gives it (this test environment's Response would wrap it).
      if (bytes) return { status: 200, headers: new Headers(headers), body } as unknown as Response
      return new Response(body, { headers })
    }) as typeof fetch
  }

  it.each([
    ['read in place (a byte stream)', true, true],
    ['copied piece by piece', false, true],
    ['read in place, of no stated length (forwarded as they came)', true, false],
    ['copied piece by piece, of no stated length', false, false],
  ])(
    "reads a join's rows while they arrive, %s, and hands on the rows the host sent",
    async (_how, bytes, withLength) => {
      const api = createHttpGeoApi('s', respond(65_536, withLength, bytes), { rowsJson: rowsPartReader })
      const result = await api['gis.join']({ runId: 'r1', params: {} } as never)
      if (!result.ok) throw new Error(result.error.message)
      const run = result.value
      expect(sameBytes(run.rowsJson, rows)).toBe(true)
      expect(run).toMatchObject({ runId: 'r1', rowCount: 60_000, partial: false })
      // Read on arrival: the table is handed on, not read again.
      const table = readRows(run.rowsJson, run.rowCount)
      expect(readRows(run.rowsJson, run.rowCount)).toBe(table)
      expect(table.length).toBe(60_000)
      expect(table.cell(59_999, 'prop2')).toBe('POINT (77 59)')
    },
  )

  it('says the host did not answer when its answer is cut short', async () => {
    const cut: typeof fetch = async () => {
      const whole = framesBody()
      const short = whole.slice(0, whole.length - 10)
      const body = new ReadableStream({
        type: 'bytes',
        pull: (controller) => {
          controller.enqueue(short.slice())
          controller.close()
          controller.byobRequest?.respond(0)
        },
      })
      return new Response(body, {
        headers: { 'content-type': FRAMES_CONTENT_TYPE, 'content-length': String(whole.length) },
      })
    }
    const result = await createHttpGeoApi('s', cut)['gis.join']({ runId: 'r1', params: {} } as never)
    expect(result).toMatchObject({ ok: false, error: { failureClass: 'timeout-network' } })
  })
})
