import { describe, expect, it, vi } from 'vitest'
import { ok } from '@contract/index'
import { createHttpGeoFiles } from '../../src/bridge'

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
