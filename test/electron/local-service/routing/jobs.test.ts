import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { JobCancelled, WorkerPool } from '../../../../electron/local-service/pool/worker-pool'
import {
  resolveRoutingDataDir,
  SAMPLE_NETWORK,
} from '../../../../electron/local-service/routing/data/networks'
import { writeTown } from '../../../support/road-town'
import { useTempDirs } from '../../../support/temp-dir'

const sample = { id: SAMPLE_NETWORK.id, file: path.join(resolveRoutingDataDir()!, SAMPLE_NETWORK.file) }
const pools: WorkerPool[] = []
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()))
})

describe('routing job kinds in the worker pool', () => {
  const tempDir = useTempDirs()

  it('answers a matrix in a worker, keeping the hierarchy in the cache folder for the next start', async () => {
    const cacheDir = tempDir()
    const job = {
      kind: 'matrix' as const,
      networks: [sample],
      profile: 'driving' as const,
      rtype: 0 as const,
      traffic: { kind: 'free' as const },
      positions: [
        [11.9668, 57.7072],
        [11.9746, 57.7089],
        [11.94, 57.69],
      ] as Array<[number, number]>,
      sources: [0],
      destinations: [0, 1, 2],
      cacheDir,
    }
    const pool = new WorkerPool({ workers: 1 })
    pools.push(pool)
    const first = await pool.run('routing.matrix', job)
    expect(first.network).toBe('gothenburg-sample')
    expect(first.durations[0]![0]).toBe(0)
    expect(first.durations[0]![1]).toBeGreaterThan(0)
    expect(readdirSync(cacheDir).filter((f) => f.endsWith('.ch'))).toHaveLength(1)
    await pool.close()
    // A new worker reads the hierarchy instead of contracting again, and answers the same.
    const again = new WorkerPool({ workers: 1 })
    pools.push(again)
    const second = await again.run('routing.matrix', job)
    expect(second.durations).toEqual(first.durations)
    expect(second.timing.prepare).toBeLessThan(first.timing.prepare)
  })

  it('imports an extract with progress, and a cancelled import leaves no network', async () => {
    const dir = tempDir()
    const files = await writeTown(dir)
    const pool = new WorkerPool({ workers: 1 })
    pools.push(pool)
    const outFile = path.join(dir, 'town.roadnet')
    const phases: string[] = []
    const done = await pool.run(
      'routing.import',
      {
        file: files.pbf,
        outFile,
        meta: { id: 'town', name: 'Town', attribution: 'test', source: 'town.osm.pbf' },
      },
      { weight: 1e9, onProgress: (p) => phases.push(p.phase) },
    )
    expect(done.header.counts.edges).toBe(17)
    expect(new Set(phases)).toEqual(new Set(['reading ways', 'reading nodes', 'building graph', 'writing']))
    const controller = new AbortController()
    const cancelled = path.join(dir, 'cancelled.roadnet')
    const running = pool.run(
      'routing.import',
      { file: files.pbf, outFile: cancelled, meta: { id: 'c', name: 'C', attribution: 'test', source: 'x' } },
      { weight: 1e9, signal: controller.signal, onProgress: () => controller.abort() },
    )
    await expect(running).rejects.toBeInstanceOf(JobCancelled)
    expect(existsSync(cancelled)).toBe(false)
  })
})
