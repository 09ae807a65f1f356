/**
 * Child process of `npm run bench:places`: load the gazetteer from one storage format and print the load
 * time (median of runs) and the memory it holds, as one JSON line. Run with --expose-gc.
 *
 *   node --expose-gc --import tsx bench/places-load.ts FORMAT FILE [RUNS]
 *
 * FORMAT: brotli (the shipped file), gzip, raw (the same columns gzip-compressed or uncompressed),
 * json (rows as gzipped JSON, the index built at load).
 */
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { gunzipSync } from 'node:zlib'
import { decodeColumns } from '../electron/local-service/places/data/columns-file'
import { buildColumns, Gazetteer, type PlaceRow } from '../electron/local-service/places/data/gazetteer'
import { prepareAutosuggest } from '../electron/local-service/places/engine/autosuggest'
import { prepareStandardizer } from '../electron/local-service/places/engine/woodpecker'

const [format, file, runsArg] = process.argv.slice(2)
const runs = Number(runsArg ?? 5)
const gc = (globalThis as { gc?: () => void }).gc
if (!gc || !format || !file)
  throw new Error('usage: node --expose-gc --import tsx bench/places-load.ts FORMAT FILE [RUNS]')

function load(): Gazetteer {
  const bytes = readFileSync(file!)
  switch (format) {
    case 'brotli':
      return Gazetteer.fromBytes(bytes)
    case 'gzip':
      return new Gazetteer(decodeColumns(gunzipSync(bytes)))
    case 'raw':
      return new Gazetteer(decodeColumns(bytes))
    case 'json': {
      const { rows, meta } = JSON.parse(gunzipSync(bytes).toString('utf8')) as {
        rows: PlaceRow[]
        meta: Record<string, unknown>
      }
      return new Gazetteer(decodeColumns(buildColumns(rows, meta)))
    }
    default:
      throw new Error(`unknown format ${format}`)
  }
}

const heap = () => {
  gc!()
  gc!()
  const m = process.memoryUsage()
  return { held: m.heapUsed + m.external, rss: m.rss }
}
const before = heap()
const t0 = performance.now()
let kept: Gazetteer | undefined = load()
const first = performance.now() - t0
const after = heap()
const size = kept.size
// The engines' lookup tables (typo trigrams, spatial grid, major names), built once after loading.
const t1 = performance.now()
prepareStandardizer(kept)
prepareAutosuggest(kept)
const prepareMs = performance.now() - t1
const prepared = heap()
kept = undefined
const times: number[] = []
for (let i = 0; i < runs; i++) {
  gc()
  const t = performance.now()
  const g = load()
  times.push(performance.now() - t)
  if (g.size !== size) throw new Error('inconsistent load')
}
times.sort((a, b) => a - b)
console.log(
  JSON.stringify({
    format,
    places: size,
    firstMs: first,
    medianMs: times[Math.floor(times.length / 2)],
    heldMiB: (after.held - before.held) / 1048576,
    prepareMs,
    preparedMiB: (prepared.held - after.held) / 1048576,
    rssMiB: (after.rss - before.rss) / 1048576,
  }),
)
