import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FakeProvider } from '../../../support/fake-provider'
import { reconcileSavedDataset } from '../../../../electron/contract/gis/join-params'
import { RowTable, type CheckedRows } from '../../../../shared/rows/row-table'
import { clientFor, TOKEN } from './helpers'

/** The rows the core checked and hands on, read as the renderer reads them. */
const read = (rows: CheckedRows) => RowTable.read(rows.bytes)

let fake: FakeProvider
beforeEach(async () => {
  fake = await new FakeProvider().start()
})
afterEach(() => fake.stop())

const JOIN = '/mgis/query_apply/join'
const LAYERS = '/mgis/v2/getLayersList'
const spatial = {
  queryType: 'spatialOperation',
  datasetSource: 'wards',
  datasetRef: 'parks',
  operator: 'DWithin',
  distance: 250,
  sourceProperty: 'geom',
}
const area = {
  type: 'FeatureCollection',
  features: [{ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [77.2, 28.6] } }],
}

describe('gis client', () => {
  it('join POSTs JSON with the spec parameter names in the query and a bearer header', async () => {
    fake.on(JOIN, { status: 200, json: { code: '200', result: [{ prop1: 'a', prop9: 'kept' }] } })
    const { client } = clientFor(fake)
    const { datasetRef: _r, ...noRef } = spatial
    const r = await client.gis.join(
      { ...noRef, userGeom: true, saveAsNewDataset: 'true', newDatasetNme: 'near_parks' },
      area,
    )
    const req = fake.to(JOIN)[0]!
    expect(req.method).toBe('POST')
    expect(req.headers['content-type']).toBe('application/json')
    expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`)
    expect(Object.fromEntries(req.query)).toEqual({
      queryType: 'spatialOperation',
      datasetSource: 'wards',
      operator: 'DWithin',
      sourceProperty: 'geom',
      userGeom: 'true',
      distance: '250',
      saveAsNewDataset: 'true',
      newDatasetNme: 'near_parks',
    })
    expect(JSON.parse(req.body.toString())).toEqual(area)
    expect(r).toMatchObject({ ok: true, value: { response: { code: '200' }, partial: false } })
    expect(r.ok && read(r.value.response.rows).rows()).toEqual([{ prop1: 'a', prop9: 'kept' }])
  })

  it('join: 206 is a partial result, flagged', async () => {
    fake.on(JOIN, { status: 206, json: { code: '206', result: [{ prop1: 'x' }] } })
    const r = await clientFor(fake).client.gis.join(spatial)
    expect(r).toMatchObject({ ok: true, value: { partial: true } })
  })

  it('join validation failures are reported before anything is sent', async () => {
    const r = await clientFor(fake).client.gis.join({ ...spatial, distance: undefined })
    expect(r.ok ? null : r.error).toMatchObject({ failureClass: 'validation', field: 'distance' })
    expect(fake.received).toHaveLength(0)
  })

  it('a read-only join is retried after a reset', async () => {
    fake.on(JOIN, { reset: true }, { status: 200, json: { code: '200', result: [] } })
    const r = await clientFor(fake).client.gis.join(spatial)
    expect(r.ok).toBe(true)
    expect(fake.to(JOIN)).toHaveLength(2)
  })

  it('a saving join is not replayed after a reset: it compares the dataset lists before and after', async () => {
    const list = (...names: string[]) => ({
      status: 200,
      json: { code: '200', success: 'true', data: names.map((layername) => ({ layername })) },
    })
    fake.on(JOIN, { reset: true })
    fake.on(LAYERS, list('wards'), list('wards', 'near_parks'))
    const { client } = clientFor(fake)
    const r = await client.gis.join({ ...spatial, saveAsNewDataset: true, newDatasetNme: 'near_parks' })
    expect(fake.to(JOIN)).toHaveLength(1)
    expect(fake.to(LAYERS)).toHaveLength(2)
    expect(r).toMatchObject({ ok: true, value: { reconciled: 'found' } })

    // Not listed afterwards: the outcome stays unknown.
    fake.on(JOIN, { reset: true })
    fake.on(LAYERS, { status: 200, json: { data: { layername: 'wards' } } })
    const again = await client.gis.join({ ...spatial, saveAsNewDataset: true, newDatasetNme: 'other_name' })
    expect(fake.to(JOIN)).toHaveLength(2)
    expect(again.ok ? null : again.error).toMatchObject({
      failureClass: 'unknown-outcome',
      retry: 'reconcile-first',
    })
    expect(again.ok ? '' : again.error.message).toMatch(/other_name is not in the dataset list/)
  })

  it('a dataset that was listed before the run (letter case aside) is not "found": the run saved nothing', async () => {
    fake.on(JOIN, { reset: true })
    fake.on(LAYERS, { status: 200, json: { data: [{ layername: 'Near_Parks' }] } })
    const r = await clientFor(fake).client.gis.join({
      ...spatial,
      saveAsNewDataset: true,
      newDatasetNme: 'near_parks',
    })
    expect(fake.to(JOIN)).toHaveLength(1)
    expect(r.ok ? null : r.error).toMatchObject({ failureClass: 'conflict', field: 'newDatasetNme' })
    expect(r.ok ? '' : r.error.message).toMatch(/Near_Parks was already in the dataset list before this run/)
  })

  it('reconciles by the service’s name rule: letter case aside', () => {
    expect(reconcileSavedDataset('near_parks', ['wards'], ['wards', 'NEAR_parks'])).toEqual({
      kind: 'found',
      listed: 'NEAR_parks',
    })
    expect(reconcileSavedDataset('near_parks', ['near_PARKS'], ['near_PARKS'])).toEqual({
      kind: 'existed',
      listed: 'near_PARKS',
    })
    expect(reconcileSavedDataset('near_parks', ['wards'], ['wards'])).toEqual({ kind: 'absent' })
    expect(reconcileSavedDataset('near_parks', ['wards'], undefined)).toEqual({ kind: 'unread' })
    // Without the list before, a listed name counts as found.
    expect(reconcileSavedDataset('near_parks', undefined, ['near_parks'])).toMatchObject({ kind: 'found' })
  })

  it('a 409 is reported as a conflict and never turned into a new write', async () => {
    fake.on(JOIN, { status: 409, json: { message: 'dataset exists' } })
    fake.on(LAYERS, { status: 200, json: { data: [] } })
    const r = await clientFor(fake).client.gis.join({
      ...spatial,
      saveAsNewDataset: true,
      newDatasetNme: 'near_parks',
    })
    expect(fake.to(JOIN)).toHaveLength(1)
    // The list read before sending, never a second one to turn the conflict into something else.
    expect(fake.to(LAYERS)).toHaveLength(1)
    expect(r.ok ? null : r.error).toMatchObject({ failureClass: 'conflict', status: 409 })
  })

  it('reads a join answer’s rows in place, values as text, and refuses rows that are not objects', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({ prop1: String(i), prop2: i }))
    fake.on(JOIN, { status: 200, json: { code: 200, rowCount: 5000, result: rows } })
    const { client } = clientFor(fake)
    const r = await client.gis.join(spatial)
    expect(r.ok && r.value.response.rows.length).toBe(5000)
    expect(r.ok && r.value.response.code).toBe('200')
    expect(r.ok && read(r.value.response.rows).row(4999)).toEqual({ prop1: '4999', prop2: '4999' })
    expect(r.ok && r.value.response['rowCount']).toBe(5000)
    fake.on(JOIN, { status: 200, json: { code: '200', result: [{ prop1: 'a' }, 'b'] } })
    const bad = await client.gis.join(spatial)
    expect(bad.ok ? null : bad.error).toMatchObject({ failureClass: 'unclassified' })
    expect(bad.ok ? '' : bad.error.message).toMatch(/result\.1: result rows must be objects/)
  })

  it('reads a large answer while it streams in, with the rows and errors of one read whole', async () => {
    // 60,000 rows (about 3 MB, sent in 64 KB pieces): the transport feeds the reader as they come.
    const rows = Array.from({ length: 60_000 }, (_, i) => ({
      prop1: String(i),
      prop2: i % 7 === 0 ? `Zürich "${i}"` : `P${i}`,
      prop3: `POINT (${77 + i / 1e5} ${28 + i / 1e5})`,
    }))
    const text = JSON.stringify({ code: '200', rowCount: rows.length, result: rows, columns: [] })
    fake.on(JOIN, { stream: Buffer.from(text), piece: 64 * 1024 })
    const { client } = clientFor(fake)
    const r = await client.gis.join(spatial)
    if (!r.ok) throw new Error(r.error.message)
    const table = read(r.value.response.rows)
    expect(r.value.response.rows.length).toBe(60_000)
    expect(table.length).toBe(60_000)
    expect(table.row(0)).toEqual({ prop1: '0', prop2: 'Zürich "0"', prop3: 'POINT (77 28)' })
    expect(table.row(59_999)).toEqual(rows[59_999])
    expect(table.column('prop2').filter((v) => v.startsWith('Zürich'))).toHaveLength(8572)
    // The bytes handed on are the answer's rows as sent.
    expect(new TextDecoder().decode(table.bytes)).toBe(JSON.stringify(rows))
    // A row that is not an object far into the stream is named as in an answer read whole.
    const bad = text.replace('{"prop1":"41234"', '["prop1"')
    fake.on(JOIN, { stream: Buffer.from(bad), piece: 64 * 1024 })
    const refused = await client.gis.join(spatial)
    expect(refused.ok ? '' : refused.error.message).toMatch(/result\.41234: result rows must be objects/)
  })

  it('hands on the rows of a successful answer while they arrive: whole rows, the start of the table’s bytes', async () => {
    const rows = Array.from({ length: 40_000 }, (_, i) => ({ prop1: String(i), prop2: `P${i}` }))
    const text = JSON.stringify({ code: '200', rowCount: rows.length, result: rows })
    const { client } = clientFor(fake)
    /** A tap that records each attempt's bytes, and how much had come when the answer was read. */
    const tap = () => {
      const attempts: Array<{ declared?: number; bytes: Buffer[] }> = []
      return {
        attempts,
        rows: {
          begin: (declared: number | undefined) => void attempts.push({ declared, bytes: [] }),
          more: (b: Uint8Array) => void attempts.at(-1)!.bytes.push(Buffer.from(b)),
        },
      }
    }
    // A read-only join cut part way is sent again: the tap hears a second beginning.
    fake.on(JOIN, { truncate: text.slice(0, 1_500_000) }, { stream: Buffer.from(text), piece: 64 * 1024 })
    const seen = tap()
    const r = await client.gis.join(spatial, undefined, { rows: seen.rows })
    if (!r.ok) throw new Error(r.error.message)
    expect(fake.to(JOIN)).toHaveLength(2)
    expect(seen.attempts).toHaveLength(2)
    expect(seen.attempts.map((a) => a.declared)).toEqual([40_000, 40_000])
    const last = Buffer.concat(seen.attempts[1]!.bytes)
    const table = Buffer.from(r.value.response.rows.bytes)
    // Most of the rows went on before the last of them came; what went on is where the table begins.
    expect(last.byteLength).toBeGreaterThan(table.byteLength / 2)
    expect(last.equals(table.subarray(0, last.byteLength))).toBe(true)
    expect(last.toString().endsWith('}')).toBe(true)
    // Nothing of an answer that failed goes on.
    const failed = tap()
    fake.on(JOIN, { status: 500, json: { code: '500', result: rows.slice(0, 20_000) } })
    fake.on(JOIN, { status: 500, json: { code: '500', result: rows.slice(0, 20_000) } })
    fake.on(JOIN, { status: 500, json: { code: '500', result: rows.slice(0, 20_000) } })
    await client.gis.join(spatial, undefined, { rows: failed.rows })
    expect(failed.attempts).toEqual([])
  })

  it('names an empty or cut join answer, and reads one with a byte order mark or leading spaces', async () => {
    const { client } = clientFor(fake)
    for (const body of ['', ' \n '.repeat(40)]) {
      fake.on(JOIN, { status: 200, body })
      const r = await client.gis.join(spatial)
      expect(r.ok ? '' : r.error.message).toMatch(/HTTP 200 with an empty body where JSON was expected/)
    }
    fake.on(JOIN, { status: 200, body: '{"code":"200","result":[{"prop1":"a"},{"prop1":"b' })
    const cut = await client.gis.join(spatial)
    expect(cut.ok ? '' : cut.error.message).toMatch(/not valid JSON \(truncated or malformed, \d+ bytes\)/)
    fake.on(JOIN, {
      status: 200,
      body: '\ufeff' + ' '.repeat(100) + '{"code":"200","result":[{"prop1":"ü"}]}',
    })
    const ok = await client.gis.join(spatial)
    expect(ok.ok && read(ok.value.response.rows).rows()).toEqual([{ prop1: 'ü' }])
  })

  it('join: 422 and 404 keep their meaning', async () => {
    fake.on(JOIN, { status: 422, json: { message: 'refProperty missing' } })
    const { client } = clientFor(fake)
    const r = await client.gis.join(spatial)
    expect(r.ok ? null : r.error).toMatchObject({ failureClass: 'validation', status: 422 })
    expect(r.ok ? '' : r.error.message).toMatch(/provider said: refProperty missing/)
    fake.on(JOIN, { status: 404, json: {} })
    const n = await client.gis.join(spatial)
    expect(n.ok ? null : n.error).toMatchObject({ failureClass: 'not-found' })
    expect(n.ok ? '' : n.error.message).toMatch(/no data found/)
  })

  it('layers: data as object or array, success as text, extras kept', async () => {
    fake.on(LAYERS, {
      status: 200,
      json: {
        code: 200,
        success: 'true',
        message: 'ok',
        data: {
          layername: 'wards',
          geometrytype: 'POLYGON',
          source: 'local',
          featureCount: '12',
          extent: [1, 2, 3, 4],
          fields: [{ name: 'id' }],
          owner: 'me',
        },
      },
    })
    const { client } = clientFor(fake)
    const r = await client.gis.layers()
    expect(r).toEqual({
      ok: true,
      value: {
        code: '200',
        success: true,
        message: 'ok',
        layers: [
          {
            layername: 'wards',
            geometrytype: 'POLYGON',
            source: 'local',
            featureCount: 12,
            extent: [1, 2, 3, 4],
            fields: [{ name: 'id' }],
            owner: 'me',
          },
        ],
      },
    })
    fake.on(LAYERS, {
      status: 200,
      json: { success: false, data: [{ layername: 'a' }, { geometrytype: 'POINT' }] },
    })
    const bad = await client.gis.layers()
    expect(bad.ok ? '' : bad.error.message).toMatch(/gis\.layers: .*data\[1\]: layername/)
  })
})
