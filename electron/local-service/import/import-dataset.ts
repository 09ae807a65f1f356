import { promises as fs } from 'node:fs'
import { Gunzip } from 'fflate'
import type { DatasetFeature } from '../workspace/features'
import {
  checkDatasetName,
  nameFromFile,
  type DatasetManifest,
  type StagedDataset,
  type Workspace,
} from '../workspace/workspace'
import { ImportError } from './crs'
import { detectFormat, readFeatures, type Format } from './readers'
import { stageCsvStreamed } from './csv-import'
import { stageJsonStreamed, type JsonFormat } from './json-import'
import { validateFeatures } from './validate'
import { keepGeometryNamedProperties } from './geometry-named'

/** Files larger than this are refused before reading; a gzip file may not expand beyond it either. */
export const MAX_IMPORT_BYTES = 1024 * 1024 * 1024

export interface ImportOptions {
  /** The dataset's name; by default made from the file name. */
  name?: string
  /** How the source is named in the manifest (default: the file path). */
  displayName?: string
  /** Leave out features that fail the checks (counted in `skippedInvalid`) instead of refusing the file. */
  skipInvalid?: boolean
}

/** The dataset name an import will use. */
export function importName(file: string, options: ImportOptions): string {
  return options.name ?? nameFromFile(file.replace(/\.gz$/i, ''))
}

function gunzipBounded(bytes: Uint8Array, file: string): Uint8Array {
  const chunks: Uint8Array[] = []
  let total = 0
  const gunzip = new Gunzip((chunk) => {
    total += chunk.length
    if (total > MAX_IMPORT_BYTES) {
      throw new ImportError(`${file} expands beyond ${MAX_IMPORT_BYTES} bytes (gzip bomb?); refused`)
    }
    chunks.push(chunk)
  })
  try {
    gunzip.push(bytes, true)
  } catch (error) {
    if (error instanceof ImportError) throw error
    throw new ImportError(`${file}: not a readable gzip file (${(error as Error).message})`)
  }
  return Buffer.concat(chunks, total)
}

async function checkImportFile(file: string): Promise<void> {
  const stat = await fs.stat(file).catch(() => {
    throw new ImportError(`cannot read ${file}: no such file`)
  })
  if (!stat.isFile()) throw new ImportError(`${file} is not a file`)
  if (stat.size > MAX_IMPORT_BYTES) throw new ImportError(`${file} is larger than ${MAX_IMPORT_BYTES} bytes`)
}

/** The format of a file imported as it streams rather than read whole (a CSV, GeoJSON or NDJSON, not gzipped). */
async function streamedFormat(file: string): Promise<'csv' | JsonFormat | undefined> {
  if (!/\.(csv|geojson|json|ndjson|geojsonl|geojsons|jsonl)$/i.test(file)) return undefined
  const handle = await fs.open(file, 'r')
  try {
    const head = new Uint8Array(16)
    const { bytesRead } = await handle.read(head, 0, 16, 0)
    const format = detectFormat(file, head.subarray(0, bytesRead))
    return format === 'csv' || format === 'geojson' || format === 'ndjson' ? format : undefined
  } finally {
    await handle.close()
  }
}

/**
 * Read, check and stage a file as dataset `name` in `dir` (by default a fresh staging folder), not yet
 * visible (`Workspace.commit` makes it so). A plain CSV, GeoJSON or NDJSON file streams (`csv-import.ts`,
 * `json-import.ts`): read twice, never held; every other format is read whole (`readImportFile`) and staged
 * from its feature list.
 */
export async function stageImport(
  workspace: Workspace,
  file: string,
  name: string,
  options: ImportOptions,
  dir?: string,
  onPhase: (phase: 'reading' | 'storing') => void = () => {},
): Promise<StagedDataset> {
  checkDatasetName(name)
  await checkImportFile(file)
  const source = (format: string) => `${options.displayName ?? file} (${format})`
  const streamed = await streamedFormat(file)
  if (streamed) {
    const how = { source: source(streamed), skipInvalid: options.skipInvalid }
    const onChecked = () => onPhase('storing')
    if (streamed === 'csv') return stageCsvStreamed(workspace, file, name, how, dir, onChecked)
    return stageJsonStreamed(workspace, file, streamed, name, how, dir, onChecked)
  }
  const { format, features, skippedInvalid } = await readImportFile(file, options)
  onPhase('storing')
  return workspace.stage(name, features, { source: source(format), skippedInvalid }, dir)
}

/**
 * Read a file into checked WGS84 features without touching any workspace: format detection, reading
 * (every reader bounded by the file's size), reprojection where the file declares a CRS, and the RFC 7946
 * checks of `validateFeatures`.
 */
export async function readImportFile(
  file: string,
  options: Pick<ImportOptions, 'skipInvalid'> = {},
): Promise<{ format: Format; features: DatasetFeature[]; skippedInvalid: number }> {
  await checkImportFile(file)
  let bytes: Uint8Array = new Uint8Array(await fs.readFile(file))
  let logical = file
  if (/\.gz$/i.test(file)) {
    bytes = gunzipBounded(bytes, file)
    logical = file.slice(0, -3)
  }
  const { format, candidates, reproject } = await readFeatures(logical, bytes)
  const checked = validateFeatures(candidates, reproject, options)
  keepGeometryNamedProperties(checked.features)
  return { format, ...checked }
}

/**
 * Import a file as a new dataset in this thread: read and check it, then store it atomically. Any failure
 * leaves the workspace as it was. Hosts run imports of files they did not make through `import-runner.ts`
 * (a worker with a time and memory budget); this is for trusted files (the sample workspace) and tests.
 */
export async function importFile(
  workspace: Workspace,
  file: string,
  options: ImportOptions = {},
): Promise<DatasetManifest> {
  const name = importName(file, options)
  checkDatasetName(name)
  await workspace.checkFree(name)
  return workspace.commit(await stageImport(workspace, file, name, options))
}
