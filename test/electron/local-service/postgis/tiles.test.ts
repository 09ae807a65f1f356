import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import MVT from 'ol/format/MVT'
import type RenderFeature from 'ol/render/Feature'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  MVT_CONTENT_TYPE,
  TILE_THINNING_HEADER,
  TILES_EXTENSION,
  tilePath,
} from '../../../../electron/contract/gis/tiles'
import { startLocalService, type LocalService } from '../../../../electron/local-service/index'
import { GRID_CELLS, TILE_BUFFER, TILE_EXTENT } from '../../../../electron/local-service/postgis/tiles-sql'
import { postgresMissing, startTestCluster, type TestCluster } from '../../../support/postgres'
import { createPointTable } from '../../../support/postgis-points'

/**
 * `GET /tiles/{dataset}/{z}/{x}/{y}.mvt` over a throw-away PostGIS cluster (decision 031): tiles decoded
 * with OpenLayers' MVT reader, as the map reads them.
 */
const missing = postgresMissing()
const TOKEN = 'tiles-test-token'
const HOSTILE_TABLE = `x"; DROP TABLE victim; --`
const HOSTILE_COLUMN = `it's /* no */ $$ "col"`

let cluster: TestCluster
let db: pg.Client
let service: LocalService
let folderService: LocalService
const folders: string[] = []

function folder(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-analyst-tiles-'))
  folders.push(dir)
  return dir
}

async function get(
  svc: LocalService,
  dataset: string,
  z: number | string,
  x: number | string,
  y: number | string,
  token: string | undefined = TOKEN,
) {
  const url = `http://127.0.0.1:${svc.port}/tiles/${encodeURIComponent(dataset)}/${z}/${x}/${y}`
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} })
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) }
}

function decode(bytes: Uint8Array): RenderFeature[] {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
  return new MVT().readFeatures(buffer) as RenderFeature[]
}

/** The source rows a tile covers (its envelope with the buffer), counted by the database. */
async function rowsInTile(table: string, z: number, x: number, y: number): Promise<number> {
  const { rows } = await db.query(
    `SELECT count(*)::int AS n FROM ${table}
      WHERE ST_Transform(geom, 3857) && ST_TileEnvelope($1, $2, $3, margin => ${TILE_BUFFER / TILE_EXTENT})`,
    [z, x, y],
  )
  return Number(rows[0]!.n)
}

/** The XYZ tile holding a lon/lat point at zoom z. */
function tileAt(lon: number, lat: number, z: number): { z: number; x: number; y: number } {
  const n = 2 ** z
  const y = (1 - Math.asinh(Math.tan((lat * Math.PI) / 180)) / Math.PI) / 2
  return { z, x: Math.floor(((lon + 180) / 360) * n), y: Math.floor(y * n) }
}

/** Ask a tile until it is cut from an overview (the first low-zoom tile starts the build). */
async function untilOverview(dataset: string, z: number, x: number, y: number | string) {
  const deadline = Date.now() + 120_000
  for (;;) {
    const answer = await get(service, dataset, z, x, y)
    if (answer.res.headers.get(TILE_THINNING_HEADER) === 'overview') return answer
    if (Date.now() > deadline) throw new Error('no overview within 120 s')
    await new Promise((r) => setTimeout(r, 500))
  }
}

