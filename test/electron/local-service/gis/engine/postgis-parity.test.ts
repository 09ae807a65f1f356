import type { Geometry, Position } from 'geojson'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mulberry32 } from '../../../../../bench/join-data'
import { loadTable, postgisAvailable, startCluster, type Cluster } from '../../../../../bench/postgis'
import type { JoinParams } from '../../../../../electron/contract/gis/join-params'
import { loadGeos, type Geos } from '../../../../../electron/local-service/engine/geos'
import { runJoin, tableFromFeatures } from '../../../../../electron/local-service/gis/engine/join'
import type { DatasetFeature } from '../../../../../electron/local-service/workspace/features'
import { square } from '../../helpers'

/**
 * The engine against PostGIS on the same data, where PostGIS is installed (Debian's postgresql-15-postgis-3;
 * the test starts a throw-away cluster as `npm run bench:join -- --postgis` does). Skipped, saying why,
 * where it is not.
 */
const missing = postgisAvailable()

const rnd = mulberry32(2026)
const at = (n: number) => Math.round(n * 1e6) / 1e6

/** Star-convex polygons of 5–12 vertices, radius 0.01°–1.5°, anywhere between lat −70 and 70. */
function polygons(count: number): DatasetFeature[] {
  return Array.from({ length: count }, (_, id) => {
    const cx = -170 + rnd() * 340
    const cy = -70 + rnd() * 140
    const n = 5 + Math.floor(rnd() * 8)
    const radius = 0.01 + rnd() ** 2 * 1.5
    const ring: Position[] = []
    for (let i = 0; i < n; i++) {
      const a = ((i + 0.2 + rnd() * 0.6) / n) * 2 * Math.PI
      const r = radius * (0.5 + rnd() * 0.5)
      ring.push([at(cx + r * Math.cos(a)), at(cy + r * Math.sin(a))])
    }
    ring.push(ring[0]!)
    return { geometry: { type: 'Polygon', coordinates: [ring] }, properties: { id } }
  })
}

/** References with long edges, and one written across ±180°. */
const references: DatasetFeature[] = [
  square(0, 30, 3, 33),
  square(0, 27, 3, 30),
  square(20, 55, 26, 58),
  {
    type: 'Polygon',
    coordinates: [
      [
        [179, -1],
        [-179, -1],
        [-179, 1],
        [179, 1],
        [179, -1],
      ],
    ],
  } as Geometry,
  {
    type: 'Polygon',
    coordinates: [
      [
        [175, 40],
        [-175, 41],
        [-176, 45],
        [176, 44],
        [175, 40],
      ],
    ],
  } as Geometry,
].map((geometry, id) => ({ geometry, properties: { id } }))

/** Points near those references: most within a few km of an edge, where plane and sphere disagree. */
function nearPoints(count: number): DatasetFeature[] {
  const out: DatasetFeature[] = []
  for (let id = 0; id < count; id++) {
    const ref = references[id % references.length]!.geometry as GeoJSON.Polygon
    const ring = ref.coordinates[0]!
    const k = Math.floor(rnd() * (ring.length - 1))
    const a = ring[k]!
    const b = ring[k + 1]!
    let dx = b[0]! - a[0]!
    if (Math.abs(dx) > 180) dx -= 360 * Math.sign(dx)
    const t = rnd()
    let x = a[0]! + t * dx + (rnd() - 0.5) * 0.05
    if (x > 180) x -= 360
    if (x < -180) x += 360
    const y = a[1]! + t * (b[1]! - a[1]!) + (rnd() - 0.5) * 0.05
    out.push({ geometry: { type: 'Point', coordinates: [at(x), at(y)] }, properties: { id } })
  }
  return out
}

let cluster: Cluster | undefined
let geos: Geos

describe.skipIf(missing !== undefined)(
  `the engine against PostGIS${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    const polys = polygons(3000)
    const pts = nearPoints(3000)

    beforeAll(async () => {
      geos = await loadGeos()
      cluster = await startCluster()
      await loadTable(cluster.client, 'polys', polys)
      await loadTable(cluster.client, 'refs', references)
      await loadTable(cluster.client, 'pts', pts)
    }, 120_000)
    afterAll(() => cluster?.stop())

    const ids = async (sql: string) =>
      ((await cluster!.client.query({ text: sql, rowMode: 'array' })).rows as number[][]).map((r) =>
        r.join(':'),
      )

    it.each([1e6, 5e7, 1e9, 5e9])(
      'functionBased Area > %d on one dataset returns exactly what ST_Area(geog) > v returns',
      async (value) => {
        const params: JoinParams = {
          queryType: 'functionBased',
          datasetSource: 'polys',
          operator: 'Intersects',
          sourceProperty: 'geom',
          comparisonFunction: 'Area',
          comparisonOperator: '>',
          comparisonValue: value,
        }
        const source = tableFromFeatures('polys', polys)
        const engine = runJoin(geos, { params, source, rowCap: 1e6 })
          .pairs.toArray()
          .map(([s]) => String(polys[s]!.properties.id))
        const expected = await ids(
          `SELECT id FROM polys WHERE ST_Area(geom::geography) > ${value} ORDER BY id`,
        )
        expect(expected.length).toBeGreaterThan(0)
        expect(expected.length).toBeLessThan(polys.length)
        expect(engine).toEqual(expected)
      },
    )

    it.each([0, 100, 1000, 5000])(
      'DWithin %d m near long edges and across ±180° returns exactly what ST_DWithin(geography) returns',
      async (metres) => {
        const params: JoinParams = {
          queryType: 'spatialOperation',
          datasetSource: 'pts',
          datasetRef: 'refs',
          operator: 'DWithin',
          distance: metres,
          sourceProperty: 'geom',
        }
        const source = tableFromFeatures('pts', pts)
        const ref = tableFromFeatures('refs', references)
        const engine = runJoin(geos, { params, source, ref, rowCap: 1e6 })
          .pairs.toArray()
          .map(([s, r]) => `${pts[s]!.properties.id}:${references[r]!.properties.id}`)
          .sort()
        const expected = (
          await ids(
            `SELECT p.id, r.id FROM pts p JOIN refs r ON ST_DWithin(p.geom::geography, r.geom::geography, ${metres})`,
          )
        ).sort()
        expect(expected.length).toBeGreaterThan(100)
        expect(engine).toEqual(expected)
      },
      60_000,
    )
  },
)
