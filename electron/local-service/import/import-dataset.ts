import { promises as fs } from 'node:fs'
import { gunzipSync } from 'fflate'
import { coordinateProblem } from '../workspace/features'
import { checkDatasetName, nameFromFile, type DatasetManifest, type Workspace } from '../workspace/workspace'
import { ImportError } from './crs'
import { readFeatures } from './readers'

/** Files larger than this are refused before reading. */
export const MAX_IMPORT_BYTES = 1024 * 1024 * 1024

/**
 * Import a file as a new dataset: read it (reprojecting to WGS84 where it declares a CRS), check every
 * coordinate, then store it atomically. Any failure leaves the workspace as it was.
 */
export async function importFile(
  workspace: Workspace,
  file: string,
  options: { name?: string; displayName?: string } = {},
): Promise<DatasetManifest> {
  const name = options.name ?? nameFromFile(file.replace(/\.gz$/i, ''))
  checkDatasetName(name)
  const stat = await fs.stat(file).catch(() => {
    throw new ImportError(`cannot read ${file}: no such file`)
  })
  if (!stat.isFile()) throw new ImportError(`${file} is not a file`)
  if (stat.size > MAX_IMPORT_BYTES) throw new ImportError(`${file} is larger than ${MAX_IMPORT_BYTES} bytes`)
  let bytes = new Uint8Array(await fs.readFile(file))
  let logical = file
  if (/\.gz$/i.test(file)) {
    try {
      bytes = gunzipSync(bytes)
    } catch (error) {
      throw new ImportError(`${file}: not a readable gzip file (${(error as Error).message})`)
    }
    logical = file.slice(0, -3)
  }
  const { format, features } = await readFeatures(logical, bytes)
  features.forEach((f, i) => {
    const problem = coordinateProblem(f.geometry)
    if (problem) throw new ImportError(`feature ${i}: ${problem}`)
  })
  return workspace.create(name, features, { source: `${options.displayName ?? file} (${format})` })
}
