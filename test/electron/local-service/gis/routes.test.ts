import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { feature, runService, square, TOKEN, userGeometry, type Running } from '../helpers'

/** 60,000 points with names that need escaping and non-ASCII text: a response of several MiB. */
const COUNT = 60_000
const nameOf = (i: number) => (i % 7 === 0 ? `town "${i}" — मुंबई\\🌍` : `p${i}`)
const points = Array.from({ length: COUNT }, (_, i) =>
  feature(
    { type: 'Point', coordinates: [(i % 300) / 10 + 0.05, Math.floor(i / 300) / 10 + 0.05] },
    {
      name: nameOf(i),
      n: i,
    },
  ),
)

let svc: Running
beforeAll(async () => {
  svc = await runService({ points })
})
afterAll(() => svc.stop())

const query = {
  queryType: 'spatialOperation',
  datasetSource: 'points',
  operator: 'Within',
  sourceProperty: 'geom',
  userGeom: true,
  selectionParamSource: 'name,n',
}

function post(params: Record<string, string | number | boolean>, body: unknown, init: RequestInit = {}) {
  const search = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))
  return fetch(`${svc.service.urls.mgis_url}/query_apply/join?${search}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...init,
  })
}

describe('POST query_apply/join streams large results', () => {
  it('a result of 60,000 rows arrives complete, in parts, and parses with every row in order', async () => {
    const response = await post(query, userGeometry(square(0, 0, 31, 21)))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    // Sent as it is written, not as one body of known length.
    expect(response.headers.get('transfer-encoding')).toBe('chunked')
    const text = await response.text()
    expect(Buffer.byteLength(text)).toBeGreaterThan(1 << 20)
    const json = JSON.parse(text) as Record<string, unknown>
    expect(Object.keys(json)).toEqual([
      'code',
      'success',
      'message',
      'rowCount',
      'truncated',
      'columns',
      'result',
    ])
    expect(json).toMatchObject({ code: '200', success: true, rowCount: COUNT, truncated: false })
    const rows = json.result as Array<Record<string, string>>
    expect(rows).toHaveLength(COUNT)
    rows.forEach((row, i) => expect(row).toEqual({ prop1: nameOf(i), prop2: String(i) }))
  })

  it('a small answer keeps its content-length', async () => {
    const response = await post(query, userGeometry(square(100, 80, 101, 81)))
    expect(response.status).toBe(404)
    const text = await response.text()
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(text)))
    expect(JSON.parse(text)).toMatchObject({ code: '404', success: false })
  })

  it('a client leaving in the middle of a streamed result does not stop the next join', async () => {
    const leaving = new AbortController()
    const response = await post(query, userGeometry(square(0, 0, 31, 21)), { signal: leaving.signal })
    const reader = response.body!.getReader()
    const first = await reader.read()
    expect(first.done).toBe(false)
    leaving.abort()
    await reader.read().catch(() => undefined)
    const next = await post({ ...query, selectionParamSource: 'n' }, userGeometry(square(0, 0, 1, 1)))
    expect(next.status).toBe(200)
    const json = (await next.json()) as { rowCount: number; result: unknown[] }
    expect(json.result).toHaveLength(json.rowCount)
    expect(json.rowCount).toBe(100)
  })
})
