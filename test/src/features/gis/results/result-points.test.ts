import type { Geometry } from 'geojson'
import { describe, expect, it } from 'vitest'
import { RowTable } from '../../../../../shared/rows/row-table'
import { detectGeometry } from '../../../../../src/geo/geometry-value'
import { summarizeGeometries } from '../../../../../src/geo/results-summary'
import { pointColumn, summarizePoints } from '../../../../../src/features/gis/results/result-points'

const all = (n: number) => ({ has: (i: number) => i >= 0 && i < n, size: n })

describe('pointColumn', () => {
  it('reads the same numbers from the bytes as the WKT reader does from the text', () => {
    let seed = 7
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646
    const values = Array.from({ length: 5000 }, (_, i) => {
      const lon = (random() * 360 - 180).toFixed(i % 8)
      const lat = (random() * 180 - 90).toFixed((i * 3) % 16)
      return i % 97 === 0 ? '' : i % 2 ? `POINT (${lon} ${lat})` : `POINT(${lon}  ${lat})`
    })
    values.push('POINT (-0 .5)', 'POINT (1. +2)', 'POINT (0.000000000000000000001 0)')
    const table = RowTable.of(values.map((geom, id) => ({ id: String(id), geom })))
    const lonLat = pointColumn(table, 'geom')!
    expect(lonLat).not.toBeNull()
    values.forEach((v, i) => {
      const g = v ? (detectGeometry(v)?.geometry as Extract<Geometry, { type: 'Point' }>) : null
      if (!g) {
        expect(Number.isNaN(lonLat[2 * i]!)).toBe(true)
        return
      }
      expect([lonLat[2 * i], lonLat[2 * i + 1]]).toEqual(g.coordinates)
      expect(Object.is(lonLat[2 * i], g.coordinates[0])).toBe(true)
    })
  })

  it('reads values that are not plain the general way, and declines a column that is not all 2-D points', () => {
    const odd = [
      'POINT (1e3 2)',
      ' POINT (1 2)',
      'POINT (1.0000000000000001 2)',
      'SRID=4326;POINT (3 4)',
      'not a place',
      '{"type":"Point","coordinates":[5,6]}',
    ]
    const table = RowTable.of(odd.map((geom) => ({ geom })))
    const lonLat = pointColumn(table, 'geom')!
    odd.forEach((v, i) => {
      const g = detectGeometry(v)?.geometry as Extract<Geometry, { type: 'Point' }> | undefined
      expect([lonLat[2 * i], lonLat[2 * i + 1]], v).toEqual(g ? g.coordinates : [NaN, NaN])
    })
    const declined = (geom: string) => pointColumn(RowTable.of([{ geom: 'POINT (1 2)' }, { geom }]), 'geom')
    for (const geom of ['LINESTRING (0 0, 1 1)', 'MULTIPOINT ((1 2), (3 4))'])
      expect(declined(geom), geom).toBeNull()
    expect(pointColumn(RowTable.of([{ geom: '' }, { other: 'x' }]), 'geom')).toBeNull()
  })
})

describe('summarizePoints', () => {
  it('counts and bounds the shown points as the general summary does', () => {
    const rows = [
      { g: 'POINT (72.88 19.07)' },
      { g: '' },
      { g: 'POINT (77.21 28.61)' },
      { g: 'POINT (88.36 22.57)' },
    ]
    const lonLat = pointColumn(RowTable.of(rows), 'g')!
    const geometries = rows.map((r) => (r.g ? detectGeometry(r.g)!.geometry : null))
    expect(summarizePoints(lonLat, all(4))).toEqual(summarizeGeometries(geometries))
    const some = { has: (i: number) => i === 0 || i === 2, size: 2 }
    expect(summarizePoints(lonLat, some)).toEqual(summarizeGeometries([geometries[0]!, geometries[2]!]))
    expect(summarizePoints(lonLat, { has: () => false, size: 0 })).toMatchObject({
      geometryCount: 0,
      extent: null,
    })
  })
})
