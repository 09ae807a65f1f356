import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { feature, names, runService, square, TOKEN, userGeometry, type Running } from './helpers'

const cities = [
  feature({ type: 'Point', coordinates: [1, 1] }, { name: 'a', population: 100, code: 'X' }),
  feature({ type: 'Point', coordinates: [2, 2] }, { name: 'b', population: 250, code: 'Y' }),
  feature({ type: 'Point', coordinates: [50, 50] }, { name: 'c', population: 900, code: 'Z' }),
]
const regions = [
  feature(square(0, 0, 5, 5), { label: 'R1', code: 'X' }),
  feature(square(40, 40, 60, 60), { label: 'R2', code: 'Z' }),
]
const lines = [
  feature(
    {
      type: 'LineString',
      coordinates: [
        [0, 0],
        [1, 0],
      ],
    },
    { name: 'deg' },
  ),
  feature(null, { name: 'nothing' }),
]

let svc: Running
beforeAll(async () => {
  svc = await runService({ cities, regions, lines }, { entitlements: { telematics: false } })
})
afterAll(() => svc.stop())

const within = {
  queryType: 'spatialOperation',
  datasetSource: 'cities',
  datasetRef: 'regions',
  operator: 'Within',
  sourceProperty: 'geom',
}

describe('auth (§5)', () => {
  it('401 without or with a wrong bearer token, 403 for a group the token is not entitled to', async () => {
    const url = `${svc.service.urls.mgis_v2_url}/getLayersList`
    expect((await fetch(url)).status).toBe(401)
    expect((await fetch(url, { headers: { authorization: 'Bearer nope' } })).status).toBe(401)
    expect((await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200)
    const telematics = await fetch(`${svc.service.urls.telematics_url}/devices`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    expect(telematics.status).toBe(403)
  })

  it('the distance matrix takes the licence key as a path segment', async () => {
    const base = svc.service.urls.advancedmaps_url
    expect((await fetch(`${base}/wrong-key/distance_matrix/driving/77,28;78,29`)).status).toBe(401)
    const ok = await fetch(`${base}/${svc.service.licenceKey}/distance_matrix/driving/77,28;78,29`)
    expect(ok.status).toBe(200)
    const text = await ok.text()
    expect(text).not.toContain(svc.service.licenceKey)
    // No road network covers these positions (the sample is Gothenburg): no route, not an error.
    expect((JSON.parse(text) as { results: { code: string } }).results.code).toBe('NoRoute')
  })
})

describe('GET getLayersList (§4.6)', () => {
  it('lists every dataset with the §2.5 fields and the extra members', async () => {
    const r = await fetch(`${svc.service.urls.mgis_v2_url}/getLayersList`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    const json = (await r.json()) as { success: boolean; data: Array<Record<string, unknown>> }
    expect(json.success).toBe(true)
    const regionsEntry = json.data.find((d) => d.layername === 'regions')!
    expect(regionsEntry).toMatchObject({
      geometrytype: 'POLYGON',
      source: 'test',
      featureCount: 2,
      extent: [0, 0, 60, 60],
    })
    expect(json.data.map((d) => d.layername)).toEqual(expect.arrayContaining(['cities', 'regions', 'lines']))
  })

  it('404 when the workspace holds nothing', async () => {
    const empty = await runService({})
    try {
      const r = await fetch(`${empty.service.urls.mgis_v2_url}/getLayersList`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      })
      expect(r.status).toBe(404)
    } finally {
      await empty.stop()
    }
  })
})

describe('POST query_apply/join status table (§4.5)', () => {
  it('200 with the selection mapped onto prop1… in order, geometry as WKT', async () => {
    const { status, json } = await svc.join({
      ...within,
      selectionParamSource: 'name,geom',
      selectionParamRef: 'label',
    })
    expect(status).toBe(200)
    expect(json.result).toEqual([
      { prop1: 'a', prop2: 'POINT (1 1)', prop3: 'R1' },
      { prop1: 'b', prop2: 'POINT (2 2)', prop3: 'R1' },
      { prop1: 'c', prop2: 'POINT (50 50)', prop3: 'R2' },
    ])
  })

  it('405 for a wrong method', async () => {
    const r = await fetch(`${svc.service.urls.mgis_url}/query_apply/join`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    expect(r.status).toBe(405)
  })

  it('422 names the missing parameter', async () => {
    const { status, json } = await svc.join({
      queryType: 'spatialOperation',
      datasetSource: 'cities',
      sourceProperty: 'geom',
      datasetRef: 'regions',
    })
    expect(status).toBe(422)
    expect(json.field).toBe('operator')
    expect(json.message).toMatch(/operator/)
  })

  it('409 for conflicting parameters', async () => {
    const { status, json } = await svc.join({ ...within, distance: 5 })
    expect(status).toBe(409)
    expect(json.field).toBe('distance')
  })

  it('400 for a malformed body and for an unknown property', async () => {
    const bad = await svc.join(
      { ...within, datasetRef: '', userGeom: 'true' },
      '{"type": "FeatureCollection", "features": [',
    )
    expect(bad.status).toBe(400)
    const unknown = await svc.join({ ...within, selectionParamSource: 'nope' })
    expect(unknown.status).toBe(400)
    expect(unknown.json.message).toMatch(/nope/)
  })

  it('400 for an invalid user geometry, with the GEOS reason and its location', async () => {
    const bowtie = {
      type: 'Polygon' as const,
      coordinates: [
        [
          [0, 0],
          [4, 4],
          [4, 0],
          [0, 4],
          [0, 0],
        ],
      ],
    }
    const { status, json } = await svc.join(
      { ...within, datasetRef: '', userGeom: 'true' },
      userGeometry(bowtie),
    )
    expect(status).toBe(400)
    expect(json.reason).toMatch(/Self-intersection/)
    expect(json.location).toEqual([2, 2])
  })

  it('404 for an unknown dataset and for no data found', async () => {
    expect((await svc.join({ ...within, datasetSource: 'missing' })).status).toBe(404)
    const none = await svc.join({ ...within, operator: 'Contains' })
    expect(none.status).toBe(404)
  })

  it('206 when the result is cut at the row cap', async () => {
    const capped = await runService({ cities, regions }, { rowCap: 2 })
    try {
      const { status, json } = await capped.join({ ...within, selectionParamSource: 'name' })
      expect(status).toBe(206)
      expect(json.result).toHaveLength(2)
      expect(json.truncated).toBe(true)
    } finally {
      await capped.stop()
    }
  })
})

describe('basic and functionBased queries', () => {
  it('basic = joins on properties; IN and NOT IN filter the source', async () => {
    const base = {
      queryType: 'basic',
      datasetSource: 'cities',
      datasetRef: 'regions',
      sourceProperty: 'code',
      refProperty: 'code',
    }
    const eq = await svc.join({
      ...base,
      operator: '=',
      selectionParamSource: 'name',
      selectionParamRef: 'label',
    })
    expect(eq.json.result).toEqual([
      { prop1: 'a', prop2: 'R1' },
      { prop1: 'c', prop2: 'R2' },
    ])
    expect(names((await svc.join({ ...base, operator: 'IN', selectionParamSource: 'name' })).json)).toEqual([
      'a',
      'c',
    ])
    expect(
      names((await svc.join({ ...base, operator: 'NOT IN', selectionParamSource: 'name' })).json),
    ).toEqual(['b'])
    const lt = await svc.join({
      ...base,
      sourceProperty: 'population',
      refProperty: 'code',
      operator: '<',
      selectionParamSource: 'name',
    })
    expect(lt.status).toBe(200) // numbers against text compare as text: every pair is decided, none fails
  })

  it('Area in m² on the ellipsoid, Length in geodesic metres, isEmpty (of the source feature)', async () => {
    const everywhere = userGeometry(square(-179, -89, 179, 89))
    const fb = {
      queryType: 'functionBased',
      operator: 'Intersects',
      sourceProperty: 'geom',
      userGeom: 'true',
      selectionParamSource: 'label',
    }
    const area = (op: string, value: number) =>
      svc.join(
        {
          ...fb,
          datasetSource: 'regions',
          comparisonFunction: 'Area',
          comparisonOperator: op,
          comparisonValue: value,
        },
        everywhere,
      )
    // A 5°×5° square at the equator is 3.07542e11 m² on WGS84 (1°×1°: 12,308,778,361 m²).
    expect(names((await area('<', 3.076e11)).json)).toEqual(['R1'])
    expect(names((await area('>', 3.075e11)).json)).toEqual(['R1', 'R2'])
    expect((await area('<', 3.075e11)).status).toBe(404)
    const lf = { ...fb, datasetSource: 'lines', selectionParamSource: 'name' }
    // One degree of longitude along the equator: 111,319.49 m.
    const length = (op: string, value: number) =>
      svc.join(
        { ...lf, comparisonFunction: 'Length', comparisonOperator: op, comparisonValue: value },
        everywhere,
      )
    expect(names((await length('>', 111319)).json)).toEqual(['deg'])
    expect((await length('>', 111320)).status).toBe(404)
    const empty = await svc.join(
      {
        ...lf,
        operator: 'Disjoint',
        comparisonFunction: 'isEmpty',
        comparisonOperator: '=',
        comparisonValue: 'true',
      },
      everywhere,
    )
    expect(names(empty.json)).toEqual(['nothing'])
  })

  it('functionBased against a reference dataset measures the source feature of each matching pair', async () => {
    const { json } = await svc.join({
      queryType: 'functionBased',
      operator: 'Intersects',
      sourceProperty: 'geom',
      datasetSource: 'regions',
      datasetRef: 'cities',
      comparisonFunction: 'Area',
      comparisonOperator: '>',
      comparisonValue: 1e12,
      selectionParamSource: 'label',
      selectionParamRef: 'name',
    })
    expect(json.result).toEqual([{ prop1: 'R2', prop2: 'c' }])
  })
})

describe('saveAsNewDataset', () => {
  it('stores the full result (geometries and every property) and refuses an existing name with 409', async () => {
    const params = {
      ...within,
      saveAsNewDataset: 'true',
      newDatasetNme: 'cities_in_regions',
      selectionParamSource: 'name',
    }
    const first = await svc.join(params)
    expect(first.status).toBe(200)
    const saved = await svc.workspace.read('cities_in_regions')
    expect(saved.features).toHaveLength(3)
    expect(saved.features[0]).toEqual({
      geometry: { type: 'Point', coordinates: [1, 1] },
      properties: { name: 'a', population: 100, code: 'X', ref_label: 'R1', ref_code: 'X' },
    })
    const again = await svc.join(params)
    expect(again.status).toBe(409)
    expect(again.json.field).toBe('newDatasetNme')
    expect((await svc.workspace.read('cities_in_regions')).features).toHaveLength(3)
  })
})

describe('the join runs off the request thread and stops when its client leaves', () => {
  it('a second join completes after the first one’s client disconnected (one worker)', async () => {
    const many = Array.from({ length: 6000 }, (_, i) =>
      feature({ type: 'Point', coordinates: [i / 100, 1] }, { v: i }),
    )
    const heavy = await runService({ many, many2: many })
    try {
      const slow = new AbortController()
      const pending = heavy
        .join(
          {
            queryType: 'basic',
            datasetSource: 'many',
            datasetRef: 'many2',
            sourceProperty: 'v',
            refProperty: 'v',
            operator: '<>',
          },
          undefined,
          { signal: slow.signal },
        )
        .catch((e: Error) => e)
      await new Promise((r) => setTimeout(r, 300))
      // While the join runs the server keeps answering.
      const layers = await fetch(`${heavy.service.urls.mgis_v2_url}/getLayersList`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      })
      expect(layers.status).toBe(200)
      slow.abort()
      expect(await pending).toBeInstanceOf(Error)
      const quick = await heavy.join({
        queryType: 'basic',
        datasetSource: 'many',
        datasetRef: 'many2',
        sourceProperty: 'v',
        refProperty: 'v',
        operator: '=',
        selectionParamSource: 'v',
      })
      expect(quick.status).toBe(200)
      expect(quick.json.result).toHaveLength(6000)
    } finally {
      await heavy.stop()
    }
  })
})
