/**
 * FlatGeobuf vs GeoPackage as the workspace's dataset format (docs/decisions/002-workspace-format.md):
 * write and read back the benchmark's points and small polygons in both, print times and sizes.
 *
 *   npx tsx bench/workspace-format.ts
 */
import { performance } from 'node:perf_hooks'
import type { DatasetFeature } from '../electron/local-service/workspace/features'
import { inferFields } from '../electron/local-service/workspace/features'
import { readFlatGeobuf, writeFlatGeobuf } from '../electron/local-service/workspace/fgb'
import { readGeoPackage, writeGeoPackage } from '../electron/local-service/workspace/gpkg'
import { mulberry32, points, smallPolygons } from './join-data'

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function time<T>(runs: number, work: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const times: number[] = []
  let value!: T
  for (let i = 0; i < runs; i++) {
    const t = performance.now()
    value = await work()
    times.push(performance.now() - t)
  }
  return { ms: median(times), value }
}

async function main() {
  const random = mulberry32(20260101)
  const sets: Record<string, DatasetFeature[]> = {
    '200k points': points(200_000, random).map((f) => ({
      ...f,
      properties: { ...f.properties, name: `p${f.properties.id}` },
    })),
    '20k polygons': smallPolygons(20_000, random),
  }
  console.log('data set       format      write ms   read ms   size MiB')
  for (const [label, features] of Object.entries(sets)) {
    const fields = inferFields(features)
    const fgbWrite = await time(3, () => writeFlatGeobuf(features, fields))
    const fgbRead = await time(3, () => readFlatGeobuf(fgbWrite.value))
    const gpkgWrite = await time(3, () =>
      writeGeoPackage(features, fields, { geometryType: 'GEOMETRY', extent: null }),
    )
    const gpkgRead = await time(3, () => readGeoPackage(gpkgWrite.value))
    for (const [name, w, r] of [
      ['FlatGeobuf', fgbWrite, fgbRead],
      ['GeoPackage', gpkgWrite, gpkgRead],
    ] as const) {
      console.log(
        `${label.padEnd(15)}${name.padEnd(12)}${w.ms.toFixed(0).padStart(8)}${r.ms.toFixed(0).padStart(10)}${(w.value.length / 1048576).toFixed(1).padStart(11)}`,
      )
    }
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
