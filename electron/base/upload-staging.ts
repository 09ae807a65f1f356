import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/**
 * Where an upload's bytes wait as a file for the readers, which take files: a private folder
 * (`mkdtemp`: 0700) in the temp folder, named `geo-analyst-<kind>-<pid>-XXXXXX` after this process so the local
 * service's start-up sweep can tell a dead process's copy from a live one.
 */
export function uploadDirPrefix(kind: 'import' | 'upload', tempDir = os.tmpdir()): string {
  return path.join(tempDir, `geo-analyst-${kind}-${process.pid}-`)
}

/**
 * The name the file is staged under: the base name only (a browser or Windows path may use either
 * separator), characters other than letters, digits, `.`, `_` and `-` as `_`, no leading dots.
 */
export function stagedFileName(fileName: string): { original: string; staged: string } {
  const original = fileName.split(/[\\/]/).pop() || 'upload'
  return { original, staged: original.replace(/[^\w.-]+/g, '_').replace(/^\.+/, '') || 'upload' }
}

/**
 * Stage an upload's bytes as a file readable by its owner only (0600), hand it to `use` with the name the
 * user knows, and remove the folder afterwards, whatever `use` did.
 */
export async function withStagedUpload<T>(
  kind: 'import' | 'upload',
  fileName: string,
  bytes: Uint8Array,
  use: (file: string, original: string) => Promise<T>,
): Promise<T> {
  const { original, staged } = stagedFileName(fileName)
  const dir = await fs.mkdtemp(uploadDirPrefix(kind))
  try {
    const file = path.join(dir, staged)
    await fs.writeFile(file, bytes, { mode: 0o600 })
    return await use(file, original)
  } finally {
    await fs.rm(dir, { recursive: true, force: true })
  }
}
