import { randomBytes } from 'node:crypto'
import { closeSync, fstatSync, openSync, promises as fs, readFileSync, readSync, statSync } from 'node:fs'
import path from 'node:path'
import { threadId } from 'node:worker_threads'
import Flatbush from 'flatbush'
import { NEW_DATASET_NAME_MESSAGE, NEW_DATASET_NAME_RULE } from '../../contract/gis/join-params'
import { writeFileAtomic } from '../../base/atomic-write'
import { readFlatGeobufTable, readFlatGeobufTableFrom, writeFlatGeobuf, type TableRead } from './fgb'
import type { PointColumns } from './point-columns'
import { decodePointColumns, encodePointColumns, type DataFileStamp } from './point-columns-file'
import { withWorkspaceLock } from './workspace-lock'
import type { DatasetTally } from './fgb-stream'
import {
  datasetGeometryType,
  geometryBBox,
  GEOMETRY_COLUMN,
  inferFields,
  type BBox,
  type DatasetFeature,
  type FieldInfo,
} from './features'
import { parseJsonText } from '../../contract/common/json-text'
import { currentOwner } from '../team/principal'

/** What the workspace knows about a dataset without reading its features (manifest.json). */
export interface DatasetManifest {
  name: string
  geometryType: string
  geometryColumn: typeof GEOMETRY_COLUMN
  source: string
  fields: FieldInfo[]
  featureCount: number
  /** [minLon, minLat, maxLon, maxLat], null when no feature has a geometry. */
  extent: BBox | null
  created: string
  format: 'flatgeobuf'
  crs: 'EPSG:4326'
  /** Features of the source file left out at import because they were invalid (only when some were). */
  skippedInvalid?: number
  /** The team server's user who saved it (issue 32); absent when saved by the single-token service. */
  owner?: string
}

export class WorkspaceError extends Error {
  constructor(
    readonly kind: 'invalid-name' | 'conflict' | 'not-found' | 'corrupt',
    message: string,
  ) {
    super(message)
    this.name = 'WorkspaceError'
  }
}

/** A manifest that is not there (or whose folder is not a dataset's) names no dataset; other errors stay what they are. */
function manifestReadError(name: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR'
    ? new WorkspaceError('not-found', `No dataset named "${name}" in the workspace`)
    : error
}

const DATASETS = 'datasets'
export const STAGING = '.staging'
const MANIFEST = 'manifest.json'
const DATA = 'data.fgb'
const INDEX = 'index.flatbush'
/** A point dataset's columns as the reader decodes them (`point-columns-file.ts`): a cache of `data.fgb`. */
const COLUMNS = 'columns.bin'

/** Device names Windows reserves in every folder, with or without an extension (checked on every OS). */
const WINDOWS_RESERVED = /^(CON|PRN|AUX|NUL|COM[1-9]|LPT[1-9])(\..*)?$/i

/** The rule for a path segment of a dataset folder (the join's rule for new dataset names). */
function checkFolderName(name: string): void {
  if (!NEW_DATASET_NAME_RULE.test(name)) {
    throw new WorkspaceError(
      'invalid-name',
      `Dataset name "${name.slice(0, 80)}" ${NEW_DATASET_NAME_MESSAGE}`,
    )
  }
}

/**
 * A new dataset's name is safe as a folder name everywhere, so a workspace moves between machines: the
 * join's rule for new dataset names, and none of the device names Windows reserves.
 */
export function checkDatasetName(name: string): void {
  if (WINDOWS_RESERVED.test(name)) {
    throw new WorkspaceError(
      'invalid-name',
      `Dataset name "${name.slice(0, 80)}" is reserved on Windows (CON, PRN, AUX, NUL, COM1–COM9, LPT1–LPT9, in any letter case, with or without an extension); choose another name so the workspace can move to any machine`,
    )
  }
  checkFolderName(name)
}

/** A valid dataset name made from a file name: unsafe characters become underscores. */
export function nameFromFile(file: string): string {
  let base = path
    .basename(file)
    .replace(/\.(geojson|json|ndjson|geojsonl|jsonl|csv|kml|zip|fgb|gpkg)(\.gz)?$/i, '')
  base = base.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^[^A-Za-z]+/, '')
  return (base || 'dataset').slice(0, 63)
}

