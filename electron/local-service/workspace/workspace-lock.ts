import { promises as fs } from 'node:fs'
import path from 'node:path'
import { withFileLock } from '../../base/file-lock'

/**
 * A short exclusive lock on a workspace folder, held while a dataset name is checked and the dataset
 * renamed into place, so two imports (or saving joins) whose names differ only in letter case cannot
 * both win — across threads (join workers) and processes (the app and `geo-analyst import`).
 */
export const LOCK_NAME = '.datasets.lock'

/** Run `work` holding the workspace's lock. */
export async function withWorkspaceLock<T>(workspaceDir: string, work: () => Promise<T>): Promise<T> {
  await fs.mkdir(workspaceDir, { recursive: true })
  return withFileLock(path.join(workspaceDir, LOCK_NAME), work, {
    busy: (lock, pid) =>
      new Error(
        `the workspace is busy: another import or save (process ${pid ?? 'unknown'}) holds ${lock}; try again`,
      ),
  })
}
