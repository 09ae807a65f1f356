import type { Feature } from 'geojson'
import type Flatbush from 'flatbush'
import type { JoinParams } from '../../../contract/gis/join-params'
import type { DatasetFeature } from '../../workspace/features'
import { Workspace, WorkspaceError } from '../../workspace/workspace'
import { PointColumns } from '../../workspace/point-columns'
import { loadGeos, type Geos } from '../../engine/geos'
import { ByteLruCache } from '../../pool/byte-lru-cache'
import { JsonChunkWriter } from '../../engine/json-chunks'
import {
  JoinInputError,
  releaseTable,
  resultFeatures,
  runJoin,
  selection,
  tableFromFeatures,
  writeResultRows,
  type FeatureTable,
} from './join'

/**
 * Where a join's answer goes, in order: the status with the first part of the JSON body, then further parts;
 * `last` marks the final part. Small answers (errors, statuses) come as a single part.
 */
export type JoinEmit = (part: { status: number; bytes: Uint8Array; last: boolean }) => void

const utf8 = new TextEncoder()

export interface JoinJob {
  workspaceDir: string
  params: JoinParams
  /** The user geometry (a validated FeatureCollection) when userGeom=true. */
  body?: { features: Feature[] }
  rowCap: number
  repairUserGeometry?: boolean
  /** The team server's user a saved dataset is recorded as owned by (the worker has no request of its own). */
  owner?: string
}

/** Bytes of datasets a worker keeps between joins (their features, index and GEOS geometries), by default. */
export const DATASET_CACHE_BYTES = 512 * 1024 * 1024

let geosLoaded: Geos | undefined

/**
 * Datasets read once per thread and kept while their manifest is unchanged, least recently used first out
 * past the byte budget; an evicted table's GEOS geometries are freed with it.
 */
const cache = new ByteLruCache<string, { created: string; table: FeatureTable }>(
  DATASET_CACHE_BYTES,
  ({ table }) => {
    if (geosLoaded) releaseTable(geosLoaded, table)
  },
)

/**
 * What a table costs in memory, measured on V8 (Node 20, x64) as the workspace reads it: per feature its
 * objects (feature, geometry, properties: ~144 B), each position an array of two doubles (~72 B), each
 * array of positions or rings ~80 B, each property value (a number ~16 B, text ~24 B + 2 B a character,
 * anything else ~256 B); the GEOS copy a non-point feature gets once probed or prepared (~200 B + 24 B a
 * position; points are tested by their coordinates, never copied); the flat copy of its vertices the join's
 * exact tests read (`FlatGeometries`, of features other than points: 16 B a position, 4 B a ring or
 * part, 5 B a feature); and the spatial index (its bytes).
 * Read back and measured: 226 B a point with an id (estimate 232), 1,042 B a 10-vertex polygon (1,040
 * without the flat copy), 14,942 B a 200-vertex one (14,792). (It was a flat ×1.5 over 64 B a position and
 * key, 576 B a point with two fields: a million points counted 576 MB against the 512 MiB budget and were
 * read again for every join, though V8 held 250 MB of them.)
 */
export function estimateTableBytes(
  features: readonly DatasetFeature[] | PointColumns,
  index?: Flatbush,
): number {
  // Points held column-wise are counted as the same points as features (they may be made so later).
  if (features instanceof PointColumns)
    return features.estimateBytes() + (index ? index.data.byteLength : features.count * 40)
  let bytes = 0
  let positions = 0
  let arrays = 0
  const walk = (c: unknown): void => {
    if (!Array.isArray(c)) return
    if (typeof c[0] === 'number') {
      positions++
      return
    }
    arrays++
    for (const x of c) walk(x)
  }
  for (const f of features) {
    bytes += 144
    const properties = f.properties
    for (const key in properties) {
      const v = properties[key]
      bytes += typeof v === 'number' ? 16 : typeof v === 'string' ? 24 + 2 * v.length : 256
    }
    const g = f.geometry
    if (!g) continue
    if (g.type === 'Point') {
      bytes += 72
      continue
    }
    const before = positions
    const arraysBefore = arrays
    if (g.type === 'GeometryCollection')
      for (const part of g.geometries) walk((part as { coordinates?: unknown }).coordinates)
    else walk(g.coordinates)
    // GEOS's copy (200 B + 24 B a position), and the flat one (5 B + 16 B a position + 4 B a ring or part).
    bytes += 205 + 40 * (positions - before) + 4 * (arrays - arraysBefore)
  }
  return bytes + positions * 72 + arrays * 80 + (index ? index.data.byteLength : features.length * 40)
}

/** Bytes the dataset cache holds now (reported with the worker's memory). */
export function datasetCacheBytes(): number {
  return cache.bytes
}

/** Tables the dataset cache holds now. */
export function datasetCacheCount(): number {
  return cache.size
}

