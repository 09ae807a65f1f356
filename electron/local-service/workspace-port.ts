import { promises as fs } from 'node:fs'
import { GeoFailure } from '../base/geo-failure'
import type { LocalDatasetInfo, LocalWorkspacePort } from '../base/local-workspace-port'
import { ImportError } from './import/crs'
import { importInWorker, type ImportLimits } from './import/import-runner'
import { withStagedUpload } from '../base/upload-staging'
import { nameFromFile, Workspace, WorkspaceError, type DatasetManifest } from './workspace/workspace'

/** A manifest in the contract's terms. */
export function datasetInfo(manifest: DatasetManifest): LocalDatasetInfo {
  return {
    layername: manifest.name,
    geometrytype: manifest.geometryType,
    source: manifest.source,
    fields: manifest.fields.map((f) => ({ name: f.name, type: f.type })),
    featureCount: manifest.featureCount,
    ...(manifest.extent ? { extent: manifest.extent } : {}),
  }
}

function failureOf(error: unknown, operation: string): unknown {
  if (error instanceof WorkspaceError) {
    switch (error.kind) {
      case 'invalid-name':
        return new GeoFailure('validation', `${operation}: ${error.message}`, { field: 'name' })
      case 'conflict':
        return new GeoFailure(
          'conflict',
          `${operation}: ${error.message}; nothing was overwritten — choose another name`,
          { field: 'name' },
        )
      case 'not-found':
        return new GeoFailure('not-found', `${operation}: ${error.message}`, { field: 'name' })
      case 'corrupt':
        return new GeoFailure('unclassified', `${operation}: ${error.message}`)
    }
  }
  if (error instanceof ImportError) {
    return new GeoFailure('validation', `${operation}: ${error.message}; the workspace was left as it was`, {
      field: 'file',
      // The caller can offer to import again with skipInvalid.
      ...(error.code ? { code: error.code } : {}),
    })
  }
  return error
}

/**
 * The core's `LocalWorkspacePort` over the local service's workspace folder: features of a dataset as
 * GeoJSON text (see docs/decisions/004-bulk-geometry-transfer.md) and imports through the same code as
 * `geo-analyst import` (format detection, reprojection, RFC 7946 checks, atomic appearance), run in a
 * worker of the pool within `importLimits`, so the serving thread keeps answering.
 */
export function createWorkspacePort(
  workspaceDir: string,
  options: { importLimits?: Partial<ImportLimits> } = {},
): LocalWorkspacePort {
  const workspace = new Workspace(workspaceDir)
  const port: LocalWorkspacePort = {
    async features(name) {
      try {
        const found = await workspace.find(name)
        if (!found) throw new WorkspaceError('not-found', `No dataset named "${name}" in the workspace`)
        const { manifest, features } = await workspace.read(found.name)
        const geojson = JSON.stringify({
          type: 'FeatureCollection',
          features: features.map((f, i) => ({
            type: 'Feature',
            id: i,
            properties: f.properties,
            geometry: f.geometry,
          })),
        })
        return { name: manifest.name, geojson, featureCount: features.length }
      } catch (error) {
        throw failureOf(error, 'datasets.features')
      }
    },
    async importPath({ path: file, fileName, name, skipInvalid }) {
      const original = (fileName ?? file).split(/[\\/]/).pop() || 'upload'
      try {
        const stat = await fs.stat(file).catch(() => null)
        if (!stat?.isFile()) throw new ImportError(`${original} is not a readable file`)
        const manifest = await importInWorker(workspace, file, {
          name: name ?? nameFromFile(original.replace(/\.gz$/i, '')),
          displayName: original,
          ...(skipInvalid ? { skipInvalid } : {}),
          ...(options.importLimits ? { limits: options.importLimits } : {}),
        })
        return {
          ...datasetInfo(manifest),
          ...(manifest.skippedInvalid ? { skippedInvalid: manifest.skippedInvalid } : {}),
        }
      } catch (error) {
        throw failureOf(error, 'datasets.import')
      }
    },
    importFile({ fileName, bytes, name, skipInvalid }) {
      // The readers take a file: the bytes are staged as one, removed after the import.
      return withStagedUpload('import', fileName, bytes, (file, original) =>
        port.importPath({
          path: file,
          fileName: original,
          ...(name ? { name } : {}),
          ...(skipInvalid ? { skipInvalid } : {}),
        }),
      )
    },
  }
  return port
}
