import { promises as fs } from 'node:fs'
import path from 'node:path'
import { GraphBuilder, type BuildMeta } from './graph-builder'
import { writeNetworkFile, type NetworkHeader } from './graph-file'
import { readGeoJson } from './readers/geojson'
import { readOsmPbf } from './readers/osm-pbf'
import { readOsmXml } from './readers/osm-xml'
import { ImportCancelled, type ReadProgress } from './readers/read-progress'

export type ExtractFormat = 'osm-pbf' | 'osm-xml' | 'geojson'

/** The extract's format from its name: .osm.pbf / .pbf, .osm / .xml, .geojson / .json / .geojsonl / .ndjson / .jsonl. */
export function extractFormat(file: string): ExtractFormat | undefined {
  const name = file.toLowerCase()
  if (name.endsWith('.pbf')) return 'osm-pbf'
  if (name.endsWith('.osm') || name.endsWith('.xml')) return 'osm-xml'
  if (/\.(geojson|json|geojsonl|geojsons|ndjson|jsonl)$/.test(name)) return 'geojson'
  return undefined
}

export const IMPORT_PHASES = ['reading ways', 'reading nodes', 'building graph', 'writing'] as const
export type ImportPhase = (typeof IMPORT_PHASES)[number]

export interface ImportProgress {
  phase: ImportPhase
  /** 0..1 over the whole import. */
  fraction: number
}

export interface ImportOptions {
  file: string
  /** Where the network file is written (atomically). */
  outFile: string
  meta: BuildMeta
  onProgress?: (progress: ImportProgress) => void
  signal?: AbortSignal
}

/** Share of the whole import each phase takes, for one progress bar. */
const SPAN: Record<ImportPhase, [number, number]> = {
  'reading ways': [0, 0.45],
  'reading nodes': [0.45, 0.85],
  'building graph': [0.85, 0.95],
  writing: [0.95, 1],
}

export interface ImportOutcome {
  header: NetworkHeader
  /** Largest resident set seen during the import, in bytes. */
  peakRss: number
}

/**
 * Import an OSM extract into a road network file: read it (two passes for OSM formats), build the
 * compressed graph and its snapping index, write it atomically. Cancelling stops between batches; nothing
 * is written then.
 */
export async function importNetwork(options: ImportOptions): Promise<ImportOutcome> {
  const format = extractFormat(options.file)
  if (!format)
    throw new Error(
      `${path.basename(options.file)}: unknown extract format; use .osm.pbf, .osm (OSM XML), .geojson or .geojsonl`,
    )
  await fs.access(options.file).catch(() => {
    throw new Error(`${options.file} does not exist or cannot be read`)
  })
  let peakRss = process.memoryUsage.rss()
  let lastReport = -1
  const report = (phase: ImportPhase, within: number) => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss())
    const [a, b] = SPAN[phase]
    const fraction = a + (b - a) * Math.max(0, Math.min(1, within))
    if (fraction - lastReport < 0.005 && within < 1) return
    lastReport = fraction
    options.onProgress?.({ phase, fraction })
  }
  const check = () => {
    if (options.signal?.aborted) throw new ImportCancelled()
  }
  const phase = (p: ImportPhase): ReadProgress => ({
    bytes: (done, total) => report(p, total > 0 ? done / total : 1),
    check,
  })
  const builder = new GraphBuilder()
  check()
  report('reading ways', 0)
  if (format === 'osm-pbf')
    await readOsmPbf(builder, options.file, { ways: phase('reading ways'), nodes: phase('reading nodes') })
  else if (format === 'osm-xml')
    await readOsmXml(builder, options.file, { ways: phase('reading ways'), nodes: phase('reading nodes') })
  else await readGeoJson(builder, options.file, phase('reading ways'))
  report('reading nodes', 1)
  check()
  if (builder.wayCount === 0)
    throw new Error(
      `${path.basename(options.file)} has no routable roads (no way with a highway tag a profile can use)`,
    )
  builder.releaseIds()
  report('building graph', 0)
  const data = builder.finish(options.meta)
  report('building graph', 1)
  check()
  if (data.header.counts.edges === 0)
    throw new Error(`${path.basename(options.file)}: the roads have no node coordinates in the file`)
  report('writing', 0)
  await writeNetworkFile(options.outFile, data)
  report('writing', 1)
  return { header: data.header, peakRss }
}
