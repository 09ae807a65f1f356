import { realpathSync } from 'node:fs'
import path from 'node:path'
import { isInside } from '../../base/path-inside'
import { HttpError } from '../http-util'
import { currentOwner } from './principal'

/**
 * The file an import by path names (`POST /local/datasets/import`, `/local/road-networks/import`,
 * `/local/road-networks/speed-profiles`), checked for the request's user. The single-token service takes
 * any path: it is the analyst's own machine and the analyst's own files. A team server's users name a file
 * on the server's disk, which the server would read for them: they may only name one inside the folder its
 * administrator gave (`serve --import-dir DIR`), after symbolic links are followed; without that folder,
 * none. A path outside answers 403 without the disk being asked whether it exists.
 */
export function serverFile(file: string, importDir: string | undefined): string {
  if (currentOwner() === undefined) return file
  const refuse = (why: string) =>
    new HttpError(
      403,
      `path: ${why}; import on your own machine instead (geo-analyst import FILE --workspace postgresql://… writes into the shared database)`,
      { field: 'path' },
    )
  if (!importDir)
    throw refuse(
      'this team server takes no path on its disk from its users (its administrator may allow a folder: serve --import-dir DIR)',
    )
  const root = path.resolve(importDir)
  const named = path.resolve(root, file)
  const outside = `only files in the server's import folder may be named`
  if (!isInside(named, root)) throw refuse(outside)
  let real: string
  try {
    real = realpathSync(named)
  } catch {
    const missing = `path: ${path.basename(named)} does not exist in the server's import folder`
    throw new HttpError(404, missing, { field: 'path' })
  }
  let realRoot = root
  try {
    realRoot = realpathSync(root)
  } catch {
    // The folder itself is gone: nothing inside it.
  }
  if (!isInside(real, realRoot)) throw refuse(outside)
  return real
}
