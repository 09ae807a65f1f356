import { promises as fs } from 'node:fs'
import path from 'node:path'
import { processAlive } from '../../base/file-lock'
import { STAGING, STAGING_ENTRY } from './workspace'

/**
 * Upload copies of imports live in `<temp>/geo-analyst-import-<pid>-XXXXXX` (the service's own) or
 * `<temp>/geo-analyst-upload-<pid>-XXXXXX` (a host's, for the service to read); older builds: no pid.
 */
const UPLOAD_ENTRY = /^geo-analyst-(?:import|upload)-(?:(\d+)-)?[A-Za-z0-9]{6}$/

/** A live process that kept an entry longer than this is taken to be another one reusing the id. */
const FOREIGN_PID_AGE_MS = 24 * 3600_000

/** When this process started, by the clock files are stamped with. */
export function processStartMs(): number {
  return Date.now() - process.uptime() * 1000
}

/**
 * Whether an entry left by the process `pid` (undefined: a name without one) and last changed at
 * `mtimeMs` is a leftover: its process is gone; or it carries our own id yet predates us (an earlier
 * process had it); or it names no process and predates us.
 */
export function isLeftover(pid: number | undefined, mtimeMs: number, now = Date.now()): boolean {
  const started = processStartMs()
  if (pid === undefined || pid === process.pid) return mtimeMs < started
  if (!processAlive(pid)) return true
  return now - mtimeMs > FOREIGN_PID_AGE_MS
}

async function sweepFolder(
  dir: string,
  pattern: RegExp,
  leftover: (match: RegExpExecArray, mtimeMs: number) => boolean = (match, mtimeMs) =>
    isLeftover(match[1] === undefined ? undefined : Number(match[1]), mtimeMs),
): Promise<string[]> {
  let names: string[]
  try {
    names = await fs.readdir(dir)
  } catch {
    return []
  }
  const removed: string[] = []
  for (const name of names) {
    const match = pattern.exec(name)
    if (!match) continue
    const full = path.join(dir, name)
    try {
      const stat = await fs.lstat(full)
      if (!stat.isDirectory()) continue
      if (!leftover(match, stat.mtimeMs)) continue
      await fs.rm(full, { recursive: true, force: true })
      removed.push(full)
    } catch {
      // Gone meanwhile, or not ours to remove: leave it.
    }
  }
  return removed
}

/**
 * Remove what a process killed mid-way leaves behind (kill -9, a crash, a disconnect that terminated a
 * saving join's worker): staging folders in the workspace and upload copies in the temp folder. Only our
 * own, recognised by name, and only leftovers (see `isLeftover`); never a live process's work in progress.
 * Returns the paths removed.
 */
export async function sweepLeftovers(options: {
  workspaceDir?: string
  tempDir?: string
}): Promise<string[]> {
  const removed: string[] = []
  if (options.workspaceDir) {
    removed.push(...(await sweepFolder(path.join(options.workspaceDir, STAGING), STAGING_ENTRY)))
  }
  if (options.tempDir) removed.push(...(await sweepFolder(options.tempDir, UPLOAD_ENTRY)))
  return removed
}

/**
 * A worker thread of this process has stopped (retired, crashed, or terminated inside a write because its
 * client went away): remove the staging folders it named in the workspace, which nothing will finish now.
 * Thread ids are never reused within a process, so no live thread's folder matches. Returns the paths
 * removed.
 */
export async function sweepStoppedThread(workspaceDir: string, threadId: number): Promise<string[]> {
  return sweepFolder(
    path.join(workspaceDir, STAGING),
    STAGING_ENTRY,
    (match) => Number(match[1]) === process.pid && Number(match[2]) === threadId,
  )
}
