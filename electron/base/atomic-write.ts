import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import path from 'node:path'

/**
 * Write a file so that readers see either the old content or the new, never a torn mix:
 * write a temporary sibling, fsync it, rename it over the target, then fsync the folder.
 */
export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array,
  options: { mode?: number } = {},
): Promise<void> {
  const dir = path.dirname(target)
  await fs.mkdir(dir, { recursive: true })
  const temp = path.join(dir, `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`)
  const handle = await fs.open(temp, 'wx', options.mode ?? 0o600)
  try {
    await handle.writeFile(data)
    await handle.sync()
  } catch (error) {
    await handle.close()
    await fs.rm(temp, { force: true })
    throw error
  }
  await handle.close()
  try {
    await fs.rename(temp, target)
  } catch (error) {
    await fs.rm(temp, { force: true })
    throw error
  }
  await syncDir(dir)
}

async function syncDir(dir: string): Promise<void> {
  // Directory fsync makes the rename durable on POSIX; Windows cannot open folders this way.
  if (process.platform === 'win32') return
  const handle = await fs.open(dir, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Write JSON atomically with a trailing newline. */
export function writeJsonAtomic(target: string, value: unknown): Promise<void> {
  return writeFileAtomic(target, JSON.stringify(value, null, 2) + '\n')
}
