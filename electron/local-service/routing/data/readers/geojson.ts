import { createReadStream, promises as fs } from 'node:fs'
import { createInterface } from 'node:readline'
import { GraphBuilder, type Tags } from '../graph-builder'
import type { ReadProgress } from './read-progress'

type Position = number[]

/** RFC 8142 GeoJSON text sequences start each record with an ASCII record separator. */
const RECORD_SEPARATOR = new RegExp('^' + String.fromCharCode(0x1e))

interface FeatureLike {
  type?: unknown
  properties?: Record<string, unknown> | null
  geometry?: { type?: unknown; coordinates?: unknown } | null
}

/** OSM tags of a feature: Overpass puts them in `properties`, osmtogeojson under `properties.tags`. */
export function featureTags(properties: Record<string, unknown> | null | undefined): Tags {
  const out: Record<string, string> = {}
  if (!properties) return out
  const nested = properties.tags
  const source =
    nested && typeof nested === 'object'
      ? { ...properties, ...(nested as Record<string, unknown>) }
      : properties
  for (const [k, v] of Object.entries(source)) {
    if (typeof v === 'string') out[k] = v
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v)
  }
  return out
}

function lines(geometry: FeatureLike['geometry']): Position[][] {
  if (!geometry || !Array.isArray(geometry.coordinates)) return []
  const c = geometry.coordinates as unknown
  switch (geometry.type) {
    case 'LineString':
      return [c as Position[]]
    case 'MultiLineString':
      return c as Position[][]
    // A pedestrian square is walked along its outline (the outer rings).
    case 'Polygon':
      return (c as Position[][]).slice(0, 1)
    case 'MultiPolygon':
      return (c as Position[][][]).map((p) => p[0]!).filter(Boolean)
    default:
      return []
  }
}

/** Add one GeoJSON feature's lines as ways; node identity is the coordinate (1e-7 degrees). */
export function addFeature(builder: GraphBuilder, feature: FeatureLike): number {
  if (!feature || typeof feature !== 'object') return 0
  const tags = featureTags(feature.properties)
  if (!tags.highway) return 0
  const isArea = feature.geometry?.type === 'Polygon' || feature.geometry?.type === 'MultiPolygon'
  const wayTags: Tags = isArea ? { ...tags, area: 'yes' } : tags
  if (!GraphBuilder.routable(wayTags)) return 0
  let added = 0
  for (const line of lines(feature.geometry)) {
    const refs: number[] = []
    for (const p of line) {
      const lon = Number(p?.[0])
      const lat = Number(p?.[1])
      if (!Number.isFinite(lon) || !Number.isFinite(lat) || Math.abs(lon) > 180 || Math.abs(lat) > 90)
        continue
      refs.push(builder.nodeForCoord(lon, lat))
    }
    if (builder.addWay(refs, wayTags)) added++
  }
  return added
}

/** Whether the file is GeoJSON lines: its first non-empty line is a whole Feature. */
async function isGeoJsonLines(file: string): Promise<boolean> {
  const handle = await fs.open(file, 'r')
  try {
    const head = Buffer.alloc(1 << 20)
    const { bytesRead } = await handle.read(head, 0, head.length, 0)
    const text = head
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
    const first = text.split('\n').find((l) => l.trim() !== '')
    if (!first) return false
    try {
      const value = JSON.parse(first.replace(RECORD_SEPARATOR, '')) as { type?: unknown }
      return value.type === 'Feature'
    } catch {
      return false
    }
  } finally {
    await handle.close()
  }
}

/**
 * Read a GeoJSON FeatureCollection (as overpass-turbo exports it) or GeoJSON lines (one Feature per line,
 * as `osmium export -f geojsonseq` or Overpass pipelines write) into the builder.
 */
export async function readGeoJson(
  builder: GraphBuilder,
  file: string,
  progress: ReadProgress,
): Promise<void> {
  const size = (await fs.stat(file)).size
  if (!(await isGeoJsonLines(file))) {
    progress.check()
    const text = await fs.readFile(file, 'utf8')
    progress.bytes(size / 2, size)
    let parsed: { type?: unknown; features?: unknown }
    try {
      parsed = JSON.parse(text.replace(/^\uFEFF/, '')) as typeof parsed
    } catch (error) {
      throw new Error(`${file} is not valid GeoJSON: ${(error as Error).message}`)
    }
    if (parsed.type !== 'FeatureCollection' || !Array.isArray(parsed.features))
      throw new Error(`${file} is not a GeoJSON FeatureCollection`)
    const features = parsed.features as FeatureLike[]
    for (let i = 0; i < features.length; i++) {
      addFeature(builder, features[i]!)
      if ((i & 4095) === 0) {
        progress.check()
        progress.bytes(size / 2 + ((i + 1) / features.length) * (size / 2), size)
      }
    }
    return
  }
  let read = 0
  let lineNo = 0
  const stream = createReadStream(file)
  stream.on('data', (chunk) => {
    read += chunk.length
  })
  const rl = createInterface({ input: stream, crlfDelay: Infinity })
  for await (const raw of rl) {
    lineNo++
    const line = raw.replace(RECORD_SEPARATOR, '').trim()
    if (!line) continue
    let feature: FeatureLike
    try {
      feature = JSON.parse(line) as FeatureLike
    } catch {
      throw new Error(`${file} line ${lineNo}: not a GeoJSON feature`)
    }
    addFeature(builder, feature)
    if ((lineNo & 4095) === 0) {
      progress.check()
      progress.bytes(read, size)
    }
  }
  progress.bytes(size, size)
}
