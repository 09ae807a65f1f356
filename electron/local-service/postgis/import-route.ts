import { HttpError } from '../http-util'
import { ImportError } from '../import/crs'
import { ImportCancelled } from '../import/import-runner'
import { WorkspaceError } from '../workspace/workspace'
import { DatabaseWorkspaceError } from './errors'
import { importIntoDatabase } from './import'
import { databaseFailure } from './join-run'
import type { PostgisWorkspace } from './workspace'

/**
 * `POST /local/datasets/import` on a service whose workspace is a database: the file becomes a table of
 * the first schema (`import.ts`), answered as the folder import answers (201 and the dataset's info; 400 a
 * refused file or name, 409 a name taken, the database's problems by their class).
 */
export async function databaseImportReply(
  ws: PostgisWorkspace,
  input: { path: string; fileName?: string; name?: string; skipInvalid?: boolean },
): Promise<{ status: number; body: unknown }> {
  const original = (input.fileName ?? input.path).split(/[\\/]/).pop() || 'upload'
  try {
    const made = await importIntoDatabase(ws, input.path, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      displayName: original,
      ...(input.skipInvalid ? { skipInvalid: true } : {}),
    })
    return {
      status: 201,
      body: {
        layername: made.name,
        geometrytype: made.geometryType,
        source: `${made.schema}.${made.table}`,
        fields: made.fields.map((f) => ({ name: f.name, type: f.type })),
        featureCount: made.featureCount,
        ...(made.extent ? { extent: made.extent } : {}),
        ...(made.skippedInvalid ? { skippedInvalid: made.skippedInvalid } : {}),
      },
    }
  } catch (error) {
    if (error instanceof WorkspaceError) {
      const status = error.kind === 'conflict' ? 409 : error.kind === 'not-found' ? 404 : 400
      const tail = error.kind === 'conflict' ? '; nothing was overwritten — choose another name' : ''
      throw new HttpError(status, `datasets.import: ${error.message}${tail}`, { field: 'name' })
    }
    if (error instanceof ImportError || error instanceof ImportCancelled)
      throw new HttpError(400, `datasets.import: ${error.message}; the workspace was left as it was`, {
        field: 'file',
        ...(error instanceof ImportError && error.code ? { code: error.code } : {}),
      })
    if (error instanceof DatabaseWorkspaceError) throw databaseFailure(error)
    throw error
  }
}
