import { mkdirSync, promises as fs, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { Workspace, WorkspaceError } from '../../../../electron/local-service/workspace/workspace'
import type { DatasetFeature } from '../../../../electron/local-service/workspace/features'
import { useTempDirs } from '../../../support/temp-dir'

const tempDir = useTempDirs()

/** Points enough for a data file of several of the synchronous read's 1 MB chunks. */
const points: DatasetFeature[] = Array.from({ length: 30_000 }, (_, i) => ({
  geometry: { type: 'Point', coordinates: [68 + i / 1e4, 8 + i / 3e4] },
  properties: { id: i, name: i % 11 === 0 ? null : `P${i} ${'मुंबई'.repeat(i % 4)}` },
}))

function readError(read: () => unknown): unknown {
  try {
    read()
  } catch (error) {
    return error
  }
  throw new Error('read without error')
}

describe('reading a dataset synchronously', () => {
  it('gives the points the asynchronous read gives, and names damage or a missing file as corrupt data', async () => {
    const dir = tempDir()
    const workspace = new Workspace(dir)
    await workspace.create('pts', points, { source: 'test' })
    const file = path.join(dir, 'datasets', 'pts', 'data.fgb')
    expect(statSync(file).size).toBeGreaterThan(3 << 20)
    const read = workspace.readSync('pts')
    expect(read.points?.count).toBe(points.length)
    expect(read.features).toEqual((await workspace.read('pts')).features)
    expect(read.features).toEqual(points)

    // The last feature cut short, far past the first chunk.
    const good = readFileSync(file)
    writeFileSync(file, good.subarray(0, good.length - 3))
    const cut = readError(() => workspace.readSync('pts'))
    expect(cut).toBeInstanceOf(WorkspaceError)
    expect((cut as WorkspaceError).kind).toBe('corrupt')
    expect((cut as Error).message).toMatch(
      /^The data of dataset "pts" is damaged: feature 29999 declares \d+ bytes but only \d+ remain/,
    )
    await expect(workspace.read('pts')).rejects.toThrow((cut as Error).message)

    rmSync(file)
    const missing = readError(() => workspace.readSync('pts'))
    expect((missing as WorkspaceError).kind).toBe('corrupt')
    expect((missing as Error).message).toMatch(/^The data of dataset "pts" is damaged: ENOENT/)
  })
})

describe('listing the workspace', () => {
  it('reads a manifest saved with a byte order mark, and skips folders that hold no dataset', async () => {
    const dir = tempDir()
    const workspace = new Workspace(dir)
    await workspace.create('a_points', points.slice(0, 3), { source: 'test' })
    await workspace.create('b_points', points.slice(0, 2), { source: 'test' })
    const manifest = path.join(dir, 'datasets', 'b_points', 'manifest.json')
    writeFileSync(manifest, '\uFEFF' + readFileSync(manifest, 'utf8'))
    mkdirSync(path.join(dir, 'datasets', 'c_left_by_a_crash'))
    mkdirSync(path.join(dir, 'datasets', 'd_broken'))
    writeFileSync(path.join(dir, 'datasets', 'd_broken', 'manifest.json'), '{"name": "d_bro')

    const listed = await workspace.list()
    expect(listed.map((m) => [m.name, m.featureCount])).toEqual([
      ['a_points', 3],
      ['b_points', 2],
    ])
  })

  it('fails rather than answer a list with datasets missing when the process runs out of files', async () => {
    const dir = tempDir()
    const workspace = new Workspace(dir)
    for (const name of ['a_points', 'b_points', 'c_points']) {
      await workspace.create(name, points.slice(0, 2), { source: 'test' })
    }
    // The OS refuses one manifest's read as it does when every descriptor is taken (a burst of requests).
    const read = fs.readFile
    const spy = vi
      .spyOn(fs, 'readFile')
      .mockImplementation(((file: string, ...rest: unknown[]) =>
        String(file).includes(`${path.sep}b_points${path.sep}`)
          ? Promise.reject(Object.assign(new Error('EMFILE: too many open files, open'), { code: 'EMFILE' }))
          : (read as (...args: unknown[]) => Promise<unknown>)(file, ...rest)) as typeof fs.readFile)
    try {
      await expect(workspace.list()).rejects.toThrow(/EMFILE/)
    } finally {
      spy.mockRestore()
    }
    expect((await workspace.list()).map((m) => m.name)).toEqual(['a_points', 'b_points', 'c_points'])
  })
})
