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
import { mulberry32 } from '../../../../../bench/join-data'

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
})