/** The spatial index of a dataset: a packed Hilbert R-tree of feature boxes (features without geometry sit far outside the world). */
export function buildIndex(features: readonly DatasetFeature[]): Flatbush {
  const index = new Flatbush(Math.max(1, features.length))
  for (const f of features) {
    const b = geometryBBox(f.geometry)
    if (b) index.add(b[0], b[1], b[2], b[3])
    else index.add(1e6, 1e6, 1e6, 1e6)
  }
  if (features.length === 0) index.add(1e6, 1e6, 1e6, 1e6)
  index.finish()
  return index
}

/** A dataset as read: its features (made on first use when it holds points column-wise) and index. */
export interface ReadDataset {
  manifest: DatasetManifest
  features: DatasetFeature[]
  index: Flatbush
  /** The features column-wise, when every one is a 2D point and they were read so (see `readSync`). */
  points?: PointColumns
  /** Which file the features came from: `columns.bin` (a point dataset's, when it checks) or `data.fgb`. */
  readFrom: 'columns' | 'data'
}

/**
 * A dataset's features and index from its data file, read and decoded by `readData` (which throws why it
 * could not be), and its index file's bytes; a dataset of points read as `PointColumns` keeps them so, its
 * feature list made when first read.
 */
function decodeDataset(
  manifest: DatasetManifest,
  readData: () => TableRead,
  indexBytes: Buffer | undefined,
  columns?: { bytes: Uint8Array; data: DataFileStamp },
): ReadDataset {
  let features: DatasetFeature[] | undefined
  let points = columns && decodePointColumns(columns.bytes, { ...manifest, data: columns.data })
  const readFrom = points ? 'columns' : 'data'
  try {
    // The data file, when the columns file did not answer.
    const read = points ? undefined : readData()
    if (read?.points) points = read.points
    else if (read) {
      const bad = read.features.findIndex((f) => f.problem)
      if (bad >= 0) throw new Error(`feature ${bad}: ${read.features[bad]!.problem}`)
      features = read.features
    }
  } catch (error) {
    throw new WorkspaceError(
      'corrupt',
      `The data of dataset "${manifest.name}" is damaged: ${(error as Error).message}`,
    )
  }
  const all = (): DatasetFeature[] => features ?? points!.features()
  const count = points ? points.count : features!.length
  let index: Flatbush
  try {
    if (!indexBytes) throw new Error('no index file')
    // The file's own buffer when the bytes fill it (a large read), else a copy of them.
    const whole = indexBytes.byteOffset === 0 && indexBytes.byteLength === indexBytes.buffer.byteLength
    index = Flatbush.from(
      whole
        ? (indexBytes.buffer as ArrayBuffer)
        : indexBytes.buffer.slice(indexBytes.byteOffset, indexBytes.byteOffset + indexBytes.byteLength),
    )
    if (index.numItems !== Math.max(1, count)) index = buildIndex(all())
  } catch {
    index = buildIndex(all())
  }
  if (!points) return { manifest, features: features!, index, readFrom }
  return {
    manifest,
    index,
    points,
    readFrom,
    get features() {
      return all()
    },
  }
}

/**
 * A data file read and decoded synchronously, piecewise (`readFlatGeobufTableFrom`): a file of points is
 * decoded a chunk at a time without its bytes in memory at once.
 */
function readDataSync(file: string): TableRead {
  const fd = openSync(file, 'r')
  try {
    const size = fstatSync(fd).size
    return readFlatGeobufTableFrom({
      size,
      read: (into, at, length, position) => readSync(fd, into, at, length, position),
    })
  } finally {
    closeSync(fd)
  }
}

/**
 * `columns.bin` for a data file of 2D points: made from the file's bytes read back, so it holds what reading
 * `data.fgb` gives; undefined for any other file (or fields that are not numbers and texts).
 */
function pointColumnsOf(data: Uint8Array, stamp: DataFileStamp): Uint8Array | undefined {
  try {
    const read = readFlatGeobufTable(data)
    return read.points ? encodePointColumns(read.points, stamp) : undefined
  } catch {
    // Only a cache: the dataset is written without it (and reading `data.fgb` will say what is wrong).
    return undefined
  }
}

