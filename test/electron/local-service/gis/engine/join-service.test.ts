import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import v8 from 'node:v8'
import vm from 'node:vm'
import { afterAll, describe, expect, it } from 'vitest'
import {
  DATASET_CACHE_BYTES,
  estimateTableBytes,
} from '../../../../../electron/local-service/gis/engine/join-service'
import { Workspace } from '../../../../../electron/local-service/workspace/workspace'
import { districts, mulberry32, points, smallPolygons } from '../../../../../bench/join-data'

v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void

const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-estimate-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/**
 * What V8 holds for a dataset as the worker reads it, its features made (a point dataset read column-wise
 * holds less until a join asks for them): heap growth after a full collection, and the index.
 */
function measuredRead(workspace: Workspace, name: string) {
  gc()
  gc()
  const before = process.memoryUsage().heapUsed
  const read = workspace.readSync(name)
  void read.features
  gc()
  gc()
  const heap = process.memoryUsage().heapUsed - before
  return { read, bytes: heap + read.index.data.byteLength }
}

describe('the dataset cache’s memory estimate', () => {
  it('counts a point dataset at what it holds, so a million points with an id and a name stay cached', async () => {
    const workspace = new Workspace(dir)
    const random = mulberry32(3)
    const count = 100_000
    await workspace.create(
      'pts',
      points(count, random).map((f, i) => ({ ...f, properties: { id: i, name: `P${i}` } })),
      { source: 'test' },
    )
    const { read, bytes } = measuredRead(workspace, 'pts')
    const estimate = estimateTableBytes(read.features, read.index)
    // Never below what is held (the budget must hold), never far above it (the table must stay cached).
    expect(estimate).toBeGreaterThanOrEqual(bytes)
    expect(estimate).toBeLessThan(bytes * 1.5)
    expect((estimate * 1_000_000) / count).toBeLessThan(DATASET_CACHE_BYTES)
  })

  it('counts polygon datasets at no less than their JavaScript objects and index (GEOS copies come on top)', async () => {
    const workspace = new Workspace(dir)
    await workspace.create('polys', smallPolygons(10_000, mulberry32(4)), { source: 'test' })
    await workspace.create('districts', districts(), { source: 'test' })
    for (const name of ['polys', 'districts']) {
      const { read, bytes } = measuredRead(workspace, name)
      const estimate = estimateTableBytes(read.features, read.index)
      expect(estimate, name).toBeGreaterThanOrEqual(bytes)
      expect(estimate, name).toBeLessThan(bytes * 2)
    }
  })
})
