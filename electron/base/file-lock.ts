import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/**
 * A short exclusive lock beside a file or in a folder, held across threads and processes (the app, the
 * CLI beside it, a second CLI, join workers) while a read-modify-write runs, so two changes at once do not
 * lose one.
 *
 * The lock is a folder (`mkdir` is atomic everywhere) holding its owner's process id, host and a token.
 * The work under it takes milliseconds; a lock whose owner process is gone (same host), or older than
 * `staleMs` (a killed worker thread cannot release it), is broken by the next comer.
 */
export interface FileLockOptions {
  /** How long to wait for another holder before giving up with `busy` (default 30 s). */
  waitMs?: number
  /** A lock older than this is taken to be left behind (default 10 s). */
  staleMs?: number
  /** The error thrown when the wait is over: what is busy, and which process holds it. */
  busy: (lock: string, ownerPid: number | undefined) => Error
  /** The error thrown when the lock cannot be made at all (a missing or read-only folder); default as is. */
  cannotLock?: (error: NodeJS.ErrnoException, lock: string) => Error
}

const OWNER = 'owner.json'
export const DEFAULT_STALE_MS = 10_000
const DEFAULT_WAIT_MS = 30_000

interface Owner {
  pid: number
  host: string
  token: string
  created: number
}

/** Whether a process with this id runs on this machine (signal 0 tests without sending anything). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

async function readOwner(lock: string): Promise<Owner | undefined> {
  try {
    return JSON.parse(await fs.readFile(path.join(lock, OWNER), 'utf8')) as Owner
  } catch {
    return undefined
  }
}

/** A lock left by a process that is gone, or held far longer than the work under it takes. */
async function isStale(lock: string, staleMs: number, now = Date.now()): Promise<boolean> {
  const owner = await readOwner(lock)
  if (owner && owner.host === os.hostname() && !processAlive(owner.pid)) return true
  const created =
    owner?.created ??
    (await fs.stat(lock).then(
      (s) => s.mtimeMs,
      () => now,
    ))
  return now - created > staleMs
}

/** Callers of this thread queue here first, so they do not poll the folder against each other. */
const queues = new Map<string, Promise<unknown>>()

async function acquire(lock: string, options: FileLockOptions): Promise<string> {
  const token = randomBytes(8).toString('hex')
  const deadline = Date.now() + (options.waitMs ?? DEFAULT_WAIT_MS)
  let wait = 5
  for (;;) {
    try {
      await fs.mkdir(lock)
      const owner: Owner = { pid: process.pid, host: os.hostname(), token, created: Date.now() }
      await fs.writeFile(path.join(lock, OWNER), JSON.stringify(owner))
      return token
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
        throw options.cannotLock?.(error as NodeJS.ErrnoException, lock) ?? error
    }
    if (await isStale(lock, options.staleMs ?? DEFAULT_STALE_MS)) {
      await fs.rm(lock, { recursive: true, force: true })
      continue
    }
    if (Date.now() > deadline) throw options.busy(lock, (await readOwner(lock))?.pid)
    await new Promise((resolve) => setTimeout(resolve, wait))
    wait = Math.min(wait * 2, 200)
  }
}

async function release(lock: string, token: string): Promise<void> {
  // Only our own lock: after a staleness break another owner may hold the folder now.
  if ((await readOwner(lock))?.token === token) await fs.rm(lock, { recursive: true, force: true })
}

/** Run `work` holding the lock folder `lock` (its parent folder must exist). */
export async function withFileLock<T>(
  lock: string,
  work: () => Promise<T>,
  options: FileLockOptions,
): Promise<T> {
  const key = path.resolve(lock)
  const previous = queues.get(key) ?? Promise.resolve()
  const run = previous.then(async () => {
    const token = await acquire(lock, options)
    try {
      return await work()
    } finally {
      await release(lock, token)
    }
  })
  const settled = run.catch(() => undefined)
  queues.set(key, settled)
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key)
  })
  return run
}
