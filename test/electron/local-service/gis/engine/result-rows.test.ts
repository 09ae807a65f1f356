import { describe, expect, it } from 'vitest'
import type { Geometry } from 'geojson'
import { destroy, loadGeos, toGeos, toWkt } from '../../../../../electron/local-service/engine/geos'
import {
  resultRowsJson,
  tableFromFeatures,
  type Selection,
} from '../../../../../electron/local-service/gis/engine/join'
import { PairList } from '../../../../../electron/local-service/gis/engine/pair-list'
import type { DatasetFeature } from '../../../../../electron/local-service/workspace/features'
import {
  readFlatGeobuf,
  readFlatGeobufTable,
  writeFlatGeobuf,
} from '../../../../../electron/local-service/workspace/fgb'
import { buildIndex } from '../../../../../electron/local-service/workspace/workspace'
import { mulberry32 } from '../../../../../bench/join-data'
import { damaged, textPoints } from '../../workspace/text-points'

describe('result rows', () => {
  it('are every pair in order, each value as its text or the geometry as GEOS writes it, "" without a feature', async () => {
    const geos = await loadGeos()
    const random = mulberry32(21)
    // Points with coordinates of every kind (7 decimals, many, tiny, huge), values of every type, none.
    const coordinate = (i: number) =>
      [Math.round((68 + random() * 29) * 1e7) / 1e7, random() * 100, 1e-5 * random(), 0, -12.5, 1e16][i % 6]!
    const sources: DatasetFeature[] = Array.from({ length: 7_000 }, (_, i) => ({
      geometry:
        i % 97 === 0 ? null : { type: 'Point', coordinates: [coordinate(i), coordinate(i + 1 + (i % 5))] },
      properties: {
        id: i,
        name: i % 11 === 0 ? `"q" ${i} — मुंबई` : `P${i}`,
        v: [1.5, null, true, { a: i }, -3][i % 5],
      },
    }))
    const refs: DatasetFeature[] = Array.from({ length: 40 }, (_, i) => ({
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [i, 0],
            [i + 1, 0],
            [i + 1, 1.0000001],
            [i, 0],
          ],
        ],
      },
      properties: { id: i, label: i % 3 ? `R${i}` : null },
    }))
    const source = tableFromFeatures('s', sources)
    const ref = tableFromFeatures('r', refs)
    // 12,000 pairs: sources scattered (their values gathered per block: fewer than two rows each),
    // references repeated (their values encoded once) or missing.
    const pairs = new PairList()
    const expected: Array<[number, number]> = []
    for (let i = 0; i < 12_000; i++) {
      const s = Math.floor(random() * sources.length)
      const r = i % 13 === 0 ? -1 : Math.floor(random() * refs.length)
      pairs.push(s, r)
      expected.push([s, r])
    }
    const sel: Selection = {
      columns: [
        { table: 'source', name: 'id', geometry: false },
        { table: 'source', name: 'geom', geometry: true },
        { table: 'ref', name: 'label', geometry: false },
        { table: 'source', name: 'name', geometry: false },
        { table: 'ref', name: 'geom', geometry: true },
        { table: 'source', name: 'v', geometry: false },
      ],
    }
    const wkt = (g: Geometry | null) => {
      if (!g) return ''
      const ptr = toGeos(geos, g)
      try {
        return toWkt(geos, ptr)
      } finally {
        destroy(geos, ptr)
      }
    }
    const text = (v: unknown) =>
      v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)
    const rows = JSON.parse(resultRowsJson(geos, pairs, sel, source, ref)) as Array<Record<string, string>>
    expect(rows).toHaveLength(expected.length)
    rows.forEach((row, i) => {
      const [s, r] = expected[i]!
      const sf = sources[s]!
      const rf = r >= 0 ? refs[r] : undefined
      expect(row, `row ${i}`).toEqual({
        prop1: text(sf.properties.id),
        prop2: wkt(sf.geometry),
        prop3: rf ? text(rf.properties.label) : '',
        prop4: text(sf.properties.name),
        prop5: rf ? wkt(rf.geometry) : '',
        prop6: text(sf.properties.v),
      })
    })
  })

  it('of a point dataset read column-wise are byte for byte those of its feature list, text of every kind', async () => {
    const geos = await loadGeos()
    const random = mulberry32(8)
    const { features, fields } = textPoints(3_000)
    const bytes = damaged(writeFlatGeobuf(features, fields))
    const list = readFlatGeobuf(bytes).features
    const points = readFlatGeobufTable(bytes).points!
    const names = fields.map((f) => f.name)
    const index = buildIndex(list)
    const old = { name: 'pts', features: list, fields: names, index }
    const now = {
      name: 'pts',
      fields: names,
      index,
      points,
      get features() {
        return points.features()
      },
    }
    // The plain column's literals are its bytes quoted; the other's escaped from its bytes, or decoded.
    expect(points.textColumn('plain')!.plain).toBe(true)
    expect(points.textColumn('text')!.plain).toBe(false)
    const other = tableFromFeatures('other', [
      { geometry: { type: 'Point', coordinates: [1, 2] }, properties: { label: 'o"ne' } },
      { geometry: null, properties: { label: null } },
    ])
    // The points as the source in fewer rows than twice their count (values gathered per block), rows
    // without a feature among them; and as the reference of many rows each (each literal encoded once).
    const asSource = new PairList()
    for (let i = 0; i < 5_000; i++)
      asSource.push(i % 17 === 0 ? -1 : Math.floor(random() * 3_000), Math.floor(random() * 3) - 1)
    const asRef = new PairList()
    for (let i = 0; i < 7_000; i++) asRef.push(i % 2, i % 19 === 0 ? -1 : Math.floor(random() * 3_000))
    const select = (table: 'source' | 'ref', own: 'source' | 'ref'): Selection => ({
      columns: [
        { table, name: 'text', geometry: false },
        { table: own, name: 'label', geometry: false },
        { table, name: 'id', geometry: false },
        { table, name: 'plain', geometry: false },
        { table, name: 'geom', geometry: true },
      ],
    })
    const bySource = select('source', 'ref')
    const byRef = select('ref', 'source')
    const expected = resultRowsJson(geos, asSource, bySource, old, other)
    expect(resultRowsJson(geos, asSource, bySource, now, other)).toBe(expected)
    expect(resultRowsJson(geos, asRef, byRef, other, now)).toBe(
      resultRowsJson(geos, asRef, byRef, other, old),
    )
    // The general path's literals are JSON.stringify's.
    const rows = JSON.parse(expected) as Array<Record<string, string>>
    expect(rows[1]!.prop1).toBe(list[asSource.source(1)]!.properties.text ?? '')
    expect(expected).toContain(
      JSON.stringify('tab\tnewline\n control \u0001\u001f del \u007f 7').slice(1, -1),
    )
  })
})
