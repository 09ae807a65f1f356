import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { feature, runService, square, TOKEN, type Running } from '../helpers'

let svc: Running
beforeAll(async () => {
  svc = await runService({ squares: [feature(square(0, 0, 1, 1), { name: 'a' })] })
})
afterAll(() => svc.stop())

const origin = () => `http://127.0.0.1:${svc.service.port}`
const auth = { authorization: `Bearer ${TOKEN}` }

function importByPath(body: unknown, headers: Record<string, string> = auth) {
  return fetch(`${origin()}/local/datasets/import`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

describe('the local workspace extension (/local/datasets)', () => {
  it('serves a dataset’s features as GeoJSON text with its name and count', async () => {
    const r = await fetch(`${origin()}/local/datasets/SQUARES/features`, { headers: auth })
    expect(r.status).toBe(200)
    expect(r.headers.get('x-dataset-name')).toBe('squares')
    expect(r.headers.get('x-feature-count')).toBe('1')
    const collection = (await r.json()) as { features: Array<{ properties: { name: string } }> }
    expect(collection.features[0]!.properties.name).toBe('a')
    expect((await fetch(`${origin()}/local/datasets/missing/features`, { headers: auth })).status).toBe(404)
    expect((await fetch(`${origin()}/local/datasets/squares/features`)).status).toBe(401)
  })

  it('imports a file by path, and refuses a missing path, an unreadable file and a taken name', async () => {
    const file = path.join(svc.dir, '..', `ga-import-${process.pid}.geojson`)
    await fs.writeFile(
      file,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          { type: 'Feature', properties: { n: 1 }, geometry: { type: 'Point', coordinates: [77, 28] } },
        ],
      }),
    )
    try {
      const created = await importByPath({ path: file, name: 'pts' })
      expect(created.status).toBe(201)
      expect(await created.json()).toMatchObject({ layername: 'pts', featureCount: 1, geometrytype: 'POINT' })
      expect((await importByPath({ path: file, name: 'pts' })).status).toBe(409)
      const missing = await importByPath({})
      expect(missing.status).toBe(400)
      expect(await missing.json()).toMatchObject({ field: 'path' })
      expect((await importByPath({ path: file + '.nope' })).status).toBe(400)
      expect((await importByPath({ path: file }, {})).status).toBe(401)
    } finally {
      await fs.rm(file, { force: true })
    }
  })
})

describe('a full pool', () => {
  it('answers a join with 503 and Retry-After instead of queueing past the bound', async () => {
    const busy = await runService(
      { squares: [feature(square(0, 0, 1, 1), { name: 'a' })] },
      { pool: { maxQueue: 0 } },
    )
    try {
      const query = new URLSearchParams({
        queryType: 'spatialOperation',
        datasetSource: 'squares',
        datasetRef: 'squares',
        operator: 'Intersects',
        sourceProperty: 'geom',
        refProperty: 'geom',
      })
      const r = await fetch(`${busy.service.urls.mgis_url}/query_apply/join?${query}`, {
        method: 'POST',
        headers: auth,
      })
      expect(r.status).toBe(503)
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      expect(((await r.json()) as { message: string }).message).toMatch(/busy/)
    } finally {
      await busy.stop()
    }
  })
})