async function table(workspace: Workspace, name: string, param: string): Promise<FeatureTable> {
  const manifest = await workspace.manifestFor(name)
  if (!manifest) throw new JoinInputError(404, `${param}: no dataset named "${name}" in the workspace`, param)
  const key = `${workspace.dir}\u0000${manifest.name}`
  const hit = cache.get(key)
  if (hit && hit.created === manifest.created) return hit.table
  const read = workspace.readSync(manifest.name)
  const { index, points } = read
  const fields = manifest.fields.map((f) => f.name)
  // A point dataset is read column-wise: its feature list is made only if a join asks for it.
  const t: FeatureTable = points
    ? {
        name: manifest.name,
        fields,
        index,
        points,
        get features() {
          return read.features
        },
      }
    : { name: manifest.name, features: read.features, fields, index }
  cache.set(key, { created: manifest.created, table: t }, estimateTableBytes(points ?? read.features, index))
  return t
}

export function forgetCachedDatasets(): void {
  cache.clear()
}

function errorReply(status: number, message: string, extra: Record<string, unknown> = {}) {
  return {
    status,
    bytes: utf8.encode(JSON.stringify({ code: String(status), success: false, message, ...extra })),
    last: true,
  }
}

/**
 * Run one join against the workspace, save it when asked, and emit the answer (spec §4.5 statuses): once
 * the join is done the status is known, and the body follows in parts as its rows are serialized.
 */
export async function executeJoin(job: JoinJob, emit: JoinEmit): Promise<void> {
  let started = false
  const send: JoinEmit = (part) => {
    started = true
    emit(part)
  }
  try {
    send(await runJob(job, send))
  } catch (error) {
    // Part of the answer is on its way: the HTTP layer can only cut the response.
    if (started) throw error
    if (error instanceof JoinInputError) {
      emit(
        errorReply(error.status, error.message, {
          ...(error.field ? { field: error.field } : {}),
          ...(error.detail ?? {}),
        }),
      )
      return
    }
    if (error instanceof WorkspaceError) {
      const status = error.kind === 'conflict' ? 409 : error.kind === 'not-found' ? 404 : 400
      emit(errorReply(status, error.message))
      return
    }
    throw error
  }
}

/** The join itself; returns the last part of the answer, having emitted any before it. */
async function runJob(job: JoinJob, emit: JoinEmit): Promise<Parameters<JoinEmit>[0]> {
  const geos = (geosLoaded = await loadGeos())
  const workspace = new Workspace(job.workspaceDir)
  const p = job.params
  if (p.saveAsNewDataset && p.newDatasetNme && (await workspace.find(p.newDatasetNme))) {
    return errorReply(409, `newDatasetNme: a dataset named "${p.newDatasetNme}" already exists`, {
      field: 'newDatasetNme',
    })
  }
  const source = await table(workspace, p.datasetSource, 'datasetSource')
  let ref: FeatureTable | undefined
  if (p.userGeom && job.body) {
    const features: DatasetFeature[] = job.body.features.map((f) => ({
      geometry: f.geometry,
      properties: (f.properties ?? {}) as Record<string, unknown>,
    }))
    ref = tableFromFeatures('user geometry', features)
  } else if (p.datasetRef) {
    ref = await table(workspace, p.datasetRef, 'datasetRef')
  }
  const sel = selection(p, source, p.userGeom ? undefined : ref)
  const output = runJoin(geos, {
    params: p,
    source,
    ref,
    refIsUserGeometry: p.userGeom === true,
    rowCap: job.rowCap,
    repairUserGeometry: job.repairUserGeometry,
  })
  if (output.pairs.length === 0) return errorReply(404, 'no data found: no feature satisfies the query')
  const extra: Record<string, unknown> = {}
  if (p.saveAsNewDataset && p.newDatasetNme) {
    const saved = await workspace.create(p.newDatasetNme, resultFeatures(output.pairs, source, ref), {
      source: `join: ${p.queryType} ${p.operator} of ${source.name}${ref ? ` with ${ref.name}` : ''}`,
      ...(job.owner ? { owner: job.owner } : {}),
    })
    extra.savedDataset = saved.name
  }
  const columns = sel.columns.map((c, i) => ({ prop: `prop${i + 1}`, table: c.table, name: c.name }))
  const count = output.pairs.length
  const status = output.truncated ? 206 : 200
  const head = {
    code: String(status),
    success: true,
    message: output.truncated
      ? `partial: the result was cut at ${job.rowCap} rows`
      : `${count} row${count === 1 ? '' : 's'}`,
    rowCount: count,
    truncated: output.truncated,
    columns,
    ...extra,
  }
  // The other members are serialized as usual; the rows follow as UTF-8 JSON, chunk by chunk. Each chunk
  // goes out when the next one is full, so the last part is known to be last.
  let pending: Uint8Array | undefined
  const out = new JsonChunkWriter((bytes) => {
    if (pending) emit({ status, bytes: pending, last: false })
    pending = bytes
  })
  out.raw(JSON.stringify(head).slice(0, -1) + ',"result":[')
  writeResultRows(geos, output.pairs, sel, source, ref, out)
  out.raw(']}')
  out.flush()
  return { status, bytes: pending!, last: true }
}