describe.skipIf(missing)(
  `vector tiles of a PostGIS workspace${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    beforeAll(async () => {
      cluster = await startTestCluster()
      await cluster.admin.query('CREATE DATABASE gis')
      db = await cluster.connect('gis')
      await db.query(`CREATE EXTENSION postgis; CREATE SCHEMA work; CREATE SCHEMA unlisted;
      CREATE TABLE victim (id int);
      CREATE TABLE unlisted.secret (id int, geom geometry(Point, 4326));
      INSERT INTO unlisted.secret VALUES (1, 'SRID=4326;POINT(77.2 28.6)')`)
      await createPointTable(db, 'work.places', 30_000)
      await db.query(
        `CREATE TABLE work."${HOSTILE_TABLE.replaceAll('"', '""')}" (id int, "${HOSTILE_COLUMN.replaceAll('"', '""')}" text,
         geom geometry(Point, 4326));
       INSERT INTO work."${HOSTILE_TABLE.replaceAll('"', '""')}" VALUES (7, 'value; DROP TABLE victim', 'SRID=4326;POINT(77.2 28.6)');
       CREATE TABLE work.zones (id int, geom geometry(Polygon, 4326));
       INSERT INTO work.zones SELECT 0, ST_MakeEnvelope(70, 10, 90, 30, 4326);
       INSERT INTO work.zones SELECT i, ST_Expand(ST_SetSRID(ST_MakePoint(77 + (i % 50) * 0.01, 28 + (i / 50) * 0.01), 4326), 0.003)
         FROM generate_series(1, 2000) i;
       ANALYZE`,
      )
      service = await startLocalService({
        workspaceDir: folder(),
        databaseUri: cluster.uri('gis', 'schema=work'),
        env: { PGPASSWORD: cluster.password },
        token: TOKEN,
        sampleData: false,
      })
      folderService = await startLocalService({ workspaceDir: folder(), token: TOKEN, sampleData: false })
    }, 120_000)

    afterAll(async () => {
      await service?.close()
      await folderService?.close()
      await cluster?.stop()
      for (const dir of folders) rmSync(dir, { recursive: true, force: true })
    })

    it('advertises the tiles in the dataset list of a database workspace, not of a folder', async () => {
      const list = await fetch(`${service.urls.mgis_v2_url}/getLayersList`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      })
      expect(list.status).toBe(200)
      expect(list.headers.get('x-geo-local-extensions')).toContain(TILES_EXTENSION)
      const folderList = await fetch(`${folderService.urls.mgis_v2_url}/getLayersList`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      })
      expect(folderList.headers.get('x-geo-local-extensions') ?? '').not.toContain(TILES_EXTENSION)
    })

    it('answers every feature of a zoom-14 tile with its attribute columns as properties', async () => {
      // The tile of a point of the Delhi cluster, where the points are densest.
      const { lon, lat } = (
        await db.query('SELECT ST_X(geom) AS lon, ST_Y(geom) AS lat FROM work.places WHERE id = 8')
      ).rows[0] as { lon: number; lat: number }
      const { z, x, y } = tileAt(lon, lat, 14)
      const { res, bytes } = await get(service, 'places', z, x, `${y}.mvt`)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe(MVT_CONTENT_TYPE)
      expect(res.headers.get(TILE_THINNING_HEADER)).toBe('none')
      const features = decode(bytes)
      expect(features.length).toBe(await rowsInTile('work.places', z, x, y))
      expect(features.length).toBeGreaterThan(0)
      const props = features[0]!.getProperties()
      expect(Object.keys(props).sort()).toEqual(['id', 'kind', 'layer', 'name', 'value'])
      expect(props.layer).toBe('places')
      const row = (await db.query('SELECT name, value, kind FROM work.places WHERE id = $1', [props.id]))
        .rows[0]
      expect({ name: props.name, value: props.value, kind: props.kind }).toEqual(row)
    })

    it('thins low zooms by the pixel grid, and the overview built beside the table gives the same features', async () => {
      // Zoom 5 over Delhi: 30,000 points put a few thousand in this tile (an overview level is kept).
      const [z, x, y] = [5, 22, 13]
      const first = await get(service, 'places', z, x, `${y}.mvt`)
      expect(first.res.status).toBe(200)
      expect(first.res.headers.get(TILE_THINNING_HEADER)).toBe('grid')
      const gridIds = decode(first.bytes).map((f) => f.getProperties().id as number)
      const source = await rowsInTile('work.places', z, x, y)
      // At most one feature per cell of the grid over the tile and its buffer, and far fewer than the rows.
      const cellsAcross = GRID_CELLS * (1 + (2 * TILE_BUFFER) / TILE_EXTENT) + 2
      expect(gridIds.length).toBeLessThanOrEqual(cellsAcross ** 2)
      expect(gridIds.length).toBeLessThan(source / 2)
      expect(new Set(gridIds).size).toBe(gridIds.length)

      const built = await untilOverview('places', z, x, `${y}.mvt`)
      const overviewIds = decode(built.bytes).map((f) => f.getProperties().id as number)
      expect(overviewIds.sort((a, b) => a - b)).toEqual(gridIds.sort((a, b) => a - b))
      // Kept in the app's own schema, never among the user's tables.
      const tables = await db.query(
        `SELECT n.nspname AS schema FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relname LIKE 'ov\\_%' AND c.relkind = 'r'`,
      )
      expect(new Set(tables.rows.map((r) => r.schema))).toEqual(new Set(['geo_analyst']))
      // A point kept at one zoom is kept at the next (the levels nest): zoom 6's four tiles hold zoom 5's.
      const next = new Set<number>()
      for (const [cx, cy] of [
        [44, 26],
        [45, 26],
        [44, 27],
        [45, 27],
      ]) {
        const child = await get(service, 'places', 6, cx!, `${cy}.mvt`)
        for (const f of decode(child.bytes)) next.add(f.getProperties().id as number)
      }
      const inside = await db.query(
        `SELECT id FROM work.places WHERE id = ANY($1) AND ST_Transform(geom, 3857) && ST_TileEnvelope(5, 22, 13)`,
        [overviewIds],
      )
      expect(inside.rows.length).toBeGreaterThan(100)
      for (const r of inside.rows) expect(next.has(r.id as number)).toBe(true)
    }, 180_000)

    it('stops using an overview once the table changes', async () => {
      await untilOverview('places', 3, 5, '3.mvt')
      // A point where there was none: a changed table is thinned on the fly until it is built again.
      await db.query(`INSERT INTO work.places VALUES (999999, 'new', 1, 'shop', 'SRID=4326;POINT(70 39)')`)
      await db.query('SELECT pg_stat_force_next_flush()')
      await new Promise((r) => setTimeout(r, 6000))
      const after = await get(service, 'places', 3, 5, '3.mvt')
      expect(after.res.headers.get(TILE_THINNING_HEADER)).toBe('grid')
      expect(decode(after.bytes).map((f) => f.getProperties().id)).toContain(999999)
    }, 180_000)

    it('keeps every feature larger than a grid cell and thins the small ones', async () => {
      const { res, bytes } = await get(service, 'zones', 6, 45, '26.mvt')
      expect(res.status).toBe(200)
      const ids = decode(bytes).map((f) => f.getProperties().id as number)
      expect(ids).toContain(0)
      expect(ids.length).toBeGreaterThan(1)
      expect(ids.length).toBeLessThan(2001)
    })

    it('answers 204 with no body for a tile with no feature', async () => {
      const { res, bytes } = await get(service, 'places', 6, 0, '0.mvt')
      expect(res.status).toBe(204)
      expect(bytes.byteLength).toBe(0)
    })

    it('takes hostile dataset and column names as names, never as SQL', async () => {
      const { res, bytes } = await get(service, HOSTILE_TABLE, 14, 11705, '6832.mvt')
      expect(res.status).toBe(200)
      const [feature] = decode(bytes)
      expect(feature!.getProperties()[HOSTILE_COLUMN]).toBe('value; DROP TABLE victim')
      expect((await db.query(`SELECT to_regclass('public.victim') IS NOT NULL AS here`)).rows[0]!.here).toBe(
        true,
      )
    })

    it.each([
      ['z', '25', '0', '0.mvt', 'z: must be a whole number from 0 to 24'],
      ['z', '-1', '0', '0.mvt', 'z: must be a whole number'],
      ['x', '6', '64', '0.mvt', 'x: must be a whole number from 0 to 63 at zoom 6'],
      ['y', '6', '0', '64.mvt', 'y: must be a whole number from 0 to 63 at zoom 6'],
      ['y', '6', '0', 'abc.mvt', 'y: must be a whole number'],
      ['y', '6', '0', '1.png', 'y: the last segment must be {y}.mvt'],
      ['x', '3', '1e2', '0.mvt', 'x: must be a whole number'],
    ])('answers 400 naming %s for %s/%s/%s', async (field, z, x, y, message) => {
      const { res, bytes } = await get(service, 'places', z, x, y)
      expect(res.status).toBe(400)
      const body = JSON.parse(new TextDecoder().decode(bytes)) as { field: string; message: string }
      expect(body.field).toBe(field)
      expect(body.message).toContain(message)
    })

    it('answers 404 for a dataset outside the workspace schemas, even one the user may read', async () => {
      for (const name of ['unlisted.secret', 'victim', 'no_such_table']) {
        const { res, bytes } = await get(service, name, 14, 11705, '6832.mvt')
        expect(res.status).toBe(404)
        expect(new TextDecoder().decode(bytes)).toContain('no dataset named')
      }
    })

    it('takes the gis group bearer token', async () => {
      expect((await get(service, 'places', 6, 45, '26.mvt', '')).res.status).toBe(401)
      expect((await get(service, 'places', 6, 45, '26.mvt', 'wrong')).res.status).toBe(401)
    })

    it('answers 501 on a folder workspace: tiles are a database feature', async () => {
      const { res, bytes } = await get(folderService, 'anything', 6, 45, '26.mvt')
      expect(res.status).toBe(501)
      expect(new TextDecoder().decode(bytes)).toContain('vector tiles are a database feature')
    })

    it('builds the tile path the service answers', () => {
      expect(tilePath('a/b c', 3, 1, 2)).toBe('/tiles/a%2Fb%20c/3/1/2.mvt')
    })
  },
)
