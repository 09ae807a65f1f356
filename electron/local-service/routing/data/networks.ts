import { existsSync, promises as fs } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { readNetworkHeader, type NetworkHeader } from './graph-file'

/** The bundled sample network (built by `npm run data:routing`). */
export const SAMPLE_NETWORK = {
  id: 'gothenburg-sample',
  file: 'gothenburg.roadnet',
  name: 'Sample network: Gothenburg',
  attribution: 'OpenStreetMap contributors, ODbL',
} as const

export const NETWORK_EXTENSION = '.roadnet'
/** Folder of imported networks inside the workspace. */
export const NETWORKS_FOLDER = 'road-networks'

/** A network id is safe as a file name everywhere. */
export const NETWORK_ID_RULE = /^[a-z][a-z0-9_-]{0,62}$/

/** A network as callers see it without loading it. */
export interface NetworkEntry extends Pick<
  NetworkHeader,
  'id' | 'name' | 'attribution' | 'source' | 'built' | 'timeZone' | 'bbox' | 'counts'
> {
  /** Bundled with the app (cannot be removed) or imported into the workspace. */
  bundled: boolean
  file: string
  bytes: number
}

/**
 * Where the bundled routing data is: `GEO_ANALYST_ROUTING_DATA_DIR`, else `resources/data/routing` found by
 * walking up from this module (the source tree and the built output both sit below the project root).
 */
export function resolveRoutingDataDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.GEO_ANALYST_ROUTING_DATA_DIR) return path.resolve(env.GEO_ANALYST_ROUTING_DATA_DIR)
  let dir = path.dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 7; i++) {
    const candidate = path.join(dir, 'resources', 'data', 'routing')
    if (existsSync(path.join(candidate, SAMPLE_NETWORK.file))) return candidate
    dir = path.dirname(dir)
  }
  return undefined
}

/** A network id made from an extract's file name: lower case, unsafe characters as `-`. */
export function networkIdFromFile(file: string): string {
  let base = path
    .basename(file)
    .toLowerCase()
    .replace(/\.(osm\.pbf|pbf|osm|xml|geojson|json|geojsonl|geojsons|ndjson|jsonl)$/, '')
  base = base.replace(/[^a-z0-9_-]+/g, '-').replace(/^[^a-z]+/, '')
  return (base || 'network').slice(0, 63)
}

export function networksDir(workspaceDir: string): string {
  return path.join(workspaceDir, NETWORKS_FOLDER)
}

async function entry(file: string, bundled: boolean): Promise<NetworkEntry | undefined> {
  try {
    const [header, stat] = await Promise.all([readNetworkHeader(file), fs.stat(file)])
    return {
      id: header.id,
      name: header.name,
      attribution: header.attribution,
      source: header.source,
      built: header.built,
      timeZone: header.timeZone,
      bbox: header.bbox,
      counts: header.counts,
      bundled,
      file,
      bytes: stat.size,
    }
  } catch {
    // An unreadable or older-format file is not offered (the import screen shows it can be re-imported).
    return undefined
  }
}

/** The networks available: imported ones of the workspace first (sorted by id), then the bundled sample. */
export async function listNetworks(
  workspaceDir: string | undefined,
  bundledDir: string | undefined = resolveRoutingDataDir(),
): Promise<NetworkEntry[]> {
  const out: NetworkEntry[] = []
  if (workspaceDir) {
    const dir = networksDir(workspaceDir)
    const names = await fs.readdir(dir).catch(() => [] as string[])
    for (const name of names.sort()) {
      if (!name.endsWith(NETWORK_EXTENSION)) continue
      const e = await entry(path.join(dir, name), false)
      if (e) out.push(e)
    }
  }
  if (bundledDir) {
    const e = await entry(path.join(bundledDir, SAMPLE_NETWORK.file), true)
    if (e && !out.some((o) => o.id === e.id)) out.push(e)
  }
  return out
}

export class NetworkNotFound extends Error {
  constructor(id: string) {
    super(`no road network "${id}"`)
    this.name = 'NetworkNotFound'
  }
}

/** Remove an imported network; the bundled sample cannot be removed. */
export async function removeNetwork(workspaceDir: string, id: string): Promise<void> {
  if (id === SAMPLE_NETWORK.id) throw new Error('the bundled sample network cannot be removed')
  if (!NETWORK_ID_RULE.test(id)) throw new NetworkNotFound(id)
  const file = path.join(networksDir(workspaceDir), id + NETWORK_EXTENSION)
  try {
    await fs.rm(file)
  } catch {
    throw new NetworkNotFound(id)
  }
}

/** The file of an imported network id. */
export function networkFile(workspaceDir: string, id: string): string {
  if (!NETWORK_ID_RULE.test(id))
    throw new Error(
      `network id "${id.slice(0, 64)}" must be lower-case letters, digits, - or _, starting with a letter`,
    )
  return path.join(networksDir(workspaceDir), id + NETWORK_EXTENSION)
}
