/**
 * `npm run bench:tiles`: vector tiles of a 1,000,000-point PostGIS table (issue 31's "done when": p95 ≤ 50 ms
 * per tile at zooms 6–14; decision 031). A throw-away cluster on 127.0.0.1, the points made in SQL with a
 * fixed seed (`test/support/postgis-points.ts`: 40 % even over a country, 60 % in eight city clusters),
 * the built-in local service started on it. For each zoom 6–14, the tiles a 1280×800 view needs (512-pixel
 * tiles, as OpenLayers asks for them) around four centres — three dense cities and a sparse middle —
 * requested over HTTP one after the other, `--turns N` times (default 3). Beside each, in the same run:
 * the same tile thinned on the fly only (no overviews) and the plain `ST_AsMVT` of every feature (the
 * anchor), both through the same driver without HTTP. Prints p50/p95 per zoom, the bytes, how tiles were
 * cut, the overview build's time and size. Env: BENCH_POINTS (default 1,000,000).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { TILE_THINNING_HEADER, tilePath } from '../electron/contract/gis/tiles'
import { startLocalService } from '../electron/local-service/index'
import { VectorTiles } from '../electron/local-service/postgis/tiles'
import { PostgisWorkspace } from '../electron/local-service/postgis/workspace'
import { postgresMissing, startTestCluster } from '../test/support/postgres'
import { createPointTable, viewportTiles } from '../test/support/postgis-points'

const POINTS = Number(process.env.BENCH_POINTS ?? 1_000_000)
const turnsArg = process.argv.indexOf('--turns')
const TURNS = turnsArg > 0 ? Number(process.argv[turnsArg + 1]) : 3
const CENTRES = [
  { name: 'Delhi', lon: 77.2, lat: 28.6 },
  { name: 'Mumbai', lon: 72.9, lat: 19.1 },
  { name: 'Chennai', lon: 80.3, lat: 13.1 },
  { name: 'central (sparse)', lon: 80.5, lat: 21.5 },
]

function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(s.length * q) - 1))]!
}
const ms = (x: number) => x.toFixed(1).padStart(7)

async function main(): Promise<void> {
  const missing = postgresMissing()
  if (missing) {
    console.log(`bench:tiles skipped: ${missing}`)
    return
  }
  const cluster = await startTestCluster()
  const folder = mkdtempSync(path.join(os.tmpdir(), 'geo-analyst-tiles-bench-'))
  try {
    await cluster.admin.query('CREATE DATABASE gis')
    const db = await cluster.connect('gis')
    await db.query('CREATE EXTENSION postgis')
    let t0 = performance.now()
    await createPointTable(db, 'places', POINTS)
    console.log(
      `${POINTS.toLocaleString('en')} points loaded and indexed in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    )
    const env = { PGPASSWORD: cluster.password }
    const uri = cluster.uri('gis', 'schema=public')
    const service = await startLocalService({
      workspaceDir: folder,
      databaseUri: uri,
      env,
      sampleData: false,
    })
    const origin = `http://127.0.0.1:${service.port}`
    const headers = { authorization: `Bearer ${service.token}` }
    const get = async (z: number, x: number, y: number) => {
      const started = performance.now()
      const res = await fetch(origin + tilePath('places', z, x, y), { headers })
      const bytes = (await res.arrayBuffer()).byteLength
      if (res.status !== 200 && res.status !== 204) throw new Error(`tile ${z}/${x}/${y}: HTTP ${res.status}`)
      return {
        ms: performance.now() - started,
        bytes,
        thinning: res.headers.get(TILE_THINNING_HEADER) ?? '?',
      }
    }

    // The first low-zoom tile starts the overview build; tiles are thinned on the fly until it is done.
    t0 = performance.now()
    await get(6, 45, 26)
    for (;;) {
      if ((await get(6, 45, 26)).thinning === 'overview') break
      if (performance.now() - t0 > 10 * 60_000)
        throw new Error('the overviews were not built within 10 minutes')
      await new Promise((r) => setTimeout(r, 1000))
    }
    const buildSeconds = (performance.now() - t0) / 1000
    const sizes = (
      await db.query(`SELECT
        (SELECT pg_total_relation_size('public.places')) AS source,
        (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'geo_analyst' AND c.relkind = 'r') AS overviews,
        (SELECT levels::text || ' rows ' || level_rows::text FROM geo_analyst.tile_overviews) AS levels`)
    ).rows[0]!
    console.log(
      `overviews ready ${buildSeconds.toFixed(1)} s after the first tile; levels ${String(sizes.levels)}; ` +
        `${(Number(sizes.overviews) / 2 ** 20).toFixed(0)} MiB beside the table's ${(Number(sizes.source) / 2 ** 20).toFixed(0)} MiB (with indexes)`,
    )

    // The two comparisons, through the same driver, no HTTP.
    const workspace = PostgisWorkspace.fromUri(uri, { env })
    const gridOnly = new VectorTiles(workspace, { overviews: false })
    const timed = async (fn: () => Promise<{ bytes: Buffer }>) => {
      const started = performance.now()
      const tile = await fn()
      return { ms: performance.now() - started, bytes: tile.bytes.length }
    }

    console.log(
      `\n${TURNS} turns; served = over HTTP from the local service; grid only and plain = same driver, no HTTP`,
    )
    console.log(
      'zoom tiles |  served p50    p95   KB med  cut         | grid-only p50   p95 | plain ST_AsMVT p50    p95   KB med',
    )
    let worstP95 = 0
    for (let z = 6; z <= 14; z++) {
      const tiles = CENTRES.flatMap((c) => viewportTiles(c.lon, c.lat, z))
      const served: number[] = []
      const servedBytes: number[] = []
      const grid: number[] = []
      const plain: number[] = []
      const plainBytes: number[] = []
      const cuts = new Map<string, number>()
      for (let turn = 0; turn < TURNS; turn++) {
        for (const t of tiles) {
          const s = await get(t.z, t.x, t.y)
          served.push(s.ms)
          servedBytes.push(s.bytes)
          cuts.set(s.thinning, (cuts.get(s.thinning) ?? 0) + 1)
          grid.push((await timed(() => gridOnly.tile('places', t))).ms)
          if (turn === 0) {
            const p = await timed(() => gridOnly.plainTile('places', t))
            plain.push(p.ms)
            plainBytes.push(p.bytes)
          }
        }
      }
      worstP95 = Math.max(worstP95, quantile(served, 0.95))
      const cut = [...cuts].map(([k, n]) => `${k} ${Math.round((100 * n) / served.length)}%`).join(' ')
      console.log(
        `${String(z).padStart(4)} ${String(tiles.length).padStart(5)} | ${ms(quantile(served, 0.5))} ${ms(quantile(served, 0.95))} ${(quantile(servedBytes, 0.5) / 1024).toFixed(0).padStart(6)}  ${cut.padEnd(11)} | ${ms(quantile(grid, 0.5))} ${ms(quantile(grid, 0.95))} | ${ms(quantile(plain, 0.5))} ${ms(quantile(plain, 0.95))} ${(quantile(plainBytes, 0.5) / 1024).toFixed(0).padStart(6)}`,
      )
    }
    console.log(
      `\nworst served p95 over zooms 6–14: ${worstP95.toFixed(1)} ms (aim ≤ 50); load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    )
    await workspace.close()
    await service.close()
  } finally {
    await cluster.stop()
    rmSync(folder, { recursive: true, force: true })
  }
}

await main()
