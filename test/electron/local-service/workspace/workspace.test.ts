import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
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