/** `pointColumnsOf` for a data file read back piecewise (`readDataSync`), never whole. */
function pointColumnsOfFile(file: string, stamp: DataFileStamp): Uint8Array | undefined {
  try {
    const read = readDataSync(file)
    return read.points ? encodePointColumns(read.points, stamp) : undefined
  } catch {
    return undefined
  }
}

/** A dataset written but not yet visible: its staging folder and manifest. */
export interface StagedDataset {
  dir: string
  manifest: DatasetManifest
}

/**
 * Staging folders are `<name>.<pid>.<thread>.<random>`: the process id lets a start-up sweep tell a folder
 * left by a process that died (kill -9, power loss) from one a live process is still writing; the thread id
 * which of a live process's folders a worker thread that stopped mid-write left (older builds: no thread,
 * or neither).
 */
export const STAGING_ENTRY = /^[A-Za-z][A-Za-z0-9_-]{0,62}\.(?:(\d+)\.(?:(\d+)\.)?)?[0-9a-f]{12}$/

function stagingName(name: string): string {
  return `${name}.${process.pid}.${threadId}.${randomBytes(6).toString('hex')}`
}

/**
 * The dataset folder: `datasets/<name>/` holding `manifest.json`, `data.fgb` (FlatGeobuf, WGS84),
 * `index.flatbush` (the packed R-tree over the features, same order) and, for a dataset of points,
 * `columns.bin` (the points as the reader decodes them, read back without decoding: a cache of `data.fgb`,
 * which stays the dataset). A dataset appears whole or not at all: it is written in `.staging/` and renamed
 * into place, which fails if the name is taken.
 */
export class Workspace {
  constructor(readonly dir: string) {}

  private datasetDir(name: string): string {
    // Existing datasets are read under the folder rule only (one made before reserved names were refused stays readable).
    checkFolderName(name)
    return path.join(this.dir, DATASETS, name)
  }

  async list(): Promise<DatasetManifest[]> {
    let names: string[]
    try {
      names = await fs.readdir(path.join(this.dir, DATASETS))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw error
    }
    const out: DatasetManifest[] = []
    for (const name of names.sort()) {
      if (!NEW_DATASET_NAME_RULE.test(name)) continue
      try {
        out.push(await this.manifest(name))
      } catch (error) {
        // A folder without a manifest, or with one that is not JSON, is not a dataset (e.g. left by a
        // crash): skip it. Anything else (too many open files, an I/O error) fails the list rather than
        // answer one with datasets silently missing.
        if (
          !(error instanceof SyntaxError) &&
          !(error instanceof WorkspaceError && error.kind === 'not-found')
        ) {
          throw error
        }
      }
    }
    return out
  }

  /** The dataset's real name when one exists under this name, letter case aside. */
  async find(name: string): Promise<DatasetManifest | undefined> {
    const all = await this.list()
    return all.find((m) => m.name === name) ?? all.find((m) => m.name.toLowerCase() === name.toLowerCase())
  }

  /**
   * The manifest of the dataset a request names: the exact name's, read directly (one small file), else
   * `find`'s, letter case aside (which reads every manifest).
   */
  async manifestFor(name: string): Promise<DatasetManifest | undefined> {
    try {
      const manifest = this.manifestSync(name)
      if (manifest.name === name) return manifest
    } catch {
      // Not under this exact name (or not a valid name): look through the workspace.
    }
    return this.find(name)
  }

  async manifest(name: string): Promise<DatasetManifest> {
    const file = path.join(this.datasetDir(name), MANIFEST)
    let text: string
    try {
      text = await fs.readFile(file, 'utf8')
    } catch (error) {
      throw manifestReadError(name, error)
    }
    return parseJsonText(text) as DatasetManifest
  }

