/**
 * GeoPackage export with and without the R-tree spatial index (decision 021):
 * `npx tsx bench/gpkg-index.ts [--runs N]`.
 *
 * Writes 200,000 points and 20,000 small polygons (the join benchmark's data) as a GeoPackage three ways:
 * sql.js without an index (the writer before: sql.js has no R*Tree module), SQLite's own WebAssembly build
 * (`@sqlite.org/sqlite-wasm`) with the `gpkg_rtree_index` extension (the writer now), and the index alone built
 * two ways: SQLite inserting row by row, and the packed tree written into its shadow tables. Prints the write time (median), the file size, and what a reader gains: the time to find the
 * features in a 1° box through the index against reading every geometry's envelope, as a reader without an
 * index must (here: the blob's WKB point or the polygon's first ring, decoded in JavaScript).
 */
import { performance } from 'node:perf_hooks'
import sqlite3InitModule from '@sqlite.org/sqlite-wasm'
import initSqlJs from 'sql.js'
import { createRequire } from 'node:module'
import { writeGeoPackage } from '../electron/local-service/workspace/gpkg-writer'
import type { DatasetFeature, FieldInfo } from '../electron/local-service/workspace/features'
import { mulberry32, points, smallPolygons } from './join-data'
import { loadGeos, toGeos } from '../electron/local-service/engine/geos'
import { geometryBBox } from '../electron/local-service/workspace/features'
import { packRtree } from '../electron/local-service/workspace/rtree-pack'

const argv = process.argv.slice(2)
const RUNS = argv.includes('--runs') ? Number(argv[argv.indexOf('--runs') + 1]) : 3
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const fields: FieldInfo[] = [{ name: 'id', type: 'number' }]

/** The writer before: sql.js, same tables, no index. */
async function writeWithSqlJs(features: readonly DatasetFeature[]): Promise<Uint8Array> {
  const SQL = await initSqlJs({
    locateFile: (file: string) => createRequire(import.meta.url).resolve(`sql.js/dist/${file}`),
  })
  const geos = await loadGeos()
  const writer = geos.GEOSWKBWriter_create()
  const db = new SQL.Database()
  db.run('CREATE TABLE features (fid INTEGER PRIMARY KEY AUTOINCREMENT, geom BLOB, id DOUBLE)')
  const insert = db.prepare('INSERT INTO features (geom, id) VALUES (?, ?)')
  db.run('BEGIN')
  for (const f of features) {
    const g = toGeos(geos, f.geometry!)
    const size = geos.Module._malloc(4)
    const ptr = geos.GEOSWKBWriter_write(writer, g, size)
    const wkb = geos.Module.HEAPU8.slice(ptr, ptr + (geos.Module.getValue(size, 'i32') as number))
    geos.GEOSFree(ptr)
    geos.Module._free(size)
    geos.GEOSGeom_destroy(g)
    const blob = new Uint8Array(8 + wkb.length)
    blob.set([0x47, 0x50, 0, 1])
    blob.set(wkb, 8)
    insert.run([blob, f.properties.id as number])
  }
  db.run('COMMIT')
  insert.free()
  const out = db.export()
  db.close()
  geos.GEOSWKBWriter_destroy(writer)
  return out
}

