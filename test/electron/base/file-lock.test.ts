import { existsSync, readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { withFileLock } from '../../../electron/base/file-lock'
import { exited, lockChild, printed } from '../../support/lock-processes'
import { useTempDirs } from '../../support/temp-dir'

const tempDir = useTempDirs()
const busy = (lock: string, pid: number | undefined) => new Error(`${lock} is held by process ${pid}`)

describe('a lock across processes', () => {
  it('four processes counting under one lock lose no count', async () => {
    const dir = tempDir()
    const lock = path.join(dir, 'counter.lock')
    const file = path.join(dir, 'counter')
    const runs = await Promise.all([0, 1, 2, 3].map(() => exited(lockChild(['count', lock, file, '25']))))
    for (const run of runs) expect(run.code, run.stderr).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe('100')
    expect(existsSync(lock)).toBe(false)
  }, 60_000)

  it('callers in one thread take turns too', async () => {
    const dir = tempDir()
    const file = path.join(dir, 'counter')
    await writeFile(file, '0')
    await Promise.all(
      Array.from({ length: 40 }, () =>
        withFileLock(
          path.join(dir, 'counter.lock'),
          async () => {
            const n = Number(readFileSync(file, 'utf8'))
            await new Promise((resolve) => setImmediate(resolve))
            await writeFile(file, String(n + 1))
          },
          { busy },
        ),
      ),
    )
    expect(readFileSync(file, 'utf8')).toBe('40')
  })

  it('a lock held by a live process is waited for, then refused naming the process', async () => {
    const lock = path.join(tempDir(), 'held.lock')
    const holder = lockChild(['hold', lock])
    try {
      await printed(holder, 'held')
      const started = Date.now()
      await expect(withFileLock(lock, async () => 'mine', { busy, waitMs: 400 })).rejects.toThrow(
        `${lock} is held by process ${holder.pid}`,
      )
      expect(Date.now() - started).toBeGreaterThanOrEqual(400)
    } finally {
      holder.kill('SIGKILL')
    }
  }, 30_000)

  it('a lock left by a process that was killed is taken at once', async () => {
    const lock = path.join(tempDir(), 'left.lock')
    const holder = lockChild(['hold', lock])
    await printed(holder, 'held')
    const gone = exited(holder)
    holder.kill('SIGKILL')
    await gone
    expect(existsSync(lock)).toBe(true)
    const started = Date.now()
    expect(await withFileLock(lock, async () => 'mine', { busy, waitMs: 5_000 })).toBe('mine')
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(existsSync(lock)).toBe(false)
  }, 30_000)

  it('an error in the work releases the lock and reaches the caller', async () => {
    const lock = path.join(tempDir(), 'x.lock')
    await expect(withFileLock(lock, () => Promise.reject(new Error('broken')), { busy })).rejects.toThrow(
      'broken',
    )
    expect(await withFileLock(lock, async () => 'next', { busy, waitMs: 100 })).toBe('next')
  })

  it('a lock that cannot be made says why, through the caller’s words', async () => {
    const lock = path.join(tempDir(), 'missing-folder', 'x.lock')
    await expect(
      withFileLock(lock, async () => 'never', {
        busy,
        cannotLock: (error, at) => new Error(`cannot lock ${at}: ${error.code}`),
      }),
    ).rejects.toThrow(`cannot lock ${lock}: ENOENT`)
  })
})
