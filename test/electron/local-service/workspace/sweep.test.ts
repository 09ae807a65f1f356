import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { startLocalService } from '../../../../electron/local-service/index'
import { sweepStoppedThread } from '../../../../electron/local-service/workspace/sweep'
import { useTempDirs } from '../../../support/temp-dir'

const tempDir = useTempDirs()
const root = path.resolve(import.meta.dirname, '../../../..')

/** The id of a process that has exited (so no process has it now). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'])
  await new Promise((resolve) => child.on('exit', resolve))
  return child.pid!
}

/** A folder with a file in it, last changed `agoMs` before now. */
async function leftover(dir: string, agoMs: number): Promise<string> {
  await mkdir(dir, { recursive: true })
  await writeFile(path.join(dir, 'data.fgb'), new Uint8Array(1024))
  const when = new Date(Date.now() - agoMs)
  await utimes(dir, when, when)
  return dir
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const found = await probe()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

function bigCsv(n: number): string {
  const rows = ['id,lon,lat']
  for (let i = 0; i < n; i++) rows.push(`${i},${68 + (i % 1000) / 100},${8 + Math.floor(i / 1000) / 100}`)
  return rows.join('\n')
}

describe('leftovers of killed processes are swept at start-up', () => {
  it('removes staging folders and upload copies of processes that are gone, and nothing else', async () => {
    const dir = tempDir()
    const ws = path.join(dir, 'ws')
    const staging = path.join(ws, '.staging')
    const tmp = os.tmpdir()
    const dead = await deadPid()
    const alive = process.ppid
    const hour = 3600_000
    const sweptAway = [
      await leftover(path.join(staging, `roads.${dead}.0123456789ab`), 1000),
      await leftover(path.join(staging, `lakes.${dead}.3.0123456789ab`), 1000), // written by a worker thread
      await leftover(path.join(staging, 'rivers.0123456789ab'), hour), // an older build's name: no pid
      await leftover(path.join(tmp, `geo-analyst-import-${dead}-Ab12Cd`), 1000),
      await leftover(path.join(tmp, `geo-analyst-upload-${dead}-Ef34Gh`), 1000), // a host's copy
    ]
    const kept = [
      await leftover(path.join(staging, `wells.${alive}.0123456789ab`), hour), // a live process's work
      await leftover(path.join(staging, `farms.${alive}.4.0123456789ab`), hour), // a live process's worker
      await leftover(path.join(staging, 'notes'), hour), // not named as ours
      await leftover(path.join(staging, 'fresh.0123456789ab'), -60_000), // newer than this process
      await leftover(path.join(tmp, `geo-analyst-import-${alive}-Zz98Yy`), hour),
    ]
    try {
      const service = await startLocalService({ workspaceDir: ws, sampleData: false })
      await service.close()
      for (const p of sweptAway) expect(existsSync(p), p).toBe(false)
      for (const p of kept) expect(existsSync(p), p).toBe(true)
    } finally {
      for (const p of [...sweptAway, ...kept]) await rm(p, { recursive: true, force: true })
    }
  })

  it('after kill -9 during an import, the next start leaves the workspace as if the import never ran', async () => {
    const dir = tempDir()
    const ws = path.join(dir, 'ws')
    const file = path.join(dir, 'big.csv')
    await writeFile(file, bigCsv(400_000))
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'electron/cli/main.ts'), 'import', file, '--workspace', ws],
      { cwd: root, stdio: 'ignore' },
    )
    const exited = new Promise((resolve) => child.on('exit', resolve))
    try {
      // Kill it while it writes the dataset (its staging folder exists).
      const entry = await waitFor('the staging folder', async () => {
        const names = await readdir(path.join(ws, '.staging')).catch(() => [] as string[])
        return names.find((n) => n.includes(`.${child.pid}.`))
      })
      child.kill('SIGKILL')
      await exited
      expect(existsSync(path.join(ws, '.staging', entry))).toBe(true)
      const service = await startLocalService({ workspaceDir: ws, sampleData: false })
      await service.close()
      expect(await readdir(path.join(ws, '.staging'))).toEqual([])
      expect(await readdir(path.join(ws, 'datasets')).catch(() => [])).toEqual([])
    } finally {
      child.kill('SIGKILL')
    }
  }, 120_000)
})

describe('a stopped worker thread’s staging folders', () => {
  it('are removed, and only they: not another thread’s, another process’s, nor what is not ours', async () => {
    const ws = tempDir()
    const staging = path.join(ws, '.staging')
    const me = process.pid
    const gone = [
      await leftover(path.join(staging, `roads.${me}.7.0123456789ab`), 0),
      await leftover(path.join(staging, `rivers.${me}.7.ba9876543210`), 0),
    ]
    const kept = [
      await leftover(path.join(staging, `roads.${me}.8.0123456789ab`), 0), // a live thread's save
      await leftover(path.join(staging, `roads.${me}.0.0123456789ab`), 0), // the serving thread's import
      await leftover(path.join(staging, `roads.${process.ppid}.7.0123456789ab`), 0), // another process's
      await leftover(path.join(staging, `roads.${me}.0123456789ab`), 0), // no thread in the name
      await leftover(path.join(staging, 'notes'), 0),
    ]
    const removed = await sweepStoppedThread(ws, 7)
    expect(removed.sort()).toEqual([...gone].sort())
    for (const p of gone) expect(existsSync(p), p).toBe(false)
    for (const p of kept) expect(existsSync(p), p).toBe(true)
  })
})