async function main() {
  const random = mulberry32(20260101)
  const sets: Array<[string, DatasetFeature[], string]> = [
    ['200,000 points', points(200_000, random), 'POINT'],
    ['20,000 polygons', smallPolygons(20_000, random), 'POLYGON'],
  ]
  const sqlite = await (sqlite3InitModule as (o?: object) => ReturnType<typeof sqlite3InitModule>)({
    print: () => undefined,
    printErr: () => undefined,
  })
  console.log(
    `${'data'.padEnd(18)}${'writer'.padEnd(34)}${'write ms'.padStart(10)}${'MiB'.padStart(8)}${'1° box: index ms'.padStart(18)}${'scan ms'.padStart(10)}${'found'.padStart(8)}`,
  )
  const indexLines: string[] = []
  for (const [label, features, type] of sets) {
    const time = async (write: () => Promise<Uint8Array>) => {
      const times: number[] = []
      let bytes: Uint8Array = new Uint8Array()
      for (let run = 0; run <= RUNS; run++) {
        const start = performance.now()
        bytes = await write()
        if (run > 0) times.push(performance.now() - start)
      }
      return { ms: median(times), bytes }
    }
    const before = await time(() => writeWithSqlJs(features))
    // The index alone, two ways: SQLite's own insertion, row by row, and the packed tree written into the
    // shadow tables (what the writer does).
    const boxes = features.map((f, i) => ({ id: i + 1, box: geometryBBox(f.geometry)! }))
    const buildIndex = (packed: boolean) => {
      const times: number[] = []
      for (let run = 0; run <= RUNS; run++) {
        const db = new sqlite.oo1.DB(':memory:', 'c')
        const start = performance.now()
        db.exec('CREATE VIRTUAL TABLE r USING rtree(id, minx, maxx, miny, maxy)')
        db.exec('BEGIN')
        if (packed) {
          const size = Number(db.selectValue('SELECT length(data) FROM r_node WHERE nodeno = 1'))
          const tree = packRtree(boxes, size)
          db.exec('DELETE FROM r_node')
          const put = (sql: string, rows: unknown[][]) => {
            const st = db.prepare(sql)
            for (const row of rows) st.bind(row as never).stepReset()
            st.finalize()
          }
          put(
            'INSERT INTO r_node VALUES (?, ?)',
            tree.nodes.map((n) => [n.nodeno, n.data]),
          )
          put('INSERT INTO r_rowid VALUES (?, ?)', tree.rowids)
          put('INSERT INTO r_parent VALUES (?, ?)', tree.parents)
        } else {
          const st = db.prepare('INSERT INTO r VALUES (?, ?, ?, ?, ?)')
          for (const { id, box } of boxes) st.bind([id, box[0], box[2], box[1], box[3]]).stepReset()
          st.finalize()
        }
        db.exec('COMMIT')
        if (run > 0) times.push(performance.now() - start)
        if (db.selectValue("SELECT rtreecheck('r')") !== 'ok') throw new Error('the R*Tree does not check')
        db.close()
      }
      return median(times)
    }
    const oneByOne = buildIndex(false)
    const packedMs = buildIndex(true)
    const now = await time(() => writeGeoPackage(features, fields, { geometryType: type, extent: null }))
    // A reader of the indexed file: the box through the R-tree, and by reading every geometry's blob.
    const db = new sqlite.oo1.DB()
    const p = sqlite.wasm.allocFromTypedArray(now.bytes)
    sqlite.capi.sqlite3_deserialize(db, 'main', p, now.bytes.length, now.bytes.length, 1 | 2)
    const box = [80, 20, 81, 21]
    const q = (sql: string) => {
      const times: number[] = []
      let found = 0
      for (let run = 0; run <= RUNS; run++) {
        const start = performance.now()
        found = 0
        db.exec({ sql, callback: () => void found++ })
        if (run > 0) times.push(performance.now() - start)
      }
      return { ms: median(times), found }
    }
    const indexed = q(
      `SELECT fid FROM rtree_features_geom r JOIN features f ON f.fid = r.id WHERE r.maxx >= ${box[0]} AND r.minx <= ${box[2]} AND r.maxy >= ${box[1]} AND r.miny <= ${box[3]}`,
    )
    const scan = (() => {
      const times: number[] = []
      let found = 0
      for (let run = 0; run <= RUNS; run++) {
        const start = performance.now()
        found = 0
        db.exec({
          sql: 'SELECT geom FROM features',
          rowMode: 'array',
          callback: (row) => {
            const blob = row[0] as Uint8Array
            const v = new DataView(blob.buffer, blob.byteOffset, blob.byteLength)
            // WKB after the 8-byte header: byte order, type, then a point's x, y or a polygon's rings.
            const isPoint = v.getUint32(9, true) === 1
            let minX = Infinity
            let minY = Infinity
            let maxX = -Infinity
            let maxY = -Infinity
            const n = isPoint ? 1 : v.getUint32(17, true)
            const at = isPoint ? 13 : 21
            for (let i = 0; i < n; i++) {
              const x = v.getFloat64(at + i * 16, true)
              const y = v.getFloat64(at + i * 16 + 8, true)
              minX = Math.min(minX, x)
              maxX = Math.max(maxX, x)
              minY = Math.min(minY, y)
              maxY = Math.max(maxY, y)
            }
            if (maxX >= box[0]! && minX <= box[2]! && maxY >= box[1]! && minY <= box[3]!) found++
          },
        })
        if (run > 0) times.push(performance.now() - start)
      }
      return { ms: median(times), found }
    })()
    db.close()
    indexLines.push(
      `${label.padEnd(18)}index alone: SQLite inserting row by row ${oneByOne.toFixed(0)} ms, packed into its tables ${packedMs.toFixed(0)} ms`,
    )
    const mib = (b: Uint8Array) => (b.length / 1024 / 1024).toFixed(1)
    console.log(
      `${label.padEnd(18)}${'sql.js, no index (before)'.padEnd(34)}${before.ms.toFixed(0).padStart(10)}${mib(before.bytes).padStart(8)}`,
    )
    console.log(
      `${''.padEnd(18)}${'sqlite-wasm + gpkg_rtree_index'.padEnd(34)}${now.ms.toFixed(0).padStart(10)}${mib(now.bytes).padStart(8)}${indexed.ms.toFixed(1).padStart(18)}${scan.ms.toFixed(1).padStart(10)}${`${indexed.found}/${scan.found}`.padStart(8)}`,
    )
  }
  console.log('')
  for (const line of indexLines) console.log(line)
  console.log(`median of ${RUNS} runs after a warm-up`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
