/**
 * One import in its own process, for the routing benchmark's peak-memory figure:
 * `node --import tsx bench/routing-import-child.ts EXTRACT OUT.roadnet` prints one JSON line.
 */
import { importNetwork } from '../electron/local-service/routing/data/import-network'

const [file, outFile] = process.argv.slice(2)
if (!file || !outFile) throw new Error('usage: routing-import-child.ts EXTRACT OUT.roadnet')
const started = performance.now()
const { header } = await importNetwork({
  file,
  outFile,
  meta: { id: 'large', name: 'Large', attribution: 'OpenStreetMap contributors, ODbL', source: file },
})
console.log(
  JSON.stringify({
    ms: performance.now() - started,
    // maxRSS is in KiB.
    maxRss: process.resourceUsage().maxRSS * 1024,
    nodes: header.counts.nodes,
    edges: header.counts.edges,
  }),
)