  /**
   * `manifest`, read synchronously: one small local file, for a caller that waits for it anyway (a pool
   * worker's job, a request deciding its lane). An asynchronous read costs four thread-pool round trips,
   * about 0.45 ms against 0.015 ms here.
   */
  manifestSync(name: string): DatasetManifest {
    const file = path.join(this.datasetDir(name), MANIFEST)
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      throw manifestReadError(name, error)
    }
    return parseJsonText(text) as DatasetManifest
  }

  async read(name: string): Promise<ReadDataset> {
    const manifest = await this.manifest(name)
    const dir = this.datasetDir(manifest.name)
    let data: Uint8Array | Error
    try {
      data = new Uint8Array(await fs.readFile(path.join(dir, DATA)))
    } catch (error) {
      data = error as Error
    }
    const index = await fs.readFile(path.join(dir, INDEX)).catch(() => undefined)
    return decodeDataset(
      manifest,
      () => {
        if (data instanceof Error) throw data
        return readFlatGeobufTable(data, false)
      },
      index,
    )
  }

  /**
   * `read`, synchronously: for a pool worker, whose job waits for the files anyway (and which a promise
   * read would make wait for the thread pool, chunk by chunk). A dataset of 2D points comes as `points`
   * (column-wise), its `features` made only when read.
   */
  readSync(name: string): ReadDataset {
    const manifest = this.manifestSync(name)
    const dir = this.datasetDir(manifest.name)
    const optional = <T>(read: () => T): T | undefined => {
      try {
        return read()
      } catch {
        return undefined
      }
    }
    const data = optional(() => statSync(path.join(dir, DATA)))
    const columns = data && optional(() => readFileSync(path.join(dir, COLUMNS)))
    return decodeDataset(
      manifest,
      () => readDataSync(path.join(dir, DATA)),
      optional(() => readFileSync(path.join(dir, INDEX))),
      columns && { bytes: columns, data: { size: data.size, mtimeMs: data.mtimeMs } },
    )
  }

  /** A fresh staging folder path for a dataset being written (named so a start-up sweep knows it). */
  stagingDir(name: string): string {
    return path.join(this.dir, STAGING, stagingName(name))
  }

  /**
   * Write a new dataset's files into a staging folder (`dir`, by default a fresh one) without making it
   * visible; `commit` moves it into place. Runs in import workers: a worker killed meanwhile leaves only
   * the staging folder, which its caller (or the next start-up's sweep) removes.
   */
  async stage(
    name: string,
    features: readonly DatasetFeature[],
    options: { source: string; fields?: FieldInfo[]; skippedInvalid?: number; owner?: string },
    dir = this.stagingDir(name),
  ): Promise<StagedDataset> {
    checkDatasetName(name)
    const fields = options.fields ?? inferFields(features)
    let extent: BBox | null = null
    for (const f of features) {
      const b = geometryBBox(f.geometry)
      if (!b) continue
      extent = extent
        ? [
            Math.min(extent[0], b[0]),
            Math.min(extent[1], b[1]),
            Math.max(extent[2], b[2]),
            Math.max(extent[3], b[3]),
          ]
        : b
    }
    const manifest: DatasetManifest = {
      name,
      geometryType: datasetGeometryType(features),
      geometryColumn: GEOMETRY_COLUMN,
      source: options.source,
      fields,
      featureCount: features.length,
      extent,
      created: new Date().toISOString(),
      format: 'flatgeobuf',
      crs: 'EPSG:4326',
      ...(options.skippedInvalid ? { skippedInvalid: options.skippedInvalid } : {}),
      ...(options.owner ? { owner: options.owner } : {}),
    }
    await fs.mkdir(dir, { recursive: true })
    try {
      const data = writeFlatGeobuf(features, fields)
      await writeFileAtomic(path.join(dir, DATA), data)
      await writeFileAtomic(path.join(dir, INDEX), new Uint8Array(buildIndex(features).data))
      if (manifest.geometryType === 'POINT') {
        const { size, mtimeMs } = await fs.stat(path.join(dir, DATA))
        const columns = pointColumnsOf(data, { size, mtimeMs })
        if (columns) await writeFileAtomic(path.join(dir, COLUMNS), columns)
      }
      await writeFileAtomic(path.join(dir, MANIFEST), JSON.stringify(manifest, null, 2) + '\n')
    } catch (error) {
      await fs.rm(dir, { recursive: true, force: true })
      throw error
    }
    return { dir, manifest }
  }

  /**
   * `stage` for a dataset whose features are streamed rather than held: `tally` is what a first pass over
   * them learned (count, fields, geometry type, extent, boxes) and `writeData` writes `data.fgb` at the
   * path it is given (a `FlatGeobufFileWriter` over a second pass). The files are those `stage` writes for
   * the same features; `columns.bin` is made by reading the written file back a chunk at a time.
   */
  async stageStreamed(
    name: string,
    tally: DatasetTally,
    writeData: (file: string, fields: FieldInfo[]) => Promise<void>,
    options: { source: string; skippedInvalid?: number },
    dir = this.stagingDir(name),
  ): Promise<StagedDataset> {
    checkDatasetName(name)
    const fields = tally.fields()
    const manifest: DatasetManifest = {
      name,
      geometryType: tally.geometryType(),
      geometryColumn: GEOMETRY_COLUMN,
      source: options.source,
      fields,
      featureCount: tally.count,
      extent: tally.extent,
      created: new Date().toISOString(),
      format: 'flatgeobuf',
      crs: 'EPSG:4326',
      ...(options.skippedInvalid ? { skippedInvalid: options.skippedInvalid } : {}),
    }
    await fs.mkdir(dir, { recursive: true })
    try {
      const dataFile = path.join(dir, DATA)
      await writeData(dataFile, fields)
      await writeFileAtomic(path.join(dir, INDEX), new Uint8Array(tally.index().data))
      if (manifest.geometryType === 'POINT') {
        const { size, mtimeMs } = await fs.stat(dataFile)
        const columns = pointColumnsOfFile(dataFile, { size, mtimeMs })
        if (columns) await writeFileAtomic(path.join(dir, COLUMNS), columns)
      }
      await writeFileAtomic(path.join(dir, MANIFEST), JSON.stringify(manifest, null, 2) + '\n')
    } catch (error) {
      await fs.rm(dir, { recursive: true, force: true })
      throw error
    }
    return { dir, manifest }
  }

  /**
   * Make a staged dataset visible by renaming its folder into place, under the workspace lock: a name
   * already taken, letter case aside, is a conflict and changes nothing. The staging folder is gone after.
   * A dataset committed for a team server's user (a request's principal) records them as its owner.
   */
  async commit(staged: StagedDataset): Promise<DatasetManifest> {
    const { name } = staged.manifest
    const owner = staged.manifest.owner ?? currentOwner()
    try {
      if (owner && staged.manifest.owner !== owner) {
        staged = { ...staged, manifest: { ...staged.manifest, owner } }
        await writeFileAtomic(
          path.join(staged.dir, MANIFEST),
          JSON.stringify(staged.manifest, null, 2) + '\n',
        )
      }
      const target = this.datasetDir(name)
      await withWorkspaceLock(this.dir, async () => {
        const datasets = path.join(this.dir, DATASETS)
        const existing = await fs.readdir(datasets).catch(() => [] as string[])
        const taken = existing.find((e) => e.toLowerCase() === name.toLowerCase())
        if (taken) {
          throw new WorkspaceError(
            'conflict',
            `A dataset named "${taken}" already exists${taken === name ? '' : ` (names are unique letter case aside)`}`,
          )
        }
        await fs.mkdir(datasets, { recursive: true })
        await fs.rename(staged.dir, target)
      })
    } finally {
      await fs.rm(staged.dir, { recursive: true, force: true })
    }
    return staged.manifest
  }

  /** Store a new dataset; a name already taken (letter case aside) is a conflict and changes nothing. */
  async create(
    name: string,
    features: readonly DatasetFeature[],
    options: { source: string; fields?: FieldInfo[]; skippedInvalid?: number; owner?: string },
  ): Promise<DatasetManifest> {
    checkDatasetName(name)
    await this.checkFree(name)
    return this.commit(await this.stage(name, features, options))
  }

  /** A conflict when the name is taken, letter case aside (checked again atomically by `commit`). */
  async checkFree(name: string): Promise<void> {
    const found = await this.find(name)
    if (found) throw new WorkspaceError('conflict', `A dataset named "${found.name}" already exists`)
  }

  async isEmpty(): Promise<boolean> {
    try {
      const entries = await fs.readdir(this.dir)
      return entries.filter((e) => !e.startsWith('.')).length === 0
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true
      throw error
    }
  }
}
